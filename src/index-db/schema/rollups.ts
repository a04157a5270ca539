// Every rollup table of the index, declared once: its grain, its keys and its measures. Pure data: the migrations'
// DDL must match it (test/index-db/schema.test.ts), and the upserts, drops, rebuilds and derived reads are made from
// it (rollup-sql.ts). Statements name their columns: a migration may add a measure's column at the end of a table.
import { COST, FIRST_TS, LAST_TS, MESSAGES, TOKEN_KINDS, TOTAL_KINDS, USES, type Measure } from './measures.ts';

/**
 * What a row's time key is: a UTC hour (`floor(ts / 1 h)`), a local hour or local day number (the zone of meta
 * `daily_tz`: rebuilt when the zone changes), or none (all time).
 */
export type Grain = 'utc-hour' | 'local-hour' | 'local-day' | 'all-time';

/**
 * A key column: its name says what it holds (ids are the index's integers; sub is 0 main thread, 1 subagent;
 * entrypoint_id 0 none; branch_id an id of the branches table, never none (usage_hourly_branch holds only the messages
 * on a branch); the cause keys, skill_id ... effort_id, ids of the causes table, 0 none: direct).
 */
export type Key = 'hour' | 'lhour' | 'day' | 'project_id' | 'session_id' | 'model_id' | 'sub' | 'tool' | 'entrypoint_id'
  | 'file_id' | 'branch_id' | CauseKey;
/** The keys of what caused a message (its columns of the same names): skill, MCP server and tool, agent type, effort. */
export type CauseKey = 'skill_id' | 'mcp_server_id' | 'mcp_tool_id' | 'agent_type_id' | 'effort_id';
export const CAUSE_KEYS: readonly CauseKey[] = ['skill_id', 'mcp_server_id', 'mcp_tool_id', 'agent_type_id', 'effort_id'];

export const KEY_TYPES: Readonly<Record<Key, 'INTEGER' | 'TEXT'>> = {
  hour: 'INTEGER', lhour: 'INTEGER', day: 'INTEGER', project_id: 'INTEGER', session_id: 'INTEGER', model_id: 'INTEGER',
  sub: 'INTEGER', tool: 'TEXT', entrypoint_id: 'INTEGER', file_id: 'INTEGER', branch_id: 'INTEGER',
  skill_id: 'INTEGER', mcp_server_id: 'INTEGER', mcp_tool_id: 'INTEGER', agent_type_id: 'INTEGER', effort_id: 'INTEGER',
};

export interface Rollup {
  readonly table: RollupName;
  readonly grain: Grain;
  /** The primary key, in column order. */
  readonly keys: readonly Key[];
  readonly measures: readonly Measure[];
  /**
   * The finer rollup this one sums over the keys it leaves out (the writer folds its cells from that one's at flush,
   * the rebuilds sum that table); none: made from the messages.
   */
  readonly from?: RollupName;
  /**
   * SQL over a message row: the messages this rollup holds (none: every message). The writer's cells follow the same
   * rule (`RollupDelta.addCause`); a read adds what the rollup leaves out from the range's totals.
   */
  readonly only?: string;
  /** A secondary index a read needs (none: the primary key is the table's only index). */
  readonly index?: RollupIndex;
}

/**
 * An index of a rollup for a read that groups by keys the primary key does not lead with. It holds every column that
 * read takes, so SQLite answers from it alone and in its order, with no sort; SQLite keeps it through every write,
 * rebuild and reprice of the table, so no code of ours does.
 */
export interface RollupIndex {
  readonly name: string;
  readonly columns: readonly string[];
}

export type RollupName =
  | 'usage_hourly' | 'usage_hourly_model' | 'usage_hourly_all' | 'usage_daily' | 'usage_daily_all' | 'usage_total'
  | 'cost_local_hourly' | 'cost_local_hourly_all' | 'tools_hourly' | 'tools_daily' | 'tools_daily_all' | 'sessions_daily'
  | 'usage_hourly_entrypoint' | 'usage_total_entrypoint' | 'usage_hourly_cause' | 'usage_total_file' | 'usage_hourly_branch'
  | 'cost_hourly_model' | 'cost_total_session' | 'usage_total_model';

/** What a usage rollup sums: messages, every token kind, cost and the first and last message time. */
const USAGE: readonly Measure[] = [MESSAGES, ...TOKEN_KINDS, COST, FIRST_TS, LAST_TS];
/** usage_hourly_all: the 5-hour blocks' figures, which need only the kinds of a total of tokens. */
const HOURLY_ALL: readonly Measure[] = [MESSAGES, ...TOTAL_KINDS, COST, FIRST_TS, LAST_TS];
/** What the cost rollups sum: messages and cost. */
const COSTS: readonly Measure[] = [MESSAGES, COST];
/** usage_hourly_entrypoint: what /api/overview's byEntrypoint sums (per model too, as the other usage rollups). */
const BY_ENTRYPOINT: readonly Measure[] = [MESSAGES, ...TOTAL_KINDS, COST];
/** usage_hourly_cause: what /api/insights' bySkill, byMcpServer, byAgent and byEffort sum. */
const BY_CAUSE: readonly Measure[] = [MESSAGES, ...TOTAL_KINDS, COST];

const rollup = (table: RollupName, grain: Grain, keys: readonly Key[], measures: readonly Measure[], from?: RollupName): Rollup =>
  (from === undefined ? { table, grain, keys, measures } : { table, grain, keys, measures, from });

/**
 * The messages some cause is known for. Most usage is direct (no cause at all): that part is the range's totals less
 * the attributed rows (queries/causes.ts), so the rollup holds, and the writer upserts, only the attributed messages.
 */
export const ATTRIBUTED = `${CAUSE_KEYS.join(' + ')} > 0`;

/** The messages recorded on a git branch (those without one have no branch_id). */
export const ON_A_BRANCH = 'branch_id IS NOT NULL';

/** Every rollup, finer ones before the ones made from them. */
export const ROLLUPS = {
  usage_hourly: {
    ...rollup('usage_hourly', 'utc-hour', ['hour', 'project_id', 'session_id', 'model_id', 'sub'], USAGE),
    // The command line's sessions over the whole history (queries/reports.ts), and the Sessions view's cost per session
    // (queries/session-rows.ts): grouped by session (and model) in the index's order instead of a sort of every hourly
    // row. Within a session and model its rows stay in the table's order (hour, project, sub), the order the sort gave
    // the sums before (migration 017).
    index: {
      name: 'usage_hourly_session',
      columns: ['session_id', 'model_id', 'hour', 'project_id', 'sub', 'messages', 'input', 'output', 'cache_create', 'cache_read', 'cost', 'first_ts', 'last_ts'],
    },
  },
  usage_hourly_model: rollup('usage_hourly_model', 'utc-hour', ['hour', 'project_id', 'model_id', 'sub'], USAGE, 'usage_hourly'),
  usage_hourly_all: rollup('usage_hourly_all', 'utc-hour', ['hour'], HOURLY_ALL, 'usage_hourly_model'),
  // The models of the 5-hour blocks an answer lists (queries/blocks.ts), every project's: a row per hour and model,
  // where grouping the projects' rows took ~10 ms of a year's insights at 10 GiB (migration 022).
  cost_hourly_model: rollup('cost_hourly_model', 'utc-hour', ['hour', 'model_id'], COSTS, 'usage_hourly_model'),
  usage_total: rollup('usage_total', 'all-time', ['project_id', 'model_id'], USAGE, 'usage_hourly_model'),
  // Every project's sums per model x main/subagent, all time: a year's or all time's insights (token composition, cache
  // savings, subagent share) read these rows less the days before the range instead of grouping every day's rows
  // (queries/reader.ts modelGroups; migration 024).
  usage_total_model: rollup('usage_total_model', 'all-time', ['model_id', 'sub'], USAGE, 'usage_hourly_model'),
  usage_daily: rollup('usage_daily', 'local-day', ['day', 'project_id', 'model_id', 'sub'], USAGE),
  usage_daily_all: rollup('usage_daily_all', 'local-day', ['day', 'model_id', 'sub'], USAGE, 'usage_daily'),
  cost_local_hourly: rollup('cost_local_hourly', 'local-hour', ['lhour', 'project_id', 'model_id'], COSTS),
  cost_local_hourly_all: rollup('cost_local_hourly_all', 'local-hour', ['lhour'], COSTS, 'cost_local_hourly'),
  tools_hourly: rollup('tools_hourly', 'utc-hour', ['hour', 'project_id', 'tool'], [USES]),
  tools_daily: rollup('tools_daily', 'local-day', ['day', 'project_id', 'tool'], [USES]),
  tools_daily_all: rollup('tools_daily_all', 'local-day', ['day', 'tool'], [USES], 'tools_daily'),
  sessions_daily: {
    ...rollup('sessions_daily', 'local-day', ['day', 'project_id', 'session_id'], [MESSAGES]),
    // The distinct sessions per project of a long range (queries/reader.ts sessionCounts): read in this index's order,
    // grouped and counted as they come, instead of a sort for the groups and another for the distinct sessions
    // (migration 019).
    index: { name: 'sessions_daily_project', columns: ['project_id', 'session_id', 'day'] },
  },
  usage_hourly_entrypoint: rollup('usage_hourly_entrypoint', 'utc-hour', ['hour', 'project_id', 'model_id', 'entrypoint_id'], BY_ENTRYPOINT),
  // A year's or all time's byEntrypoint is these rows less the hours before the range (queries/entrypoints.ts), not
  // every hourly row of the range.
  usage_total_entrypoint: rollup('usage_total_entrypoint', 'all-time', ['project_id', 'model_id', 'entrypoint_id'], BY_ENTRYPOINT,
    'usage_hourly_entrypoint'),
  usage_hourly_cause: { ...rollup('usage_hourly_cause', 'utc-hour', ['hour', 'project_id', 'model_id', ...CAUSE_KEYS], BY_CAUSE), only: ATTRIBUTED },
  // What each transcript's entries cost, all time: the retention figures (what Claude Code's cleanup is about to delete)
  // read a row per file instead of every message of every due file, which at 10 GiB held the server for a second
  // after each write (migration 018).
  usage_total_file: rollup('usage_total_file', 'all-time', ['file_id'], [MESSAGES, COST]),
  // The cost of each session's git branches by hour: the Sessions view lists each session's branches, the dearest first
  // (queries/branches.ts createSessionBranches), and read from the messages those of a long range's 300 dearest sessions
  // took ~150 ms at 10 GiB (migration 021). Only the messages recorded on a branch (a key cannot be NULL).
  usage_hourly_branch: {
    ...rollup('usage_hourly_branch', 'utc-hour', ['hour', 'project_id', 'session_id', 'branch_id'], COSTS),
    only: ON_A_BRANCH,
  },
  // Each session's cost, all time, keyed by folder first (a folder's sessions are a range of the key): the Sessions
  // view's cost per session over a year or all time (queries/session-rows.ts), less the hours before a year, reads a
  // row per session instead of every hourly row (migration 023).
  cost_total_session: rollup('cost_total_session', 'all-time', ['project_id', 'session_id'], COSTS, 'usage_hourly'),
} as const satisfies Record<RollupName, Rollup>;

/** The measure whose reaching zero empties a row: the row is then deleted. */
export function counter(r: Rollup): Measure {
  const m = r.measures.find((x) => x.combine === 'count');
  if (!m) throw new Error(`rollup ${r.table} has no count`);
  return m;
}

/** The columns of a rollup, in table order. */
export const columnsOf = (r: Rollup): string[] => [...r.keys, ...r.measures.map((m) => m.column)];
