// GET /api/usage-limits and /api/usage-drivers: the plan usage and what drove it, as the agent CLI's probe answers
// them. Re-exported by api-types.ts.

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
