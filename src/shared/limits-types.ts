// Plan limits in the JSON API (issue 33, docs/limits.md): the readings, the windows with their pace and forecast,
// the hits, the plan and the alerts. Re-exported by api-types.ts, the one vocabulary every layer imports.

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
