// GET /api/receipt: a range's (and scope's) messages grouped in SQL by what prices them alike (model, fast, US-only,
// advisor, own costUSD or not, long context or not), itemised against the installed price table (pricing/itemise.ts), and checked
// against the stored costs of the same rows: the overview's cost is their sum, through the rollups.
import type Database from 'better-sqlite3';
import type { ReceiptFigures } from '../../shared/receipt-types.ts';
import { LONG_CONTEXT_THRESHOLD } from '../../pricing/cost.ts';
import { itemise, type ReceiptGroup } from '../../pricing/itemise.ts';
import type { PriceTable } from '../../pricing/table.ts';
import type { Reader } from './reader.ts';
import { resolveScope } from './scope.ts';
import { spanFiles, spanHours } from './span-files.ts';
import type { SpannedScope } from './spans.ts';

/** A difference between the recomputed and the stored sum that shows on a figure rounded to the cent. */
export const MISMATCH_USD = 0.005;

type Cell = [model: string, fast: number, geo: number, advisor: number, own: number, long: number, messages: number, input: number,
  output: number, cacheCreate: number, cacheRead: number, cache1h: number, webSearch: number, webFetch: number, costUSD: number, stored: number];

const OWN = 'm.cost_usd IS NOT NULL AND m.cost_usd >= 0';
const GROUPED = `SELECT md.name, m.fast, m.geo, m.advisor, ${OWN} AS own, m.input + m.cache_read + m.cache_create > ${LONG_CONTEXT_THRESHOLD} AS long,
    count(*), sum(m.input), sum(m.output), sum(m.cache_create), sum(m.cache_read), sum(m.cache_1h), sum(m.web_search), sum(m.web_fetch),
    sum(CASE WHEN ${OWN} THEN m.cost_usd ELSE 0 END), sum(m.cost)
  FROM messages m JOIN models md ON md.id = m.model_id`;
const GROUP_BY = 'GROUP BY m.model_id, m.fast, m.geo, m.advisor, own, long';

export interface ReceiptAsk extends SpannedScope {
  /** A session's id: only its messages (with the range). */
  session?: string | null;
}

/** null: the session asked for is unknown. */
export type ReceiptQuery = (ask: ReceiptAsk) => ReceiptFigures | null;

export function createReceipt(db: Database.Database, reader: Reader, prices: () => PriceTable): ReceiptQuery {
  const ranged = (scope: string): Database.Statement =>
    db.prepare(`${GROUPED} WHERE m.file_id IN (${spanFiles('?', '?', scope)}) AND m.ts >= ? AND m.ts < ?
      ${scope.replace('project_id', 'm.project_id')} ${GROUP_BY}`).raw(true);
  const every = ranged('');
  const some = ranged('AND project_id IN (SELECT value FROM json_each(@p))');
  const sessionHead = db.prepare('SELECT id, project_id FROM sessions WHERE sid = ?').raw(true);
  // A session's rows are in its files or in project-root files of its folder (as queries/session.ts reads them).
  const inSession = db.prepare(`${GROUPED} WHERE m.file_id IN (SELECT id FROM files WHERE session_id = @session OR (session_id IS NULL
      AND project_id IN (SELECT id FROM projects WHERE encoded = (SELECT encoded FROM projects WHERE id = @project)))) AND m.session_id = @session
      AND m.ts >= @from AND m.ts < @to ${GROUP_BY}`).raw(true);

  return function receipt(ask) {
    const { fromMs, toMs } = ask.range;
    let cells: Cell[] = [];
    if (ask.session) {
      const head = sessionHead.get(ask.session) as [number, number] | undefined;
      if (!head) return null;
      cells = inSession.all({ session: head[0], project: head[1], from: fromMs, to: toMs }) as Cell[];
    } else {
      const pids = resolveScope(reader.projects(), ask);
      if (pids !== undefined && fromMs < toMs) {
        const args = [...spanHours(fromMs, toMs), fromMs, toMs];
        cells = (pids === null ? every.all(...args) : some.all(...args, { p: JSON.stringify(pids) })) as Cell[];
      }
    }
    const groups: ReceiptGroup[] = cells.map(([model, fast, geo, advisor, own, long, messages, input, output, cacheCreate, cacheRead, cache1h,
      webSearch, webFetch, costUSD, stored]) => ({
      model, fast: fast === 1, geo: geo === 1, advisor: advisor === 1, ownCost: own === 1, longContext: long === 1, messages, input, output,
      cacheCreate, cacheRead, cache1h, webSearch, webFetch, costUSD, stored,
    }));
    const table = prices();
    const { lines, rules } = itemise(table, groups);
    const total = groups.reduce((s, g) => s + g.stored, 0);
    const computed = lines.reduce((s, l) => s + l.amount, 0);
    const difference = computed - total;
    return {
      priceSource: table.source, costMode: table.mode, lines, rules,
      messages: groups.reduce((s, g) => s + g.messages, 0),
      total, computed,
      mismatch: Math.abs(difference) >= MISMATCH_USD ? { computed, stored: total, difference } : null,
    };
  };
}
