// Flags + environment -> one filled, validated Config. There is no config file (spec "Runtime
// configuration"): a flag wins over its environment variable, the spec's AGENT_* names win over
// the CLAUDE_* aliases (decisions.md). Any bad input throws ConfigError with a one-line message;
// the caller prints it and exits 2.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CostMode } from '../pricing/types.ts';
import { MACHINE_RE } from '../shared/machine-label.ts';
import { sha256Hex } from './sha256.ts';

export interface Config {
  port: number;
  host: string;
  /** Lower-cased host names accepted in the Host header besides loopback names. */
  allowedHosts: string[];
  /** Config dirs read (absolute). */
  dirs: string[];
  /** `<dir>/projects` for each dir: where transcripts are read. */
  projectsDirs: string[];
  /** The machine of each dir: its `label=` (--dir), null for this machine (an unlabelled dir, or the label of --machine). */
  dirMachines: (string | null)[];
  /** This machine's label (--machine, default the host name): the `machine` of what the dirs hold. */
  machine: string;
  /** Bearer token /metrics requires (--metrics-token, METRICS_TOKEN); null = none. */
  metricsToken: string | null;
  /** Configured dirs missing at start whose history the index holds: served from it, read again when they appear. */
  missingDirs: string[];
  /** True when the dirs came from --dir or the environment (not the default). */
  dirsExplicit: boolean;
  open: boolean;
  /** SQLite index file. */
  indexPath: string;
  /** Where an older version kept the default index (the user cache dir), when the index is the default and that
   *  place differs: an index found there is moved to `indexPath` once (src/index-db/relocate.ts). Else null. */
  formerIndexPath: string | null;
  /** Price catalogue URL or file (--prices, PRICES_URL); null = the public LiteLLM catalogue. */
  prices: string | null;
  offline: boolean;
  costMode: CostMode;
  /** Executable of the plan usage probe. */
  agentBin: string;
  /** --poll-limits: minutes between plan usage probes while the server runs (each starts the CLI); null = never. */
  pollLimitsMinutes: number | null;
  /** AGENT_HUB|CLAUDE_HUB is set: running as a hub tab. */
  hub: boolean;
  /** Origin of HUB_URL (no trailing slash), null when unset. */
  hubUrl: string | null;
  hubSdkServer: string | null;
  /** --keep-transcripts: the folder every transcript read is kept in; null when keeping is off. */
  keepTranscripts: string | null;
  /** Set when --help was given: the text to print (then exit 0). */
  help: string | null;
  /** Set when --version was given: the package version to print (then exit 0). */
  version: string | null;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly exitCode = 2;
}

export const DEFAULT_PORT = 3543;

export const HELP_TEXT = `Usage: cost-dashboard [options]
       cost-dashboard <command> [options]   daily, weekly, monthly, session, blocks, statusline, update,
                                            backup, restore, limits
                                            (cost-dashboard <command> --help)

Local cost dashboard for Claude Code transcripts.

Options (a flag wins over its environment variable; --flag value or --flag=value):
  --port <n>              Port to listen on (PORT; default ${DEFAULT_PORT}; 0 = any free port)
  --dir <path[,path...]>  Config dir(s) to read (AGENT_CONFIG_DIR, AGENT_DIR; default ~/.claude
                          plus ~/.config/claude); label=path: another machine's synced dir
  --host <addr>           Address to bind (HOST; default 127.0.0.1)
  --allowed-hosts <list>  Extra host names accepted in the Host header (ALLOWED_HOSTS)
  --index <file>          Index database file (COST_INDEX; default in the user data dir)
  --prices <url|file>     Price catalogue source (PRICES_URL)
  --machine <name>        This machine's label in /metrics (default: the host name)
  --metrics-token <token> Bearer token GET /metrics requires (METRICS_TOKEN); needed to
                          serve /metrics on a non-loopback --host
  --offline               Never fetch prices from the network (a --prices file is still
                          read; otherwise the built-in table)
  --cost-mode <mode>      auto (a line's costUSD wins) or calculate (always from tokens)
  --open                  Open the dashboard in the browser after start
  --keep-transcripts [dir]
                          Keep every transcript read in dir (default <index>.transcripts), so
                          Claude Code's cleanup does not take them; nothing there is ever deleted
  --poll-limits <minutes> Ask the agent CLI for the plan usage every N minutes (1-1440) and keep the
                          readings; off by default (each probe starts the CLI, which runs its
                          SessionStart hooks)
  --version               Print the version
  --help                  Print this help

Environment: AGENT_BIN (probe executable), AGENT_HUB / HUB_URL / HUB_SDK_SERVER (hub mode).
`;

/** 'optional': a value when the next argument is not a flag, else given alone. */
type FlagKind = 'value' | 'bool' | 'optional';
export const FLAGS: Readonly<Record<string, FlagKind>> = {
  port: 'value', dir: 'value', host: 'value', 'allowed-hosts': 'value', index: 'value', prices: 'value',
  'cost-mode': 'value', machine: 'value', 'poll-limits': 'value', 'metrics-token': 'value', open: 'bool', offline: 'bool', help: 'bool', version: 'bool',
  'keep-transcripts': 'optional',
};

/** Splits argv into flag values; throws on unknown flags, missing values and stray arguments. */
function readFlags(argv: string[]): Map<string, string | true> {
  const out = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--([a-z-]+)(?:=([\s\S]*))?$/.exec(arg);
    if (!m) throw new ConfigError(`Unexpected argument: ${arg} (see --help)`);
    const name = m[1]!;
    const kind = FLAGS[name];
    if (!kind) throw new ConfigError(`Unknown option: --${name} (see --help)`);
    if (kind === 'bool') {
      if (m[2] !== undefined) throw new ConfigError(`Option --${name} takes no value`);
      out.set(name, true);
      continue;
    }
    let value = m[2];
    if (value === undefined && kind === 'optional') {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        out.set(name, true);
        continue;
      }
    }
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new ConfigError(`Option --${name} needs a value`);
      value = next;
      i++;
    }
    if (value === '') throw new ConfigError(`Option --${name} needs a value`);
    out.set(name, value);
  }
  return out;
}

/** First non-empty environment variable among `names`. */
function envOf(env: NodeJS.ProcessEnv, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = env[n];
    if (v !== undefined && v !== '') return v;
  }
  return undefined;
}

function homeOf(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  return (platform === 'win32' ? envOf(env, 'USERPROFILE', 'HOME') : envOf(env, 'HOME')) ?? os.homedir();
}

function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(home, p.slice(2));
  return p;
}

function parsePort(raw: string, from: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`Invalid port "${raw}" (${from}): expected an integer 0-65535`);
  const n = Number(raw.trim());
  if (n > 65535) throw new ConfigError(`Invalid port "${raw}" (${from}): expected an integer 0-65535`);
  return n;
}

function parseList(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** Where per-user caches live on this platform. */
function userCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (platform === 'win32') return envOf(env, 'LOCALAPPDATA') ?? path.join(home, 'AppData', 'Local');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches');
  const xdg = envOf(env, 'XDG_CACHE_HOME');
  return xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache');
}

/** Where per-user data lives on this platform: the index is the only copy of deleted sessions' history, and cache
 *  dirs are what cleaners wipe on purpose. */
function userDataDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (platform === 'win32') return envOf(env, 'LOCALAPPDATA') ?? path.join(home, 'AppData', 'Local');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  const xdg = envOf(env, 'XDG_DATA_HOME');
  return xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share');
}

/** The default index's name: one per set of config dirs, so two dashboards over different dirs never share one. */
function indexName(dirs: string[]): string {
  return `${sha256Hex([...dirs].sort().join('\n')).slice(0, 16)}.db`;
}

/** Default index file, in the user data dir. */
export function defaultIndexFile(dirs: string[], env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  return path.join(userDataDir(env, platform, homeOf(env, platform)), 'cost-dashboard', indexName(dirs));
}

/** Where versions before issue 37 kept the default index: the user cache dir. */
export function formerDefaultIndexFile(dirs: string[], env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  return path.join(userCacheDir(env, platform, homeOf(env, platform)), 'cost-dashboard', indexName(dirs));
}

/** Version from the package.json above this file (src/config/ in the repo, dist/ when built). */
function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++, dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'cost-dashboard' && pkg.version) return pkg.version;
    } catch {
      // not here: look one level up
    }
  }
  return 'unknown';
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function parseMachine(raw: string, from: string): string {
  if (!MACHINE_RE.test(raw)) {
    throw new ConfigError(`Invalid machine label "${raw}" (${from}): expected 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit`);
  }
  return raw;
}

/**
 * A `--dir` entry: `label=path` when what precedes the first '=' holds no path separator (a path may hold '=' after
 * one: `/srv/a=b`), else a path of this machine. A label that breaks the pattern is an error, not a path.
 */
function splitLabel(entry: string): { label: string | null; dir: string } {
  const m = /^([^=/\\~]+)=(.*)$/.exec(entry);
  if (!m) return { label: null, dir: entry };
  if (!m[2]) throw new ConfigError(`Invalid config dir "${entry}": expected label=path`);
  return { label: parseMachine(m[1]!, `--dir ${entry}`), dir: m[2] };
}

/** The host name as a label: its first DNS label, other characters replaced. */
export function defaultMachine(hostname: string): string {
  const label = (hostname.split('.')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  return label || 'local';
}

function parseHubUrl(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`Invalid HUB_URL "${raw}": expected an origin like http://localhost:3000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`Invalid HUB_URL "${raw}": expected http(s)`);
  // The origin goes into frame-ancestors and the write checks as it is: a wildcard (`http://*`) or any other source
  // expression there would let other pages frame the dashboard, so only one plain origin is accepted.
  if (!ORIGIN_HOST.test(url.hostname) || url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError(`Invalid HUB_URL "${raw}": expected one origin like http://localhost:3000 (no wildcard, path, query or credentials)`);
  }
  return url.origin;
}

/** --keep-transcripts alone: the folder beside the index; with a dir: that dir. */
function keepFolder(flag: string | true | undefined, indexPath: string, home: string): string | null {
  if (flag === undefined) return null;
  return flag === true ? `${indexPath}.transcripts` : path.resolve(expandHome(flag, home));
}

/** A host name (letters, digits, hyphens in dot-separated labels; punycode included), an IPv4 literal or an [IPv6] literal. */
const ORIGIN_HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;

export interface ConfigChecks {
  /** Whether the index file holds transcripts from under this projects folder (a missing dir is then no typo). */
  indexHasFilesUnder?: (indexFile: string, projectsDir: string) => boolean;
}

export function parseConfig(argv: string[], env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, checks: ConfigChecks = {}): Config {
  const flags = readFlags(argv);
  const str = (flag: string): string | undefined => {
    const v = flags.get(flag);
    return typeof v === 'string' ? v : undefined;
  };
  const home = homeOf(env, platform);

  const portFlag = str('port');
  const portEnv = envOf(env, 'PORT');
  const port = portFlag !== undefined ? parsePort(portFlag, '--port') : portEnv !== undefined ? parsePort(portEnv, 'PORT') : DEFAULT_PORT;

  const machineFlag = str('machine');
  const machine = machineFlag !== undefined ? parseMachine(machineFlag, '--machine') : defaultMachine(os.hostname());

  const dirRaw = str('dir') ?? envOf(env, 'AGENT_CONFIG_DIR', 'CLAUDE_CONFIG_DIR') ?? envOf(env, 'AGENT_DIR', 'CLAUDE_DIR');
  let dirs: string[];
  const labels = new Map<string, string | null>();
  if (dirRaw !== undefined) {
    for (const entry of parseList(dirRaw)) {
      const { label, dir } = splitLabel(entry);
      const resolved = path.resolve(expandHome(dir, home));
      // The first mention of a dir decides its machine; the label of --machine is this machine.
      if (!labels.has(resolved)) labels.set(resolved, label === machine ? null : label);
    }
    dirs = [...labels.keys()];
    if (!dirs.length) throw new ConfigError(`Invalid config dir "${dirRaw}"`);
  } else {
    // The default dir may be missing (nothing used yet): the dashboard is then empty.
    dirs = [path.join(home, '.claude'), path.join(home, '.config', 'claude')];
  }

  const costMode = str('cost-mode') ?? 'auto';
  if (costMode !== 'auto' && costMode !== 'calculate') {
    throw new ConfigError(`Invalid --cost-mode "${costMode}": expected auto or calculate`);
  }

  const indexRaw = str('index') ?? envOf(env, 'COST_INDEX');
  const indexPath = indexRaw !== undefined ? path.resolve(expandHome(indexRaw, home)) : defaultIndexFile(dirs, env, platform);
  const former = indexRaw !== undefined ? null : formerDefaultIndexFile(dirs, env, platform);
  const formerIndexPath = former !== null && former !== indexPath ? former : null;
  // A missing dir is a typo (exit 2), unless the index has read it before: a synced or mounted folder not there yet.
  const missingDirs: string[] = [];
  for (const d of dirRaw !== undefined ? dirs : []) {
    if (isDirectory(d)) continue;
    const projects = path.join(d, 'projects');
    // Before its move, the index that read the dir is still in the former place.
    const known = checks.indexHasFilesUnder?.(indexPath, projects) || (formerIndexPath !== null && checks.indexHasFilesUnder?.(formerIndexPath, projects));
    if (!known) throw new ConfigError(`Config dir not found: ${d}`);
    missingDirs.push(d);
  }
  const pollRaw = str('poll-limits');
  if (pollRaw !== undefined && !/^\d{1,4}$/.test(pollRaw.trim())) throw new ConfigError(`Invalid --poll-limits "${pollRaw}": expected minutes, 1-1440`);
  const pollLimitsMinutes = pollRaw === undefined ? null : Number(pollRaw.trim());
  if (pollLimitsMinutes !== null && (pollLimitsMinutes < 1 || pollLimitsMinutes > 1440)) {
    throw new ConfigError(`Invalid --poll-limits "${pollRaw}": expected minutes, 1-1440`);
  }
  const host = (str('host') ?? envOf(env, 'HOST') ?? '127.0.0.1').trim();
  if (!host) throw new ConfigError('Invalid host ""');

  return {
    port,
    host,
    machine,
    metricsToken: str('metrics-token') ?? envOf(env, 'METRICS_TOKEN') ?? null,
    allowedHosts: parseList(str('allowed-hosts') ?? envOf(env, 'ALLOWED_HOSTS')).map((h) => h.toLowerCase()),
    dirs,
    projectsDirs: dirs.map((d) => path.join(d, 'projects')),
    dirMachines: dirs.map((d) => labels.get(d) ?? null),
    missingDirs,
    dirsExplicit: dirRaw !== undefined,
    open: flags.has('open'),
    indexPath,
    formerIndexPath,
    prices: str('prices') ?? envOf(env, 'PRICES_URL') ?? null,
    offline: flags.has('offline'),
    costMode,
    agentBin: envOf(env, 'AGENT_BIN', 'CLAUDE_BIN') ?? (platform === 'win32' ? 'claude.exe' : 'claude'),
    pollLimitsMinutes,
    hub: envOf(env, 'AGENT_HUB', 'CLAUDE_HUB') !== undefined,
    hubUrl: parseHubUrl(envOf(env, 'HUB_URL')),
    hubSdkServer: envOf(env, 'HUB_SDK_SERVER') ?? null,
    keepTranscripts: keepFolder(flags.get('keep-transcripts'), indexPath, home),
    help: flags.has('help') ? HELP_TEXT : null,
    version: flags.has('version') ? packageVersion() : null,
  };
}
