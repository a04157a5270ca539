// `cost-dashboard` as installed (package.json "bin": dist/cost-dashboard.cjs). A statusline render is a new
// process each time, and starting Node's ES module loader alone costs it ~5 ms of a budget of ~20 above Node's
// own start, so this entry is CommonJS: `statusline` requires its one-file CommonJS bundle (dist/statusline.cjs),
// anything else imports dist/main.js (src/bin.ts), the ES module entry that the hub and `npm start` run directly.
import type { statuslineCommand } from './cli/statusline-command.ts';
import module = require('node:module');

// Node >= 22.1 keeps V8's compiled code on disk between runs (see src/bin.ts); feature-detected.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** Variables, so the build leaves both to load at run time (they are files of dist/ beside this one). */
const STATUSLINE_BUNDLE = './statusline.cjs';
const ESM_ENTRY = './main.js';

if (process.argv[2] === 'statusline') {
  const bundle = require(STATUSLINE_BUNDLE) as { statuslineCommand: typeof statuslineCommand };
  void bundle.statuslineCommand(process.argv.slice(2), process.env);
} else {
  void import(ESM_ENTRY);
}
