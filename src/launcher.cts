// `cost-dashboard` as installed (package.json "bin": dist/cost-dashboard.cjs). A statusline render is a new
// process each time, and starting Node's ES module loader alone costs it ~5 ms of a budget of ~20 above Node's
// own start, so this entry is CommonJS: `statusline` requires its one-file CommonJS bundle (dist/statusline.cjs),
// anything else imports dist/main.js (src/bin.ts), the ES module entry that the hub and `npm start` run directly.
import type { statuslineCommand } from './cli/statusline-command.ts';
import module = require('node:module');
import requireWithCodeCache = require('./code-cache.cts');

// Node >= 22.1 keeps V8's compiled code on disk between runs (see src/bin.ts); older Nodes get the statusline's
// from requireWithCodeCache.
const compileCache = (module as { enableCompileCache?: () => unknown }).enableCompileCache;
compileCache?.();

/** Variables, so the build leaves both to load at run time (they are files of dist/ beside this one). */
const STATUSLINE_BUNDLE = './statusline.cjs';
const ESM_ENTRY = './main.js';

if (process.argv[2] === 'statusline') {
  const file = require.resolve(STATUSLINE_BUNDLE);
  const bundle = (compileCache ? require(file) : requireWithCodeCache(file)) as { statuslineCommand: typeof statuslineCommand };
  void bundle.statuslineCommand(process.argv.slice(2), process.env);
} else {
  void import(ESM_ENTRY);
}
