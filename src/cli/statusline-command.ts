// `cost-dashboard statusline` from its argv: a bad option still prints a line (a broken statusLine setting must
// not leave the bar blank), --help its text, else the render (statusline.ts). The installed executable and
// dist/main.js run it from its own one-file CommonJS bundle, dist/statusline.cjs (build.mjs), so a render loads
// that file and better-sqlite3's addon, nothing more.
import { ConfigError } from '../config/config.ts';
import { settleIndexFile } from '../index-db/relocate.ts';
import { parseCliArgs } from './args.ts';
import { runStatusline, writeOut } from './statusline.ts';

/** stderr written at once, as the line: a render ends with process.exit, which must not drop it. */
const warn = (msg: string): void => writeOut(2, `cost-dashboard: ${msg.replace(/\s*\n\s*/g, ' ')}\n`);

/**
 * One render is one process: it exits 0 once its line is out, so nothing it leaves behind (a read of a stdin that
 * never closes, which no timer can cancel) keeps Claude Code waiting for it.
 */
export async function statuslineCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<never> {
  let args;
  try {
    args = parseCliArgs(argv, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    warn(err.message);
    writeOut(1, '💰 cost-dashboard: bad statusline options (see its stderr)\n');
    process.exit(0);
  }
  if (args.help !== null) {
    writeOut(1, args.help);
    process.exit(0);
  }
  // A render only reads: an index an older version left in the cache dir is read there until a writer moves it.
  const indexPath = settleIndexFile(args.config.indexPath, args.config.formerIndexPath, { move: false, log: warn });
  process.exit(await runStatusline({ ...args, config: { ...args.config, indexPath } }, warn));
}
