// GET /api/budgets: each stored budget against its current period, from the local-day rollup (a month of days at most).
import type Database from 'better-sqlite3';
import type { BudgetStatus } from '../../shared/api-types.ts';
import { BUDGET_PERIODS, budgetReader } from '../settings.ts';
import { dayOf, systemZone } from '../../calendar/zone.ts';
import { budgetState, periodSpan, projectedUse } from './budget-pace.ts';
import type { Reader } from './reader.ts';
import { resolveScope } from './scope.ts';

export function createBudgets(db: Database.Database, reader: Reader): (now: number) => BudgetStatus[] {
  const stored = budgetReader(db);
  return function budgets(now) {
    const list = stored().sort((a, b) => BUDGET_PERIODS.indexOf(a.period) - BUDGET_PERIODS.indexOf(b.period)
      || (a.project ?? '').localeCompare(b.project ?? ''));
    if (!list.length) return [];
    const folders = reader.projects();
    const today = dayOf(systemZone, now);
    /** Cost per local day from the earliest period start to today, per scope ('' for every project). */
    const daysOf = new Map<string, Map<number, number>>();
    const costs = (project: string | null, firstDay: number): Map<number, number> => {
      const key = project ?? '';
      let days = daysOf.get(key);
      if (days) return days;
      days = new Map();
      daysOf.set(key, days);
      const pid = resolveScope(folders, { project });
      if (pid === undefined) return days; // a project the index holds nothing of (yet)
      for (const [day, , cost] of reader.series({ unit: 'day', from: firstDay, to: today + 1 }, pid)) days.set(day, (days.get(day) ?? 0) + cost);
      return days;
    };
    // The week may start in the previous month: read from the earlier of the two starts, once per scope.
    const earliest = Math.min(periodSpan('weekly', now).firstDay, periodSpan('monthly', now).firstDay);
    return list.map((b) => {
      const span = periodSpan(b.period, now);
      const days = costs(b.project, earliest);
      let use = 0;
      for (const [day, cost] of days) if (day >= span.firstDay && day <= today) use += cost;
      const projected = projectedUse(use, days.get(today) ?? 0, now, span);
      const folder = b.project === null ? undefined : [...folders.values()].find((p) => p.id === b.project);
      return {
        period: b.period, project: b.project, amount: b.amount,
        projectName: b.project === null ? null : (folder?.name ?? b.project),
        from: span.from, to: span.to, end: new Date(span.end).toISOString(),
        use, projected, state: budgetState(b.amount, use, projected), alerted: b.alertedFrom === span.from,
      };
    });
  };
}
