// This machine's budgets (issue 14): read with their use by any server; changed, and alerted on, only by the index's
// writer, since they live in the index file. An alert (a budget projected over, or over) is one log line per budget
// and period: the period is recorded in the settings table, so a restart does not log it again.
import type { BudgetChange, BudgetService } from '../http/budget-service.ts';
import type { BudgetPeriod, Budgets, BudgetStatus } from '../shared/api-types.ts';
import { IndexWriteError } from '../index-db/errors.ts';
import { alertedChanges, removeBudgetChanges, setBudgetChanges, snoozeChanges, type SettingChange } from '../index-db/settings.ts';
import { alerts } from '../index-db/queries/budget-pace.ts';
import type { IndexDb, Queries } from '../index-db/types.ts';
import type { Log } from '../ingest/log.ts';
import { withFreeWriter } from './free-writer.ts';

/** The index as the budgets see it: its queries, and its writer while this process is the writer. */
export interface BudgetIndex {
  readonly queries: Queries;
  writable(): Pick<IndexDb, 'writeSettings' | 'writesHeld'> | null;
  /** The process that writes the index while this one reads it, as that process recorded itself. */
  otherWriter(): string;
}

export interface BudgetOptions {
  index: BudgetIndex;
  log: Log;
}

/** How often the writer looks for a budget to alert on (the use moves with every transcript line). */
const CHECK_MS = 30_000;

const usd = (n: number): string => `$${n.toFixed(2)}`;
const PERIOD_WORD: Record<BudgetPeriod, string> = { daily: 'day', weekly: 'week', monthly: 'month' };

/** The server's one line for an alert. */
export function alertLine(b: BudgetStatus): string {
  const whose = b.project === null ? 'every project' : `project ${b.projectName ?? b.project}`;
  const what = b.use > b.amount
    ? `was passed: ${usd(b.use)} so far`
    : `is projected to be passed: ${usd(b.projected)} by the end of the ${PERIOD_WORD[b.period]}, ${usd(b.use)} so far`;
  return `budget alert: the ${b.period} budget of ${usd(b.amount)} for ${whose} (${b.from} to ${b.to}) ${what}`;
}

export function createBudgetService(opts: BudgetOptions): BudgetService {
  const { index, log } = opts;
  /** Alerts logged by this process, so a failed record (a full disk) does not log the same alert every check. */
  const logged = new Set<string>();

  const list = (now: number): Budgets => ({ writable: index.writable() !== null, budgets: index.queries.budgets(now) });

  const write = (changes: SettingChange[], now: number): Promise<BudgetChange> => withFreeWriter(() => index.writable(), (writer): BudgetChange => {
    if (!writer) {
      return {
        ok: false, reason: 'read-only',
        message: `Budgets cannot be changed here: this server reads an index that another process writes (${index.otherWriter()}). `
          + 'Change them in that dashboard, or stop that process: this one takes over within seconds.',
      };
    }
    try {
      writer.writeSettings(changes);
    } catch (err) {
      if (!(err instanceof IndexWriteError)) throw err;
      return { ok: false, reason: 'write-failed', message: `The budget was not saved: ${err.message}` };
    }
    check(now);
    return { ok: true, budgets: list(now) };
  });

  const check = (now: number): void => {
    const writer = index.writable();
    // While a compaction holds the writes, the alerts wait for the next check (their record is a write).
    if (!writer || writer.writesHeld()) return;
    for (const b of index.queries.budgets(now)) {
      const key = `${b.period}:${b.project ?? ''}:${b.from}:${b.amount}`;
      if (!alerts(b) || b.alerted || logged.has(key)) continue;
      logged.add(key);
      log(alertLine(b));
      try {
        writer.writeSettings(alertedChanges(b.period, b.project, b.from));
      } catch (err) {
        if (!(err instanceof IndexWriteError)) throw err; // logged by the writer; this process still remembers it
      }
    }
  };

  // A failed check (the index being rebuilt, a damaged file) must not end the server: the next one tries again.
  const checkQuietly = () => {
    try {
      check(Date.now());
    } catch (err) {
      log(`budget check failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  let timer: NodeJS.Timeout | null = null;

  return {
    list,
    async set(budget, at) {
      const current = index.queries.budgets(at).find((b) => b.period === budget.period && b.project === budget.project);
      return write(setBudgetChanges(budget, current?.amount ?? null), at);
    },
    async remove(period, project, at) {
      if (!index.queries.budgets(at).some((b) => b.period === period && b.project === project)) {
        return { ok: false, reason: 'not-found', message: 'No such budget' };
      }
      return write(removeBudgetChanges(period, project), at);
    },
    async snooze(period, project, at) {
      const b = index.queries.budgets(at).find((x) => x.period === period && x.project === project);
      if (!b) return { ok: false, reason: 'not-found', message: 'No such budget' };
      return write(snoozeChanges(period, project, b.from), at);
    },
    check,
    start() {
      checkQuietly();
      timer ??= setInterval(checkQuietly, CHECK_MS);
      timer.unref();
    },
    close() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
