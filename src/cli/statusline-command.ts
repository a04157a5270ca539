// `cost-dashboard statusline` from its argv: a bad option still prints a line (a broken statusLine setting must
// not leave the bar blank), --help its text, else the render (statusline.ts). dist/main.js runs it from its own
// one-file bundle, dist/statusline.js (build.mjs), so a render loads two files and better-sqlite3, nothing more.
import { ConfigError } from '../main/config.ts';
import { parseCliArgs } from './args.ts';
import { runStatusline } from './statusline.ts';
import { warn } from './warn.ts';

export async function statuslineCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let args;
  try {
    args = parseCliArgs(argv, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    warn(err.message);
    process.stdout.write('💰 cost-dashboard: bad statusline options (see its stderr)\n');
    return 0;
  }
  if (args.help !== null) {
    process.stdout.write(args.help);
    return 0;
  }
  return runStatusline(args, warn);
}
