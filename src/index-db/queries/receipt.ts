// GET /api/receipt: a range's (and scope's) messages grouped in SQL by what prices them alike (model, fast, US-only,
// advisor, own costUSD or not, long context or not), itemised against the installed price table (pricing/itemise.ts), and checked
// against the stored costs of the same rows: the overview's cost is their sum, through the rollups.
// No rollup holds those groups, so a receipt reads every message of its range: over a year of a 10 GiB history, two
// million rows and seconds of SQL. A range's files are therefore read a few at a time (CHUNK_BYTES of transcript),
// the event loop turning between two reads, so that no other answer waits behind a receipt (bench/RESULTS.md).
import type Database from 'better-sqlite3';
import type { ReceiptFigures } from '../../shared/receipt-types.ts';
import { LONG_CONTEXT_THRESHOLD } from '../../pricing/cost.ts';
import { itemise, type ReceiptGroup } from '../../pricing/itemise.ts';
import type { PriceTable } from '../../pricing/table.ts';
import type { Reader } from './reader.ts';
import { resolveScope } from './scope.ts';
import { spanFiles, spanHours } from './span-files.ts';
import type { SpannedScope } from './spans.ts';

/**
 * Transcript bytes whose messages one read of a ranged receipt groups: about 3k messages, a few ms of SQL on this
 * project's 2-core bench machine.
 */
const CHUNK_BYTES = 16 * 1048576;
/**
 * Past this long a range reads every file (the messages' own time bounds keep what is in range): finding the files
 * through the hourly rollup cost more than reading them all beyond a month or two (10 GiB: 365 days 168 against 12
 * ms, in one block; 7 days 17 against 64 ms).
 */
const EVERY_FILE_MS = 45 * 86_400_000;

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
export type ReceiptQuery = (ask: ReceiptAsk) => Promise<ReceiptFigures | null>;

/** The cells of one group key: a receipt's rows of the same model, fast, geo, advisor, own cost and long context. */
const groupKey = (c: Cell): string => `${c[0]}\n${c[1]}${c[2]}${c[3]}${c[4]}${c[5]}`;

/** Adds `cells` into `by`, group by group (the sums of several reads of one range). */
function addCells(by: Map<string, Cell>, cells: readonly Cell[]): void {
  for (const c of cells) {
    const key = groupKey(c);
    const into = by.get(key);
    if (!into) by.set(key, [...c]);
    else for (let i = 6; i < c.length; i++) (into[i] as number) += c[i] as number;
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `chunkBytes`: transcript bytes per read of a ranged receipt (a test makes it small). */
export function createReceipt(db: Database.Database, reader: Reader, prices: () => PriceTable, chunkBytes = CHUNK_BYTES): ReceiptQuery {
  const filesOf = (scope: string): Database.Statement => db.prepare(`SELECT id, size FROM files WHERE id IN (${spanFiles('?', '?', scope)}) ORDER BY id`).raw(true);
  const inFiles = (scope: string): Database.Statement =>
    db.prepare(`${GROUPED} WHERE m.file_id IN (SELECT value FROM json_each(@files)) AND m.ts >= @from AND m.ts < @to
      ${scope.replace('project_id', 'm.project_id')} ${GROUP_BY}`).raw(true);
  const SET = 'AND project_id IN (SELECT value FROM json_each(@p))';
  const allFiles = db.prepare('SELECT id, size FROM files ORDER BY id').raw(true);
  const every = { files: filesOf(''), cells: inFiles('') };
  const some = { files: filesOf(SET), cells: inFiles(SET) };
  const sessionHead = db.prepare('SELECT id, project_id FROM sessions WHERE sid = ?').raw(true);
  // A session's rows are in its files or in project-root files of its folder (as queries/session.ts reads them).
  const inSession = db.prepare(`${GROUPED} WHERE m.file_id IN (SELECT id FROM files WHERE session_id = @session OR (session_id IS NULL
      AND project_id IN (SELECT id FROM projects WHERE encoded = (SELECT encoded FROM projects WHERE id = @project)))) AND m.session_id = @session
      AND m.ts >= @from AND m.ts < @to ${GROUP_BY}`).raw(true);

  /** The cells of a range's messages in the projects `pids` (null: all), read CHUNK_BYTES of files at a time. */
  async function rangeCells(fromMs: number, toMs: number, pids: readonly number[] | null): Promise<Cell[]> {
    const s = pids === null ? every : some;
    const p = pids === null ? {} : { p: JSON.stringify(pids) };
    const files = (toMs - fromMs > EVERY_FILE_MS
      ? allFiles.all()
      : pids === null ? s.files.all(...spanHours(fromMs, toMs)) : s.files.all(...spanHours(fromMs, toMs), p)) as [number, number][];
    const by = new Map<string, Cell>();
    for (let at = 0; at < files.length;) {
      const chunk: number[] = [];
      for (let bytes = 0; at < files.length && (chunk.length === 0 || bytes + files[at]![1] <= chunkBytes); at++) {
        chunk.push(files[at]![0]);
        bytes += files[at]![1];
      }
      if (chunk.length < files.length) await nextTurn(); // not for a range of a few files: it answers at once
      addCells(by, s.cells.all({ files: JSON.stringify(chunk), from: fromMs, to: toMs, ...p }) as Cell[]);
    }
    return [...by.values()];
  }

  return async function receipt(ask) {
    const { fromMs, toMs } = ask.range;
    let cells: Cell[] = [];
    if (ask.session) {
      const head = sessionHead.get(ask.session) as [number, number] | undefined;
      if (!head) return null;
      cells = inSession.all({ session: head[0], project: head[1], from: fromMs, to: toMs }) as Cell[];
    } else {
      const pids = resolveScope(reader.projects(), ask);
      if (pids !== undefined && fromMs < toMs) cells = await rangeCells(fromMs, toMs, pids);
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
