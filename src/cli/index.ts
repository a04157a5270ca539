// The command line on the dashboard's index: `cost-dashboard <command>` (src/launcher.cts and src/bin.ts send every
// first argument that is not a flag here). The exit code: 0, 1 when the index cannot be opened, 2 for bad input; the
// statusline always exits 0 with a line on stdout.
// Each command's module is loaded when it runs. (dist/main.js runs `statusline` from its own bundle; it is
// handled here too so that every command this parses, it runs.)
import { IndexWriteError } from '../index-db/errors.ts';
import { settleIndexFile } from '../index-db/relocate.ts';
import { ConfigError } from '../config/config.ts';
import { parseCliArgs } from './args.ts';
import { warn } from './warn.ts';

async function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (argv[0] === 'statusline') return (await import('./statusline-command.ts')).statuslineCommand(argv, env);
  if (argv[0] === 'backup' || argv[0] === 'restore') return runBackupCommand(argv, env);
  const args = parsedOr(() => parseCliArgs(argv, env));
  if (typeof args === 'number') return args;
  const command = args.command;
  if (command === 'statusline') throw new Error('unreachable: statusline is dispatched above');
  // Every other command writes the index (or may): it moves an index an older version left in the cache dir.
  const settled = { ...args, config: { ...args.config, indexPath: settleIndexFile(args.config.indexPath, args.config.formerIndexPath, { move: true, log: warn }) } };
  try {
    if (command === 'update') return await (await import('./update.ts')).runUpdate(settled, warn);
    if (command === 'limits') return await (await import('./run-limits.ts')).runLimits(settled, warn);
    return await (await import('./run-report.ts')).runReport({ ...settled, command }, warn);
  } catch (err) {
    if (!(err instanceof IndexWriteError)) throw err;
    warn(err.message);
    return 1;
  }
}

/** backup and restore take a file argument, so they have their own parser (backup.ts). */
async function runBackupCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { parseBackupArgs, runBackup } = await import('./backup.ts');
  const args = parsedOr(() => parseBackupArgs(argv, env));
  if (typeof args === 'number') return args;
  // An index an older version left in the cache dir: a backup reads it there, a restore moves it first (it writes).
  const indexPath = settleIndexFile(args.config.indexPath, args.config.formerIndexPath, { move: args.command === 'restore', log: warn });
  return runBackup({ ...args, config: { ...args.config, indexPath } }, warn);
}

/** A command's arguments, or its exit code once there is nothing more to run: 2 for bad input, 0 after its help. */
function parsedOr<T extends { help: string | null }>(parse: () => T): T | number {
  let args: T;
  try {
    args = parse();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    warn(err.message);
    return 2;
  }
  if (args.help === null) return args;
  process.stdout.write(args.help);
  return 0;
}

/**
 * A command as the process it is: once its output is out, the process ends there. Left to end by itself, Node first
 * tears down V8's heap and its own environment, which grows with the history a report has read, and nothing of the
 * command is left to finish by then: its index is closed, its pool ended, its files written synchronously. stdout and stderr are drained first, since a pipe is written
 * asynchronously on some systems (macOS).
 */
export async function runCliAndExit(argv: string[], env: NodeJS.ProcessEnv): Promise<never> {
  // A reader that stops early (`| head`) only leaves the rest of the answer unread: not an error of the command.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
  const code = await runCli(argv, env);
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
  process.exit(code);
}
