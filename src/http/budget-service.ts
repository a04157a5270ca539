// What the budget routes need of the budgets (src/main/budgets.ts implements it): the server takes it as an option,
// as it takes the usage probe, so http does not import main.
import type { Budget, BudgetPeriod, Budgets } from '../shared/api-types.ts';

/** What a change answers: the budgets after it, or why nothing changed. */
export type BudgetChange =
  | { ok: true; budgets: Budgets }
  | { ok: false; reason: 'read-only' | 'not-found' | 'write-failed'; message: string };

export interface BudgetService {
  list(now: number): Budgets;
  /** A change waits (asynchronously) while a compaction of the index holds its writes (index-db/write/compact.ts). */
  set(budget: Budget, now: number): Promise<BudgetChange>;
  remove(period: BudgetPeriod, project: string | null, now: number): Promise<BudgetChange>;
  /** Hides the budget's alert until its current period ends (kept in the index, so a reload does not bring it back). */
  snooze(period: BudgetPeriod, project: string | null, now: number): Promise<BudgetChange>;
  /** Logs each budget projected over or over, once per budget and period (the writer only). */
  check(now: number): void;
  /** Checks now and then every 30 s; a failed check is logged, never thrown. */
  start(): void;
  /** Stops the periodic check. */
  close(): void;
}
