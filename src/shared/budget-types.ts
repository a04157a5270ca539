// Budgets in the JSON API (GET/POST/DELETE /api/budgets, GET /api/pace): the periods, their use and the one
// projection per period. Re-exported by api-types.ts, the one vocabulary every layer imports.

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
