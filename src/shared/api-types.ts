// Response shapes of the JSON API (field names from decisions.md), the vocabulary every layer shares: the index
// queries build the figures, the routes wrap them in the envelope and serialise them, the command line and the UI
// (type-only) read them.
import type { CauseBreakdowns } from './cause-types.ts';

export type { CauseBreakdowns, CauseCost, McpServerCost } from './cause-types.ts';
import type { ReceiptFigures } from './receipt-types.ts';
import type { EstimatedFastModel, ServerRequests } from './pricing-types.ts';

/** The token groups that appear on every total. */
export interface Tokens {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
}

export interface Totals extends Tokens {
  cost: number;
  messages: number;
}

/** The resolved query window. `from`/`to` are local calendar dates (YYYY-MM-DD), fromMs/toMs the exact bounds (to exclusive). */
export interface RangeInfo {
  from: string;
  to: string;
  fromMs: number;
  toMs: number;
  bucket: 'hour' | 'day';
  /** What was asked: 'today', '24h', 'N' days, 'custom', 'all', or this 'week' / 'month' so far, or 'lastmonth'. */
  kind: 'today' | '24h' | 'days' | 'custom' | 'all' | 'week' | 'month' | 'lastmonth';
  days: number | null;
}

/** Progress of the first index build; `done` once the start-up scan has finished. */
export interface IndexingState {
  done: boolean;
  filesTotal: number;
  filesDone: number;
  bytesTotal: number;
  bytesDone: number;
  /**
   * ISO time from which figures are final: the scan reads the transcripts newest first, so every range starting at or
   * after it holds all its entries (src/ingest/scan-order.ts). The epoch once `done`; null before the scan lists.
   */
  finalSince: string | null;
}

/** GET /api/events' `change` event: the index moved to `generation` (the answers' X-Index-Generation header). */
export interface LiveChange {
  generation: number;
  /** The first build is done (while it runs, pages keep their slower schedule). */
  done: boolean;
}

export interface UnpricedModel extends Tokens {
  model: string;
  messages: number;
}

/** What one point of a cost series covers: a range over 90 days comes by week (from Monday), over two years by month. */
export type SeriesBucket = 'hour' | 'day' | 'week' | 'month';

export interface SeriesPoint {
  /** Local 'YYYY-MM-DD' for day buckets (and a week's Monday), local 'YYYY-MM-DDTHH' for hour buckets, 'YYYY-MM' for months. */
  key: string;
  /** Epoch ms of the bucket start. */
  start: number;
  cost: number;
  byModel: Record<string, number>;
}

export interface ModelCost extends Tokens {
  model: string;
  cost: number;
  messages: number;
}

/** Usage per entrypoint (what started Claude Code): `entrypoint` null for lines that name none (older versions). */
export interface EntrypointCost extends Totals {
  entrypoint: string | null;
  /** SDK and print-mode use (shared/entrypoints.ts): drawn from its own credit at API prices, not the plan's limits. */
  programmatic: boolean;
}

export interface ProjectRow {
  /** Encoded project folder name. */
  id: string;
  name: string;
  /** The repository the folder belongs to (decisions.md "Repository"): id = its main checkout's path, name its last segment. */
  repository: { id: string; name: string };
  cost: number;
  sessions: number;
  messages: number;
  totalTokens: number;
  /** ISO timestamp of the last usage entry in range (null when none). */
  lastActivity: string | null;
  topModel: string | null;
  /**
   * The machines whose copies of the folder have usage in the range, most expensive first, each with its share of
   * `cost` (decisions.md "Several machines"). Unlabelled dirs read as this machine's --machine name, so one machine is
   * one entry equal to the row.
   */
  machines: ProjectMachine[];
}

/** One machine's share of a project row. */
export interface ProjectMachine {
  /** Its --dir label, or this machine's --machine name for the unlabelled dirs. */
  machine: string;
  cost: number;
}

export interface Overview {
  range: RangeInfo;
  project: string | null;
  /** The repository scope (its main checkout path), null when none. */
  repository: string | null;
  indexing: IndexingState;
  /** Whether every entry of the range is indexed (IndexingState.finalSince); false: the figures so far. */
  final: boolean;
  totals: Totals & ServerRequests & { sessions: number; projects: number };
  /** Today's totals (local day), null when the range does not include today. */
  today: (Totals & { sessions: number }) | null;
  /** cacheRead / (input + cacheCreation + cacheRead); 0 when there are no input tokens. */
  cacheEfficiency: number;
  costSeries: { bucket: SeriesBucket; points: SeriesPoint[] };
  costByModel: (ModelCost & ServerRequests)[];
  projects: ProjectRow[];
  unpricedModels: UnpricedModel[];
  /** The range's models with fast entries priced at an estimated multiplier, the dearest first. */
  estimatedFastModels: EstimatedFastModel[];
  /** Per machine, most expensive first, when the index holds more than one machine; empty with one. */
  machines: MachineRow[];
  /** Per entrypoint of the range's entries, most expensive first. */
  byEntrypoint: EntrypointCost[];
  /** The config dirs read (for empty-state messages). */
  dirs: string[];
  health: DataHealth;
}

/** What the index could not count, and whether the clock is behind the data (whole index, not the range). */
export interface DataHealth {
  /** Lines skipped while reading transcripts, by reason; `unreadableFiles` counts files, `unreadableFolders` the folders
   *  the last listing could not read (permission, I/O), whose transcripts are not indexed meanwhile. */
  skipped: { malformed: number; outOfRange: number; oversized: number; unreadableFiles: number; unreadableFolders: number };
  /** ISO time of the newest usage entry, null when the index is empty. */
  newestEntry: string | null;
  /** The newest entry is later than the server's clock (by over a minute): ranges that end now miss it. */
  dataInFuture: boolean;
  /**
   * What happened to the index file itself that the figures depend on (a recovery from damage, the file written back
   * after it was deleted, writes failing), one sentence each; absent when there is nothing to tell.
   */
  index?: string[];
}

export interface Block {
  start: string;
  end: string;
  lastActivity: string;
  cost: number;
  totalTokens: number;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  messages: number;
  /** The models that ran in the block, the dearest first. */
  models: string[];
  /** What each of them cost in the block, in the same order. */
  modelCosts: { model: string; cost: number }[];
  active: boolean;
  /** Only on the active block. */
  burn: BurnRate | null;
  /** The first plan limit hit inside the block (the account's, whatever the scope); null: none. */
  limitHit: BlockHit | null;
}

/** A plan limit hit that stopped a 5-hour block: when, the window its text names (null: none), the reset it gives. */
export interface BlockHit {
  at: string;
  window: string | null;
  resetsAt: string | null;
}

export interface BurnRate {
  costPerHour: number;
  tokensPerMinute: number;
  /** Cost of the whole block at the current pace. */
  projectedCost: number;
  /** Minutes until the block ends. */
  minutesLeft: number;
}

export interface Insights extends CauseBreakdowns {
  range: RangeInfo;
  project: string | null;
  /** The repository scope (its main checkout path), null when none. */
  repository: string | null;
  indexing: IndexingState;
  /** Whether every entry of the range is indexed (IndexingState.finalSince); false: the figures so far. */
  final: boolean;
  /** The most recent MAX_BLOCKS blocks overlapping the range (each computed over the whole history), most recent first. */
  blocks: Block[];
  /** How many blocks overlap the range. */
  blocksInRange: number;
  /** The block of now, whatever the range (null when none is active). */
  activeBlock: Block | null;
  /** What the active block is measured against, whatever the range: the finished blocks of the last 30 days (null: none). */
  blockYardstick: { average: number; max: number; blocks: number } | null;
  burnRate: BurnRate | null;
  /** Over the whole local days of the range that have ended; days 0: none yet, nothing to project. */
  runRate: { dailyAvg: number; projectedMonthly: number; days: number };
  cacheSavings: { saved: number; cacheReadTokens: number };
  tokenComposition: Tokens & { cache5mTokens: number; cache1hTokens: number };
  /** USD per token kind at the catalogue's base prices (models without a price left out). */
  costComposition: { input: number; output: number; cache5m: number; cache1h: number; cacheRead: number };
  topTools: { name: string; count: number }[];
  /** heatmap[weekday][hour] cost, weekday 0 = Monday, local time. */
  heatmap: number[][];
  subagentShare: { mainCost: number; subagentCost: number; share: number };
  weeklyCost: { weekStart: string; cost: number }[];
}

/** GET /api/monthly: every local calendar month with usage, newest first. */
export interface Monthly {
  project: string | null;
  /** Whether every entry of the range is indexed; false: the figures so far (Overview.final). */
  final: boolean;
  months: { month: string; cost: number; totalTokens: number; messages: number; topModel: string | null }[];
}

export interface SessionRow extends Tokens {
  id: string;
  title: string;
  cost: number;
  messages: number;
  firstActivity: string;
  lastActivity: string;
  models: string[];
  subagentCost: number;
  /** True when the transcript file no longer exists on disk (history kept). */
  gone: boolean;
  /** Git branches its usage in the range was recorded on, most expensive first ('HEAD': detached). */
  branches: string[];
  /** Only Claude Code's "Warmup" side calls: no prompt or title of its own, its subagents' first prompt "Warmup". */
  warmup: boolean;
}

/** The usage read from one machine's dirs in the range (decisions.md "Several machines"). */
export interface MachineRow extends Totals {
  /** Its --dir label, or this machine's --machine name for the unlabelled dirs. */
  machine: string;
  sessions: number;
  /** ISO time of its last entry in the range, null when none. */
  lastActivity: string | null;
}

/** A project's usage on one git branch in the range. */
export interface BranchRow extends Tokens {
  /** The lines' gitBranch; null: recorded without one; 'HEAD': a detached checkout. */
  branch: string | null;
  cost: number;
  messages: number;
  sessions: number;
  lastActivity: string;
}

export interface ProjectSessions {
  range: RangeInfo;
  /** Whether every entry of the range is indexed; false: the figures so far (Overview.final). */
  final: boolean;
  project: { id: string; name: string; repository: { id: string; name: string } };
  totals: Totals;
  costSeries: { bucket: SeriesBucket; points: SeriesPoint[] };
  costByModel: ModelCost[];
  sessions: SessionRow[];
  /** Cost per git branch, most expensive first. */
  branches: BranchRow[];
}

/** A session of the Sessions view: its row with the project folder and the machine it was read on. */
export interface SessionListRow extends SessionRow {
  project: { id: string; name: string };
  /** The folder's --dir label, or this machine's name for the unlabelled dirs. */
  machine: string;
}

/** GET /api/sessions: the range's sessions across the projects in scope, the dearest first. */
export interface SessionList {
  range: RangeInfo;
  project: string | null;
  repository: string | null;
  /** Whether every entry of the range is indexed; false: the figures so far (Overview.final). */
  final: boolean;
  /** The dearest sessions, at most `limit`, Warmup side calls left out (counted in `warmup`). */
  sessions: SessionListRow[];
  limit: number;
  /** Sessions with usage in the range, Warmup side calls left out. */
  total: number;
  /** The sessions that are only Claude Code's Warmup side calls, folded: how many and what they cost. */
  warmup: { sessions: number; cost: number };
}

/** GET /api/repository?id=: a repository's folders (its main checkout and worktrees) summed, and its branches. */
export interface RepositoryDetail {
  range: RangeInfo;
  /** Whether every entry of the range is indexed; false: the figures so far (Overview.final). */
  final: boolean;
  repository: { id: string; name: string };
  totals: Totals & { sessions: number };
  /** Its folders with usage in the range, most expensive first. */
  projects: ProjectRow[];
  branches: BranchRow[];
  /** Cost over the range, as a project's (ProjectSessions.costSeries). */
  costSeries: { bucket: SeriesBucket; points: SeriesPoint[] };
  costByModel: ModelCost[];
}

export interface SessionMessage extends Tokens {
  timestamp: string;
  model: string;
  cost: number;
  cache5mTokens: number;
  cache1hTokens: number;
  webSearches: number;
  webFetches: number;
  fast: boolean;
  tools: string[];
  subagent?: { agentId: string; agentType: string | null };
}

/** One workflow run of a session: its agents' transcripts are `<session>/subagents/workflows/<runId>/agent-*.jsonl`. */
export interface WorkflowRun extends Tokens {
  runId: string;
  /** The run's agent transcripts the index knows, empty ones included. */
  agents: number;
  messages: number;
  cost: number;
  firstActivity: string | null;
  lastActivity: string | null;
}

export interface SessionDetail extends Tokens {
  id: string;
  /** Whether every entry of the range is indexed; false: the figures so far (Overview.final). */
  final: boolean;
  title: string;
  firstPrompt: string | null;
  cwd: string | null;
  project: { id: string; name: string };
  /** The machine the session's folder was read under: a --dir label, or this machine's --machine name. */
  machine: string;
  cost: number;
  messageCount: number;
  firstActivity: string | null;
  lastActivity: string | null;
  messages: SessionMessage[];
  subagents: { agentId: string; agentType: string | null; description: string | null; cost: number; messages: number }[];
  /** The subagent usage of the session's workflow runs, one entry per run; their agents are not in `subagents`. */
  workflows: WorkflowRun[];
  inRange: (Totals) | null;
  today: (Totals) | null;
  range: RangeInfo;
}

/** GET /api/receipt: the figures (receipt-types.ts) in the envelope of the data routes, plus the session scope. */
export interface Receipt extends ReceiptFigures {
  range: RangeInfo;
  project: string | null;
  repository: string | null;
  /** The session scope (its id), null when none. */
  session: string | null;
  final: boolean;
}

export interface ApiError {
  error: string;
}

export type * from './budget-types.ts';
export type * from './plan-usage-types.ts';
export type * from './pricing-types.ts';
export type * from './limits-types.ts';
export type * from './receipt-types.ts';
