// `cost-dashboard backup <file> [--keep N]` and `cost-dashboard restore <file> [--force]` (issue 34): the index is the
// only copy of the history of deleted transcripts. A backup is SQLite's online backup, consistent while a server
// writes; with --keep N it is a dated file beside <file> and only the N newest such files stay. A restore refuses an
// index newer than the backup unless --force, and keeps the replaced index aside.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, parseConfig, type Config } from '../config/config.ts';
import { BackupError, backupIndex, restoreIndex, type IndexSummary } from '../index-db/backup.ts';

export type BackupCommand = 'backup' | 'restore';

export interface BackupArgs {
  command: BackupCommand;
  file: string;
  /** backup --keep N: dated files, the N newest kept; null: exactly `file`. */
  keep: number | null;
  /** restore --force: replace an index newer than the backup. */
  force: boolean;
  config: Config;
  help: string | null;
}

const INDEX_OPTIONS = `Index options (the server's; the same flags find the same index file):
  --dir <path[,path...]>  Config dir(s) (AGENT_CONFIG_DIR, AGENT_DIR; default ~/.claude)
  --index <file>          Index database file (COST_INDEX)
  --machine <name>        This machine's label
  --prices <url|file>     Price catalogue source (PRICES_URL)
  --offline               Never fetch prices from the network
  --cost-mode <mode>      auto or calculate
  -h, --help              Print this help
`;

const HELP: Record<BackupCommand, string> = {
  backup: `Usage: cost-dashboard backup <file> [--keep N] [options]

Copies the index into <file> with SQLite's online backup: one consistent state of the index, also while a server
writes it. The copy is checked (PRAGMA integrity_check) before it is kept. <file> must not exist.

Options:
  --keep <N>              Write a dated file beside <file> (<name>-<UTC time><ext>) and keep only the N newest

${INDEX_OPTIONS}`,
  restore: `Usage: cost-dashboard restore <file> [--force] [options]

Puts the backup <file> in the index's place, after checking it. Refuses while a server or command writes the index,
and when the index holds usage newer than the backup (unless --force). The replaced index is kept as
<index>.before-restore-<time>.

Options:
  --force                 Replace an index that is newer than the backup

${INDEX_OPTIONS}`,
};

const SERVER_FLAGS = new Set(['dir', 'index', 'prices', 'offline', 'cost-mode', 'machine']);

export function parseBackupArgs(argv: string[], env: NodeJS.ProcessEnv): BackupArgs {
  const command = argv[0] as BackupCommand;
  const serverFlags: string[] = [];
  let file: string | null = null;
  let keep: number | null = null;
  let force = false;
  let help = false;
  const rest = argv.slice(1);
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    const m = /^--([a-z-]+)(?:=([\s\S]*))?$/.exec(arg);
    if (!m && arg.startsWith('-') && arg !== '-') throw new ConfigError(`Unknown option for ${command}: ${arg} (see cost-dashboard ${command} --help)`);
    if (!m) {
      if (file !== null) throw new ConfigError(`Unexpected argument: ${arg} (see cost-dashboard ${command} --help)`);
      file = arg;
      continue;
    }
    const flag = m[1]!;
    if (command === 'restore' && flag === 'force' && m[2] === undefined) {
      force = true;
      continue;
    }
    if (flag === 'offline' && m[2] === undefined) {
      serverFlags.push(arg);
      continue;
    }
    const isKeep = command === 'backup' && flag === 'keep';
    if (!isKeep && !SERVER_FLAGS.has(flag)) throw new ConfigError(`Unknown option for ${command}: ${arg} (see cost-dashboard ${command} --help)`);
    const value = m[2] ?? rest[++i];
    if (value === undefined || value === '' || (m[2] === undefined && value.startsWith('--'))) throw new ConfigError(`Option --${flag} needs a value`);
    if (isKeep) {
      if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000) throw new ConfigError(`Invalid --keep "${value}": expected a whole number of backups from 1 to 10000`);
      keep = Number(value);
    } else serverFlags.push(`--${flag}=${value}`);
  }
  const config = parseConfig(serverFlags, { ...env, PORT: undefined, HUB_URL: undefined });
  if (help) return { command, file: file ?? '', keep, force, config, help: HELP[command] };
  if (file === null) throw new ConfigError(`${command} needs a file: cost-dashboard ${command} <file> (see --help)`);
  return { command, file: path.resolve(file), keep, force, config, help: null };
}

const STAMP = /^\d{8}T\d{9}Z$/;

/** `<dir>/<stem>-<UTC time to the ms><ext>` for `<dir>/<stem><ext>`. */
export function datedName(file: string, now: Date): string {
  const ext = path.extname(file);
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  return path.join(path.dirname(file), `${path.basename(file, ext)}-${stamp}${ext}`);
}

/** The dated backups of `file` (as datedName names them), oldest first. */
export function datedBackups(file: string): string[] {
  const ext = path.extname(file);
  const stem = path.basename(file, ext);
  const dir = path.dirname(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(`${stem}-`) && n.endsWith(ext) && STAMP.test(n.slice(stem.length + 1, n.length - ext.length)))
    .sort()
    .map((n) => path.join(dir, n));
}

const summaryLine = (s: IndexSummary): string =>
  `${s.messages} usage entries, $${s.cost.toFixed(2)}, newest ${s.newestEntry === null ? 'none' : new Date(s.newestEntry).toISOString()}`;

export async function runBackup(args: BackupArgs, warn: (msg: string) => void, now: Date = new Date()): Promise<number> {
  const index = args.config.indexPath;
  try {
    if (args.command === 'restore') {
      const r = restoreIndex(index, args.file, args.force, now);
      warn(`restored ${index} from ${args.file} (${summaryLine(r.summary)})${r.aside ? `; the replaced index is kept as ${r.aside}` : ''}`);
      return 0;
    }
    const target = args.keep === null ? args.file : datedName(args.file, now);
    const summary = await backupIndex(index, target, now);
    process.stdout.write(`${JSON.stringify({ path: target, ...summary })}\n`);
    if (args.keep !== null) {
      const dated = datedBackups(args.file);
      for (const old of dated.slice(0, Math.max(0, dated.length - args.keep))) fs.rmSync(old, { force: true });
    }
    warn(`backed up ${index} to ${target} (${summaryLine(summary)})`);
    return 0;
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    warn(err.message);
    return 1;
  }
}
