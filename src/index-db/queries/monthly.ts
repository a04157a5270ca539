// GET /api/monthly: cost, tokens and the top model of every local calendar month of the history, from the local-day
// rollups (days x models: a few thousand rows a year), so the whole history costs milliseconds.
import { dayKey } from '../../calendar/days.ts';
import type { MonthlyData, QueryScope } from '../types.ts';
import type { Reader } from './reader.ts';
import { resolveScope } from './scope.ts';

export function createMonthly(reader: Reader): (scope: QueryScope) => MonthlyData {
  return function monthly(scope) {
    const pid = resolveScope(reader.projects(), scope);
    const rows = pid === undefined ? [] : reader.dayModels(pid);
    const models = reader.models();
    const months = new Map<string, { cost: number; totalTokens: number; messages: number; byModel: Map<string, number> }>();
    for (const [day, modelId, cost, tokens, messages] of rows) {
      const key = dayKey(day).slice(0, 7);
      const m = months.get(key) ?? { cost: 0, totalTokens: 0, messages: 0, byModel: new Map<string, number>() };
      months.set(key, m);
      m.cost += cost;
      m.totalTokens += tokens;
      m.messages += messages;
      const model = models.get(modelId);
      // Names like <synthetic> stay out of model breakdowns (decisions.md).
      if (model && !model.hidden) m.byModel.set(model.name, (m.byModel.get(model.name) ?? 0) + cost);
    }
    return {
      months: [...months].sort((a, b) => (a[0] < b[0] ? 1 : -1)).map(([month, m]) => ({
        month, cost: m.cost, totalTokens: m.totalTokens, messages: m.messages,
        topModel: [...m.byModel].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null,
      })),
    };
  };
}
