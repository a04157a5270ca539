// The command line on the dashboard's index: `cost-dashboard <command>` (src/bin.ts sends every first
// argument that is not a flag here). Returns the exit code: 0, 1 when the index cannot be opened, 2 for bad
// input; the statusline always exits 0 with a line on stdout.
import { IndexWriteError } from '../index-db/index.ts';
import { ConfigError } from '../main/config.ts';
import { parseCliArgs } from './args.ts';
import { runReport } from './run-report.ts';
import { runStatusline } from './statusline.ts';
import { runUpdate } from './update.ts';

// One line per problem, whatever the message holds (a JSON error quotes the bad input).
const warn = (msg: string): void => void process.stderr.write(`cost-dashboard: ${msg.replace(/\s*\n\s*/g, " ")}\n`);

export async function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let args;
  try {
    args = parseCliArgs(argv, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    warn(err.message);
    // A broken statusLine setting still shows a line instead of a blank bar.
    if (argv[0] === 'statusline') {
      process.stdout.write('💰 cost-dashboard: bad statusline options (see its stderr)\n');
      return 0;
    }
    return 2;
  }
  if (args.help !== null) {
    process.stdout.write(args.help);
    return 0;
  }
  if (args.command === 'statusline') return runStatusline(args, warn);
  try {
    if (args.command === 'update') return await runUpdate(args, warn);
    return await runReport({ ...args, command: args.command }, warn);
  } catch (err) {
    if (!(err instanceof IndexWriteError)) throw err;
    warn(err.message);
    return 1;
  }
}
