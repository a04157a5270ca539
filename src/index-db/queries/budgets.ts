// GET /api/budgets: each stored budget against its current period, from the local-day rollup (a month of days at most).
import type Database from 'better-sqlite3';
import type { BudgetPeriod, BudgetStatus, PeriodPace } from '../../shared/api-types.ts';
import { BUDGET_PERIODS, budgetReader } from '../settings.ts';
import { dayOf, systemZone } from '../../calendar/zone.ts';
import { budgetState, periodSpan, projectedUse, USUAL_DAYS, usualDay } from './budget-pace.ts';
import type { Reader } from './reader.ts';
import { resolveScope, type ScopeAsk } from './scope.ts';

/** A scope's cost per local day, from the earliest day a period or a usual day needs through today. */
function dailyCosts(reader: Reader, now: number): (ask: ScopeAsk) => Map<number, number> {
  const folders = reader.projects();
  const today = dayOf(systemZone, now);
  // The week may start in the previous month; a usual day may look USUAL_DAYS back.
  const earliest = Math.min(periodSpan('weekly', now).firstDay, periodSpan('monthly', now).firstDay, today - USUAL_DAYS);
  const cached = new Map<string, Map<number, number>>();
  return (ask) => {
    const key = JSON.stringify(ask);
    let days = cached.get(key);
    if (days) return days;
    days = new Map();
    cached.set(key, days);
    const pid = resolveScope(folders, ask);
    if (pid === undefined) return days; // a project the index holds nothing of (yet)
    for (const [day, , cost] of reader.series({ unit: 'day', from: earliest, to: today + 1 }, pid)) days.set(day, (days.get(day) ?? 0) + cost);
    return days;
  };
}

/** A period's use so far and its one projection (budget-pace.ts projectedUse). */
function paceOf(period: BudgetPeriod, days: Map<number, number>, now: number): PeriodPace {
  const span = periodSpan(period, now);
  const today = dayOf(systemZone, now);
  let use = 0;
  for (const [day, cost] of days) if (day >= span.firstDay && day <= today) use += cost;
  const usual = usualDay(span, today, (day) => days.get(day) ?? 0);
  return { period, from: span.from, to: span.to, use, usualDay: usual, projected: projectedUse(use, usual, now, span) };
}

/** The day, week and month around `now` for a scope (all projects, a folder or a repository), as the strip shows them. */
export function createPace(reader: Reader): (now: number, ask: ScopeAsk) => PeriodPace[] {
  return (now, ask) => {
    const days = dailyCosts(reader, now)(ask);
    return BUDGET_PERIODS.map((period) => paceOf(period, days, now));
  };
}

export function createBudgets(db: Database.Database, reader: Reader): (now: number) => BudgetStatus[] {
  const stored = budgetReader(db);
  return function budgets(now) {
    const list = stored().sort((a, b) => BUDGET_PERIODS.indexOf(a.period) - BUDGET_PERIODS.indexOf(b.period)
      || (a.project ?? '').localeCompare(b.project ?? ''));
    if (!list.length) return [];
    const folders = reader.projects();
    const costs = dailyCosts(reader, now);
    return list.map((b) => {
      const span = periodSpan(b.period, now);
      const { use, projected } = paceOf(b.period, costs({ project: b.project }), now);
      const folder = b.project === null ? undefined : [...folders.values()].find((p) => p.id === b.project);
      return {
        period: b.period, project: b.project, amount: b.amount,
        projectName: b.project === null ? null : (folder?.name ?? b.project),
        from: span.from, to: span.to, end: new Date(span.end).toISOString(),
        use, projected, state: budgetState(b.amount, use, projected), alerted: b.alertedFrom === span.from,
        snoozed: b.snoozedFrom === span.from,
      };
    });
  };
}
