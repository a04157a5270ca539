// The models of a range whose fast entries were priced at an estimated multiplier (decisions.md: a fast entry on a
// model with no known multiplier is priced at 2 and listed as an estimate). Few entries are fast: the partial index
// messages_fast (migration 013) reads a model's fast rows of the range and no others, and only the models the price
// table marks as estimated are asked for.
import type Database from 'better-sqlite3';
import type { PriceTable } from '../../pricing/table.ts';
import type { EstimatedFastModel } from '../../shared/api-types.ts';
import type { ModelInfo } from './reader.ts';
import type { ProjectSet } from './scope.ts';

export type EstimatedFast = (fromMs: number, toMs: number, projects: ProjectSet, models: ReadonlyMap<number, ModelInfo>) => EstimatedFastModel[];

export function createEstimatedFast(db: Database.Database, prices: () => PriceTable): EstimatedFast {
  // In 'auto' mode a line's own costUSD is its cost, whatever its speed: no estimate went into it.
  const read = (scope: string): Database.Statement => db.prepare(`SELECT count(*), coalesce(sum(cost), 0) FROM messages INDEXED BY messages_fast
    WHERE model_id = ? AND fast = 1 AND ts >= ? AND ts < ? AND (cost_usd IS NULL OR ? = 1) ${scope}`).raw(true);
  const every = read('');
  const some = read('AND project_id IN (SELECT value FROM json_each(?))');

  return function estimatedFast(fromMs, toMs, projects, models) {
    const table = prices();
    const calculated = table.mode === 'calculate' ? 1 : 0;
    const out: EstimatedFastModel[] = [];
    for (const [id, m] of models) {
      const rule = m.hidden ? null : table.fastOf(m.name);
      if (!rule?.estimated) continue;
      const args = [id, fromMs, toMs, calculated, ...(projects === null ? [] : [JSON.stringify(projects)])];
      const [messages, cost] = (projects === null ? every : some).get(...args) as [number, number];
      if (messages > 0) out.push({ model: m.name, messages, cost, multiplier: rule.multiplier });
    }
    return out.sort((a, b) => b.cost - a.cost || a.model.localeCompare(b.model));
  };
}
