// `cost-dashboard` as installed (package.json "bin": dist/cost-dashboard.cjs). A statusline render or a report is a
// new process each time, and starting Node's ES module loader and the server build's chunks costs it more than its
// own work, so this entry is CommonJS: `statusline` requires its one-file CommonJS bundle (dist/statusline.cjs), any
// other command the command line's (dist/commands.cjs), and the server imports dist/main.js (src/bin.ts), the ES
// module entry that the hub and `npm start` run directly.
import type { statuslineCommand } from './cli/statusline-command.ts';
import type { runCliAndExit } from './cli/index.ts';
import module = require('node:module');
import requireWithCodeCache = require('./code-cache.cts');

// Node >= 22.1 keeps V8's compiled code on disk between runs (see src/bin.ts); older Nodes get the bundles' from
// requireWithCodeCache.
const compileCache = (module as { enableCompileCache?: () => unknown }).enableCompileCache;
compileCache?.();

/** Variables, so the build leaves them to load at run time (they are files of dist/ beside this one). */
const STATUSLINE_BUNDLE = './statusline.cjs';
const COMMANDS_BUNDLE = './commands.cjs';
const ESM_ENTRY = './main.js';

function requireBundle(name: string): unknown {
  const file = require.resolve(name);
  return compileCache ? require(file) : requireWithCodeCache(file);
}

const first = process.argv[2];
if (first === 'statusline') {
  void (requireBundle(STATUSLINE_BUNDLE) as { statuslineCommand: typeof statuslineCommand }).statuslineCommand(process.argv.slice(2), process.env);
} else if (first !== undefined && !first.startsWith('-')) {
  void (requireBundle(COMMANDS_BUNDLE) as { runCliAndExit: typeof runCliAndExit }).runCliAndExit(process.argv.slice(2), process.env);
} else {
  void import(ESM_ENTRY);
}
