// The budgets as the dashboard shows them (GET /api/budgets; the server computes use, projection and state).
import type { BudgetPeriod, BudgetStatus } from '../../src/shared/api-types.ts';
import { formatUsd } from './format.ts';
import { scopeRepository } from './state.ts';

export const PERIODS: readonly BudgetPeriod[] = ['daily', 'weekly', 'monthly'];
export const PERIOD_LABEL: Record<BudgetPeriod, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };
const PERIOD_NOUN: Record<BudgetPeriod, string> = { daily: 'day', weekly: 'week', monthly: 'month' };

/** Fired (bubbling, composed) after a budget was saved or removed: the shell refreshes every view. */
export const BUDGETS_CHANGED = 'budgets-changed';

/** The budget a strip card shows: the one of its period for the page's scope (a repository scope has none). */
export function budgetOf(budgets: readonly BudgetStatus[], period: BudgetPeriod, scope: string | null): BudgetStatus | undefined {
  if (scope !== null && scopeRepository(scope) !== null) return undefined;
  return budgets.find((b) => b.period === period && b.project === scope);
}

/** One alert per budget and period: the key of a desktop notification (its tag) and of a dismissed banner line. */
export const alertKey = (b: BudgetStatus): string => `cost-budget:${b.period}:${b.project ?? '*'}:${b.from}`;

export const whoseText = (b: BudgetStatus): string => (b.project === null ? 'every project' : (b.projectName ?? b.project));

/** "Daily budget for every project passed: $36.00 of $30.00" or "… on pace for $70.00 by the end of the week …". */
export function alertText(b: BudgetStatus): string {
  const head = `${PERIOD_LABEL[b.period]} budget for ${whoseText(b)}`;
  if (b.use > b.amount) return `${head} passed: ${formatUsd(b.use)} of ${formatUsd(b.amount)}`;
  return `${head} on pace for ${formatUsd(b.projected)} by the end of the ${PERIOD_NOUN[b.period]} (${formatUsd(b.use)} of ${formatUsd(b.amount)} so far)`;
}

/** Whether a budget is alerted on: spent over, or on pace to be (the server's log alerts on the same). */
export const isAlert = (b: BudgetStatus): boolean => b.use > b.amount || b.projected > b.amount;

/** The state in words: "Over by $X" (red) only for money spent; "On pace for $X" (amber) for a projection past the amount. */
export function stateText(b: BudgetStatus): string {
  if (b.use > b.amount) return `Over by ${formatUsd(b.use - b.amount)}`;
  if (b.projected > b.amount) return `On pace for ${formatUsd(b.projected)}`;
  return b.state === 'warn' ? 'Near the limit' : 'On track';
}

/** The snooze of a budget's alert until its period ends (POST /api/budgets/snooze). */
export function snoozePath(b: BudgetStatus): string {
  const q = new URLSearchParams({ period: b.period, ...(b.project === null ? {} : { project: b.project }) });
  return `/api/budgets/snooze?${q.toString()}`;
}
