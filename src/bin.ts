// dist/main.js: the server's entry (the hub and `npm start` run it) and every command's. The installed executable,
// dist/cost-dashboard.cjs (src/launcher.cts), sends only the server here. `statusline` runs from its own one-file
// CommonJS bundle (build.mjs): a render is a new process every time, and loading it is most of its cost. Any other
// first argument that is not a flag is a command of the command line (src/cli), from its own one-file CommonJS
// bundle too (a report is a new process as well, and must not pay for loading the server's modules); anything else
// starts the server as always (its own chunk).
import module from 'node:module';

// Node >= 22.1 keeps V8's compiled code of the modules it loads on disk (its default folder under the OS's temp
// dir), so a process that runs again compiles nothing; feature-detected, since Node 20 has no cache for ES modules.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

type StatuslineBundle = typeof import('./cli/statusline-command.ts');
type CommandsBundle = typeof import('./cli/index.ts');
/** Variables, so the server's build leaves the bundles to load at run time instead of splitting them in. */
const STATUSLINE_BUNDLE = './statusline.cjs';
const COMMANDS_BUNDLE = './commands.cjs';

const first = process.argv[2];
if (first === 'statusline') {
  const { statuslineCommand } = module.createRequire(import.meta.url)(STATUSLINE_BUNDLE) as StatuslineBundle;
  await statuslineCommand(process.argv.slice(2), process.env);
} else if (first !== undefined && !first.startsWith('-')) {
  const { runCliAndExit } = module.createRequire(import.meta.url)(COMMANDS_BUNDLE) as CommandsBundle;
  await runCliAndExit(process.argv.slice(2), process.env);
} else {
  await import('./main/index.ts');
}
