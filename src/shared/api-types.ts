// Response shapes of the JSON API (field names from decisions.md), the vocabulary every layer shares: the index
// queries build the figures, the routes wrap them in the envelope and serialise them, the command line and the UI
// (type-only) read them.

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
  totals: Totals & { sessions: number; projects: number };
  /** Today's totals (local day), null when the range does not include today. */
  today: (Totals & { sessions: number }) | null;
  /** cacheRead / (input + cacheCreation + cacheRead); 0 when there are no input tokens. */
  cacheEfficiency: number;
  costSeries: { bucket: SeriesBucket; points: SeriesPoint[] };
  costByModel: ModelCost[];
  projects: ProjectRow[];
  unpricedModels: UnpricedModel[];
  /** Per machine, most expensive first, when the index holds more than one machine; empty with one. */
  machines: MachineRow[];
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
}

export interface BurnRate {
  costPerHour: number;
  tokensPerMinute: number;
  /** Cost of the whole block at the current pace. */
  projectedCost: number;
  /** Minutes until the block ends. */
  minutesLeft: number;
}

export interface Insights {
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
  fast: boolean;
  tools: string[];
  subagent?: { agentId: string; agentType: string | null };
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
  inRange: (Totals) | null;
  today: (Totals) | null;
  range: RangeInfo;
}

export interface PriceEntry {
  model: string;
  inputCostPerToken: number;
  outputCostPerToken: number;
  cacheCreationInputTokenCost: number | null;
  cacheCreationInputTokenCostAbove1hr: number | null;
  cacheReadInputTokenCost: number | null;
  inputCostPerTokenAbove200k: number | null;
  outputCostPerTokenAbove200k: number | null;
  fastMultiplier: number | null;
}

export interface Pricing {
  source: string;
  loadedAt: string;
  models: PriceEntry[];
}

export interface UsageWindow {
  /** The CLI's key (`five_hour`, `seven_day`, `seven_day_opus`, …) or `model:<display_name>` for a per-model weekly window. */
  id: string;
  /** e.g. 'Session (5h)', 'Week (all models)', 'Week (Opus)', 'Week (Fable)'. */
  label: string;
  /** 0..100 */
  percent: number;
  resetsAt: string | null;
  severity: 'ok' | 'warn' | 'critical';
  /** The window that limits the user first. */
  binding: boolean;
}

export interface UsageLimits {
  /**
   * False when plan limits do not apply to the CLI's login (an API key, Bedrock, Vertex, or a login without the
   * profile scope): `windows` is empty and `note` says so.
   */
  limitsApply: boolean;
  /** A sentence for the user when there is nothing to show, else null. */
  note: string | null;
  windows: UsageWindow[];
  /** The claude.ai plan ('pro', 'max', 'team', 'enterprise'), null for an API key or cloud provider. */
  subscription: string | null;
  /** Extra usage (pay as you go past the plan), in the account's currency; null when it is off. */
  spend: { used: number; limit: number | null; percent: number | null; currency: string } | null;
  fetchedAt: string;
  cached: boolean;
}

/** A share of the weighted local usage (0-100); shares overlap, they do not sum to 100. */
export interface UsageShare {
  name: string;
  percent: number;
}

export interface UsageBehavior {
  /** The CLI's key: cache_miss, long_context, subagent_heavy, high_parallel, cron, max_effort, … */
  key: string;
  label: string;
  percent: number;
  /** Requests that show it. */
  count: number;
}

export interface UsageRecommendation {
  key: string;
  percent: number;
  /** The CLI's own wording, verb first. */
  title: string;
  detail: string | null;
}

/** What drove usage over one window (the last 24 hours or 7 days), from the CLI's scan of local transcripts. */
export interface UsageDriversWindow {
  requests: number;
  sessions: number;
  behaviors: UsageBehavior[];
  recommendations: UsageRecommendation[];
  agents: UsageShare[];
  skills: UsageShare[];
  plugins: UsageShare[];
  mcpServers: UsageShare[];
}

export interface UsageDrivers {
  /** False when the CLI made no analysis (it makes one only for claude.ai subscriptions): `note` says why. */
  available: boolean;
  note: string | null;
  day: UsageDriversWindow | null;
  week: UsageDriversWindow | null;
  fetchedAt: string;
  cached: boolean;
}

export interface ApiError {
  error: string;
}

/** A calendar period of a budget: the local day, the week from Monday, the month (decisions.md "Time"). */
export type BudgetPeriod = 'daily' | 'weekly' | 'monthly';

/** A spending limit of this machine, for every project (`project: null`) or one project folder (its encoded name). */
export interface Budget {
  period: BudgetPeriod;
  project: string | null;
  /** Dollars. */
  amount: number;
}

/**
 * A budget against the current period. `projected`: the use so far plus today's pace (today's cost per hour since local
 * midnight, the first hour counted as a whole one) over the rest of the period. `state`: `over` when the use or the
 * projection passes the amount, `warn` from 80 % of it projected, else `ok`.
 */
export interface BudgetStatus extends Budget {
  /** The project's display name; null for every project. */
  projectName: string | null;
  /** The period's first and last local days (YYYY-MM-DD) and its exact end (ISO, exclusive). */
  from: string;
  to: string;
  end: string;
  use: number;
  projected: number;
  /** 'over': the money spent passed the amount; 'warn': projected at 80 % of it or more (past it: "On pace for"). */
  state: 'ok' | 'warn' | 'over';
  /** The server logged this period's alert (an alert fires once per budget and period). */
  alerted: boolean;
  /** Its alert was snoozed until this period ends (POST /api/budgets/snooze; kept in the index). */
  snoozed: boolean;
}

/** GET /api/pace: the day, week and month around now, each with the one projection the meters and alerts use. */
export interface PeriodPace {
  period: BudgetPeriod;
  from: string;
  to: string;
  use: number;
  /** What a usual day costs: the period's ended days' average, else the last 7 days'. */
  usualDay: number;
  projected: number;
}

/** GET /api/budgets, and the answer of a change. `writable`: false on a server that reads an index another process writes. */
export interface Budgets {
  writable: boolean;
  budgets: BudgetStatus[];
}

/** One official reading of a plan limit window (issue 33). `window`: five_hour, seven_day, seven_day_<model>, extra_usage. */
export interface LimitReadingData {
  window: string;
  usedPercent: number;
  resetsAt: string | null;
  observedAt: string;
  source: string;
}

/** A window now: its last reading, pace and forecast. */
export interface LimitWindow extends LimitReadingData {
  /** The window's length in ms (5 hours, 7 days). */
  lengthMs: number;
  /** Share of the window elapsed at the last reading, 0-1; null without a reset time. */
  elapsed: number | null;
  /** Used % against the share of the window elapsed (1 = on pace to reach 100 % at the reset); null when unknown. */
  pace: number | null;
  /** Used % at the reset at the recent pace; null when unknown. */
  projectedPercent: number | null;
  /** When 100 % is reached at the recent pace, if before the reset; else null. */
  fullAt: string | null;
  /** The last reading's reset has passed: the figures are the ended window's, its peak kept. */
  ended: boolean;
  /** The highest reading of this window's current (or, ended, last) period. */
  peakPercent: number;
  /** An estimate: the API-equivalent cost of 1 % of this window, from the index's costs between readings; null without. */
  costPerPercent: number | null;
}

export interface LimitHitData {
  at: string;
  /** null when the text names no window. */
  window: string | null;
  resetsAt: string | null;
  text: string;
}

export interface LimitsData {
  windows: LimitWindow[];
  /** Newest first. */
  hits: LimitHitData[];
  /** Hits per window (`unknown`: the text named none). */
  hitCounts: Record<string, number>;
  /** The last readings, oldest first (the charts' points). */
  readings: LimitReadingData[];
  /** Bad readings skipped and counted (the statusline's and the side file's). */
  skipped: number;
  /** The used % that alert (the budgets dialog sets them). */
  thresholds: number[];
  /** The alerts of the windows' current periods: a threshold reached, or 100 % forecast before the reset. */
  alerts: LimitAlert[];
  /** The plan this machine's user pays for (the budgets dialog sets it); null: none set (nothing changes). */
  plan: PlanSetting | null;
  /** The usage credits (extra usage) spent this month, from the probe's last answer; null without one. */
  credits: { amount: number; percent: number; observedAt: string } | null;
}

/** `api`: API keys or no subscription (no plan price). */
export type PlanKind = 'api' | 'pro' | 'max5' | 'max20' | 'team' | 'enterprise';

export interface PlanSetting {
  plan: PlanKind;
  /** What the user pays a month, in dollars (0 for `api`). */
  monthlyPrice: number;
}

/** POST /api/limits/settings: what to change (an absent field stays; `plan: null` removes the plan). */
export interface LimitSettingsChange {
  thresholds?: number[];
  plan?: PlanSetting | null;
}

export interface LimitAlert {
  window: string;
  /** A threshold (`75`) or `forecast`. */
  kind: string;
  usedPercent: number;
  projectedPercent: number | null;
  resetsAt: string;
  fullAt: string | null;
  /** The server has logged it (once per window period, recorded in the index). */
  logged: boolean;
}
