// The settings table (migration 006): this machine's budgets and the alerts the server logged, as keys and values.
//   budget:<period>:<project>        the amount in dollars
//   budget-alert:<period>:<project>  the first local day (YYYY-MM-DD) of the last period whose alert was logged
//   budget-snooze:<period>:<project> the first local day of the period whose alert the user snoozed until its end
// <project> is the encoded folder name, or `*` for every project (no folder name can be `*`).
import type Database from 'better-sqlite3';
import type { Budget, BudgetPeriod } from '../shared/api-types.ts';

export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['daily', 'weekly', 'monthly'];

const EVERY = '*';
const BUDGET = /^budget:(daily|weekly|monthly):(.+)$/;
const ALERT = /^budget-alert:(daily|weekly|monthly):(.+)$/;
const SNOOZE = /^budget-snooze:(daily|weekly|monthly):(.+)$/;

/** One setting to write; a null value deletes the key. */
export type SettingChange = readonly [key: string, value: string | null];

/** A budget as stored, with the period of its last logged alert. */
export interface StoredBudget extends Budget {
  alertedFrom: string | null;
  snoozedFrom: string | null;
}

const budgetKey = (period: BudgetPeriod, project: string | null): string => `budget:${period}:${project ?? EVERY}`;
const alertKey = (period: BudgetPeriod, project: string | null): string => `budget-alert:${period}:${project ?? EVERY}`;
const snoozeKey = (period: BudgetPeriod, project: string | null): string => `budget-snooze:${period}:${project ?? EVERY}`;
const projectOf = (part: string): string | null => (part === EVERY ? null : part);

/** Reads every budget (a value that is not a positive number, written by hand, is left out). */
export function budgetReader(db: Database.Database): () => StoredBudget[] {
  const rows = db.prepare("SELECT key, value FROM settings WHERE key LIKE 'budget%'").raw(true);
  return () => {
    const budgets = new Map<string, StoredBudget>();
    const alerts = new Map<string, string>();
    const snoozes = new Map<string, string>();
    for (const [key, value] of rows.all() as [string, string][]) {
      const b = BUDGET.exec(key);
      const amount = Number(value);
      if (b && Number.isFinite(amount) && amount > 0) {
        budgets.set(key, { period: b[1] as BudgetPeriod, project: projectOf(b[2]!), amount, alertedFrom: null, snoozedFrom: null });
      }
      const a = ALERT.exec(key);
      if (a) alerts.set(budgetKey(a[1] as BudgetPeriod, projectOf(a[2]!)), value);
      const z = SNOOZE.exec(key);
      if (z) snoozes.set(budgetKey(z[1] as BudgetPeriod, projectOf(z[2]!)), value);
    }
    for (const [key, b] of budgets) {
      b.alertedFrom = alerts.get(key) ?? null;
      b.snoozedFrom = snoozes.get(key) ?? null;
    }
    return [...budgets.values()];
  };
}

/** Sets a budget; a new amount forgets the alert logged for the old one, so the new limit can alert this period. */
export function setBudgetChanges(budget: Budget, previousAmount: number | null): SettingChange[] {
  const set: SettingChange = [budgetKey(budget.period, budget.project), String(budget.amount)];
  return previousAmount === budget.amount ? [set] : [set, [alertKey(budget.period, budget.project), null]];
}

export function removeBudgetChanges(period: BudgetPeriod, project: string | null): SettingChange[] {
  return [[budgetKey(period, project), null], [alertKey(period, project), null], [snoozeKey(period, project), null]];
}

/** Snoozes the alert of the period starting on local day `from` until that period ends. */
export function snoozeChanges(period: BudgetPeriod, project: string | null, from: string): SettingChange[] {
  return [[snoozeKey(period, project), from]];
}

/** Records that the alert of the period starting on local day `from` was logged. */
export function alertedChanges(period: BudgetPeriod, project: string | null, from: string): SettingChange[] {
  return [[alertKey(period, project), from]];
}
