// argv of a command -> one validated CliArgs. The flags the server also takes (--dir, --index, --prices,
// --offline, --cost-mode) go through the server's own parseConfig, so a command finds the index file the
// server uses for the same dirs. Bad input throws ConfigError (one line; the caller exits 2).
import { ConfigError, parseConfig, type Config } from '../config/config.ts';
import { isProjectName } from '../shared/project-name.ts';

const REPORTS = ['daily', 'weekly', 'monthly', 'session', 'blocks'] as const;
export type ReportKind = (typeof REPORTS)[number];
export type CommandName = ReportKind | 'statusline' | 'update' | 'limits';
const COMMANDS: readonly CommandName[] = [...REPORTS, 'statusline', 'update', 'limits'];

export interface CliArgs {
  command: CommandName;
  config: Config;
  /** The server flags as given, for a background `update` started by the statusline. */
  serverFlags: string[];
  /** Local dates YYYY-MM-DD (inclusive), null when not given. */
  since: string | null;
  until: string | null;
  /** Encoded project folder name. */
  project: string | null;
  /** IANA zone the days and blocks are shown in; null: the process's. */
  timezone: string | null;
  json: boolean;
  /** `--breakdown`: a row per model under each row of a day, week, month or session table. */
  breakdown: boolean;
  /** `update --background`: at the lowest CPU priority (the statusline starts it so). */
  background: boolean;
  /** `statusline --wrap <command>`: the statusline command whose output is printed instead (readings still kept). */
  wrap: string | null;
  /** Set when --help was given: the text to print. */
  help: string | null;
}

const SERVER_FLAGS = new Set(['dir', 'index', 'prices', 'offline', 'cost-mode', 'machine']);
const BOOL = new Set(['offline', 'json', 'breakdown', 'help', 'background']);
const SHORT: Record<string, string> = { j: 'json', b: 'breakdown', s: 'since', u: 'until', p: 'project', z: 'timezone', h: 'help' };
const REPORT_FLAGS = ['since', 'until', 'project', 'timezone', 'json'];
// A block lists its models by name only, so it has no per-model rows to show.
const BREAKDOWN_FLAGS = [...REPORT_FLAGS, 'breakdown'];
const FLAGS_OF: Record<CommandName, string[]> = {
  daily: BREAKDOWN_FLAGS, weekly: BREAKDOWN_FLAGS, monthly: BREAKDOWN_FLAGS, session: BREAKDOWN_FLAGS, blocks: REPORT_FLAGS,
  statusline: ['timezone', 'wrap'],
  update: ['background'],
  limits: ['json', 'timezone'],
};

const COMMON_HELP = `Index options (the server's; the same flags find the same index file):
  --dir <path[,path...]>  Config dir(s) to read (AGENT_CONFIG_DIR, AGENT_DIR; default ~/.claude); label=path: another machine's
  --machine <name>        This machine's label (default: the host name)
  --index <file>          Index database file (COST_INDEX; default in the user cache dir)
  --prices <url|file>     Price catalogue source (PRICES_URL)
  --offline               Never fetch prices from the network
  --cost-mode <mode>      auto (a line's costUSD wins) or calculate (always from tokens)
  -h, --help              Print this help
`;

const BREAKDOWN_HELP = `  -b, --breakdown         A row per model under each row (the JSON always has them: modelBreakdowns)
`;

const REPORT_HELP = (json: string, breakdown = BREAKDOWN_HELP) => `Options:
  -s, --since <date>      First day (YYYYMMDD or YYYY-MM-DD, local); default: the first day with usage
  -u, --until <date>      Last day (YYYYMMDD or YYYY-MM-DD, local); default: today
  -p, --project <id>      Only this project (its encoded folder name, as in the dashboard)
  -z, --timezone <zone>   IANA time zone of the days (default: the system's)
  -j, --json              JSON instead of a table: ${json}
${breakdown}
The index is brought up to date first (or read as it is when a running server keeps it).
`;

const HELP: Record<CommandName, string> = {
  daily: `Usage: cost-dashboard daily [options]\n\nUsage and cost per local day.\n\n${REPORT_HELP('{daily: [{date, ...}], totals}')}\n${COMMON_HELP}`,
  weekly: `Usage: cost-dashboard weekly [options]\n\nUsage and cost per week (weeks start on Monday, as on the dashboard).\n\n${REPORT_HELP('{weekly: [{week, ...}], totals}')}\n${COMMON_HELP}`,
  monthly: `Usage: cost-dashboard monthly [options]\n\nUsage and cost per calendar month.\n\n${REPORT_HELP('{monthly: [{month, ...}], totals}')}\n${COMMON_HELP}`,
  session: `Usage: cost-dashboard session [options]\n\nUsage and cost per session inside the range (subagents count toward their session), most expensive first.\n\n${REPORT_HELP('{sessions: [{sessionId, projectPath, ...}], totals}')}\n${COMMON_HELP}`,
  blocks: `Usage: cost-dashboard blocks [options]\n\n5-hour billing blocks that overlap the range (blocks are computed over the whole history), with the\nactive block's burn rate and projection.\n\n${REPORT_HELP('{blocks: [{id, startTime, endTime, isActive, isGap, costUSD, ...}]}', '')}\n${COMMON_HELP}`,
  statusline: `Usage: cost-dashboard statusline [options]

Reads the JSON Claude Code pipes to a statusline command on stdin and prints one line: the model, this
session's cost, today's cost, the active 5-hour block's cost and time left, and the burn rate. Always exits 0
within about a second; problems go to stderr.

In ~/.claude/settings.json:
  "statusLine": { "type": "command", "command": "cost-dashboard statusline", "padding": 0 }

With a subscription (Claude Code 2.1.80 and later) the line also shows the plan limit windows: used %, the
projection at the reset at this pace, the reset time (5h 42% → 71% @15:00 · 7d 63%); each reading that changed
is kept for the Plan limits section of Insights, \`cost-dashboard limits\` and /api/limits.

Options:
  -z, --timezone <zone>   IANA time zone of "today" (default: the system's)
  --wrap <command>        Keep the plan limit readings, but print the output of this statusline command
                          instead of ours (it gets the same stdin; its exit status; killed after 5 s)

${COMMON_HELP}`,
  limits: `Usage: cost-dashboard limits [options]

The plan limit windows (5-hour, weekly, per-model weekly): the last official reading of each (from the
statusline and the plan usage probe), the pace, the projection at the reset and when 100 % is reached at
the recent pace; then the limit hits the transcripts report. See docs/limits.md.

Options:
  -z, --timezone <zone>   IANA time zone of the times shown (default: the system's)
  -j, --json              JSON instead of a table: {windows: [...], hits: [...], hitCounts, readings: [...]}

${COMMON_HELP}`,
  update: `Usage: cost-dashboard update [options]

Brings the index up to date with the transcripts on disk and exits (the statusline starts it in the
background). Does nothing when a running server writes the index.

Options:
  --background            Run at the lowest CPU priority (how the statusline starts it)

${COMMON_HELP}`,
};

/** YYYYMMDD or YYYY-MM-DD naming a real calendar day -> YYYY-MM-DD. */
function parseDay(raw: string, flag: string): string {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(raw);
  const iso = m ? `${m[1]}-${m[2]}-${m[3]}` : '';
  const d = new Date(`${iso}T00:00:00Z`);
  if (!m || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso) {
    throw new ConfigError(`Invalid --${flag} "${raw}": expected a date as YYYYMMDD or YYYY-MM-DD`);
  }
  return iso;
}

function parseZone(raw: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: raw });
    return raw;
  } catch {
    throw new ConfigError(`Invalid --timezone "${raw}": expected an IANA time zone such as Europe/Berlin or UTC`);
  }
}

export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv): CliArgs {
  const [name, ...rest] = argv;
  const command = COMMANDS.find((c) => c === name);
  if (!command) throw new ConfigError(`Unknown command: ${name ?? ''} (commands: ${COMMANDS.join(', ')}; see --help)`);
  const allowed = new Set([...SERVER_FLAGS, ...FLAGS_OF[command], 'help']);
  const values = new Map<string, string | true>();
  const serverFlags: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const m = /^--([a-z-]+)(?:=([\s\S]*))?$/.exec(arg) ?? /^-([a-z])()$/.exec(arg);
    const flag = m ? (arg.startsWith('--') ? m[1]! : SHORT[m[1]!]) : undefined;
    if (!m || flag === undefined) throw new ConfigError(`Unexpected argument: ${arg} (see cost-dashboard ${command} --help)`);
    if (!allowed.has(flag)) throw new ConfigError(`Unknown option for ${command}: ${arg} (see cost-dashboard ${command} --help)`);
    const inline = arg.startsWith('--') ? m[2] : undefined;
    let value: string | true;
    if (BOOL.has(flag)) {
      if (inline !== undefined) throw new ConfigError(`Option --${flag} takes no value`);
      value = true;
    } else {
      // Encoded project names start with '-', so only a flag itself is taken for a missing value.
      const next = inline ?? rest[++i];
      if (next === undefined || next === '' || (inline === undefined && /^(--|-[a-z]$)/.test(next))) {
        throw new ConfigError(`Option --${flag} needs a value`);
      }
      value = next;
    }
    values.set(flag, value);
    if (SERVER_FLAGS.has(flag)) serverFlags.push(value === true ? `--${flag}` : `--${flag}=${value}`);
  }
  const str = (flag: string): string | null => {
    const v = values.get(flag);
    return typeof v === 'string' ? v : null;
  };
  const help = values.has('help') ? HELP[command] : null;
  // PORT and HUB_URL mean nothing to a command; a bad value there must not stop one.
  const config = parseConfig(serverFlags, { ...env, PORT: undefined, HUB_URL: undefined });
  const project = str('project');
  if (project !== null && !isProjectName(project)) {
    throw new ConfigError(`Invalid --project "${project}": expected an encoded project folder name ([A-Za-z0-9._-]+)`);
  }
  const since = str('since');
  const until = str('until');
  const zone = str('timezone');
  return {
    command,
    config,
    serverFlags,
    since: since === null ? null : parseDay(since, 'since'),
    until: until === null ? null : parseDay(until, 'until'),
    project,
    timezone: zone === null ? null : parseZone(zone),
    json: values.has('json'),
    breakdown: values.has('breakdown'),
    background: values.has('background'),
    wrap: str('wrap'),
    help,
  };
}
