// The rows of one batch that the writer stores, decided where the batch is parsed: the best copy of each dedup key
// within the batch, the rows the index can store, and their rollup sums by (UTC hour, local hour, session, model,
// main/subagent) and (UTC hour, local day, tool). The parse worker runs it for the writer's zone and the file's role
// (so the writer's serial part does not); the writer runs it itself for a batch folded for another zone or role.
import path from 'node:path';
import { LocalClock } from '../calendar/local-clock.ts';
import { HOUR_MS } from '../calendar/days.ts';
import { ianaZone } from '../calendar/zone.ts';
import {
  GROUP, GROUP_COLS, NUM, NUM_COLS, STR, STR_COLS, TOOL, TOOL_COLS, responseKey,
  type BatchFold, type FoldRequest, type UsageBatch,
} from './protocol.ts';

/** Largest token count or timestamp magnitude the rollups can sum exactly (the parser's own bounds are tighter). */
const MAX_COUNT = Number.MAX_SAFE_INTEGER;
const MAX_TS = 8.64e15; // the range of a JS Date

/** A row the index can store: finite, non-negative counts, a timestamp a Date can hold. */
function storable(nums: Float64Array, n: number): boolean {
  if (!(Math.abs(nums[n + NUM.ts]!) <= MAX_TS)) return false;
  const count = (col: number): boolean => nums[n + col]! >= 0 && nums[n + col]! <= MAX_COUNT;
  if (!(count(NUM.input) && count(NUM.output) && count(NUM.cacheCreate) && count(NUM.cacheRead) && count(NUM.cache1h) && count(NUM.webSearch)
    && count(NUM.webFetch))) return false;
  const cost = nums[n + NUM.costUSD]!;
  return Number.isNaN(cost) || (cost >= 0 && Number.isFinite(cost));
}

/**
 * The dedup key of a response (decisions.md): message id + request id (global), else the message id within the
 * session; null for a line without a message id, whose key is its file and offset (unique within a batch).
 */
export function dedupKey(messageId: string, requestId: string, session: string): string | null {
  if (messageId && requestId) return responseKey(messageId, requestId);
  return messageId ? `m${session} ${messageId}` : null;
}

/** The session a row belongs to: the file's role's, else the line's own sessionId, else the file's name. */
const sessionOfRow = (role: string | null, line: string, file: string): string => role ?? (line || path.basename(file, '.jsonl'));

/** The model name a row is stored under. */
const modelOfRow = (model: string): string => model || '<unknown>';

/** Decides and folds the rows of `batch` (its strings decoded as `strs`), local hours from `lhourOf`. */
export function foldBatch(batch: UsageBatch, strs: readonly string[], req: FoldRequest, lhourOf: (ms: number) => number): BatchFold {
  const { nums, strIdx } = batch;
  const str = (i: number, col: number): string => strs[strIdx[i * STR_COLS + col]!]!;
  const sessionOf = (i: number): string => sessionOfRow(req.session, str(i, STR.sessionId), batch.path);
  // Two rows share a key when they share the message id, the request id, and without one, the session.
  const sameKey = (a: number, b: number): boolean => {
    const requestId = str(a, STR.requestId);
    return requestId === str(b, STR.requestId) && (requestId !== '' || sessionOf(a) === sessionOf(b));
  };
  // The best copy of each key so far, in the order of the key's first copy (the writer places them in that order),
  // found by message id: the decoded strings are the table's, so a Map hit costs no key built per row.
  const order: number[] = [];
  const byMessage = new Map<string, number | number[]>(); // message id -> its key's position in `order`, or keys'
  let unstorable = 0;
  for (let i = 0; i < batch.rows; i++) {
    const n = i * NUM_COLS;
    const messageId = str(i, STR.messageId);
    const copies = messageId ? byMessage.get(messageId) : undefined;
    const seen = copies === undefined
      ? undefined
      : typeof copies === 'number'
        ? (sameKey(order[copies]!, i) ? copies : undefined)
        : copies.find((at) => sameKey(order[at]!, i));
    // The first copy wins a tie.
    if (seen !== undefined && nums[order[seen]! * NUM_COLS + NUM.output]! >= nums[n + NUM.output]!) continue;
    if (!storable(nums, n)) {
      unstorable++;
      continue;
    }
    if (seen !== undefined) order[seen] = i;
    else {
      if (messageId) {
        if (copies === undefined) byMessage.set(messageId, order.length);
        else if (typeof copies === 'number') byMessage.set(messageId, [copies, order.length]);
        else copies.push(order.length);
      }
      order.push(i);
    }
  }

  const groups: number[] = [];
  const tools: number[] = [];
  const names: string[] = [];
  const nameIdx = new Map<string, number>();
  const name = (s: string): number => {
    let k = nameIdx.get(s);
    if (k === undefined) nameIdx.set(s, (k = names.push(s) - 1));
    return k;
  };
  const groupIdx = new Map<string, number>();
  const toolIdx = new Map<string, number>();
  // The rows of a file come in runs of one group, or alternate between two (a session's main model and a smaller one),
  // and the tools strings of an hour repeat: look a group up by its key only when it is neither of the last two.
  let last: Group = { hour: NaN, lhour: NaN, session: '', model: '', sub: -1, group: -1 };
  let before = last;
  let toolHour = { hour: NaN, day: NaN, cells: new Map<string, number[]>() };
  const groupOf = new Int32Array(order.length);
  for (let w = 0; w < order.length; w++) {
    const i = order[w]!;
    const n = i * NUM_COLS;
    const ts = nums[n + NUM.ts]!;
    const hour = Math.floor(ts / HOUR_MS);
    const lhour = lhourOf(ts);
    const session = sessionOf(i);
    const model = modelOfRow(str(i, STR.model));
    const sub = (req.agentId ?? str(i, STR.agentId)) ? 1 : 0;
    if (!isGroup(last, hour, lhour, session, model, sub)) {
      let next = before;
      if (!isGroup(before, hour, lhour, session, model, sub)) {
        const key = `${hour},${lhour},${session},${model},${sub}`;
        let g = groupIdx.get(key);
        if (g === undefined) {
          g = groups.length / GROUP_COLS;
          groupIdx.set(key, g);
          groups.push(hour, lhour, name(session), name(model), sub, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        next = { hour, lhour, session, model, sub, group: g };
      }
      before = last;
      last = next;
    }
    groupOf[w] = last.group;
    const at = last.group * GROUP_COLS;
    groups[at + GROUP.n]! += 1;
    groups[at + GROUP.input]! += nums[n + NUM.input]!;
    groups[at + GROUP.output]! += nums[n + NUM.output]!;
    groups[at + GROUP.cacheCreate]! += nums[n + NUM.cacheCreate]!;
    groups[at + GROUP.cacheRead]! += nums[n + NUM.cacheRead]!;
    groups[at + GROUP.cache1h]! += nums[n + NUM.cache1h]!;
    groups[at + GROUP.webSearch]! += nums[n + NUM.webSearch]!;
    groups[at + GROUP.webFetch]! += nums[n + NUM.webFetch]!;
    const used = str(i, STR.tools);
    if (!used) continue;
    const day = Math.floor(lhour / 24);
    if (hour !== toolHour.hour || day !== toolHour.day) toolHour = { hour, day, cells: new Map() };
    let cells = toolHour.cells.get(used);
    if (!cells) {
      cells = [];
      for (const tool of used.split(',')) {
        const key = `${hour},${day},${tool}`;
        let t = toolIdx.get(key);
        if (t === undefined) {
          t = tools.length / TOOL_COLS;
          toolIdx.set(key, t);
          tools.push(hour, day, name(tool), 0);
        }
        cells.push(t);
      }
      toolHour.cells.set(used, cells);
    }
    for (const t of cells) tools[t * TOOL_COLS + TOOL.n]! += 1;
  }
  return {
    ...req,
    winners: new Int32Array(order),
    groupOf,
    groups: new Float64Array(groups),
    tools: new Float64Array(tools),
    names,
    unstorable,
  };
}

/** A group of a batch's winners, by names, and its place in BatchFold.groups. */
interface Group {
  hour: number;
  lhour: number;
  session: string;
  model: string;
  sub: number;
  group: number;
}

function isGroup(g: Group, hour: number, lhour: number, session: string, model: string, sub: number): boolean {
  return g.hour === hour && g.lhour === lhour && g.session === session && g.model === model && g.sub === sub;
}

/** One clock per zone a worker has folded for (a worker serves one writer, whose zone rarely changes). */
const clocks = new Map<string, LocalClock>();

/**
 * The batch with its rows folded for `req` in the named zone; unchanged when Intl does not know the zone (the
 * writer folds it then).
 */
export function withFold(batch: UsageBatch, strs: readonly string[], req: FoldRequest): UsageBatch {
  let clock = clocks.get(req.zone);
  if (!clock) {
    try {
      clock = new LocalClock(ianaZone(req.zone));
    } catch {
      return batch;
    }
    clocks.set(req.zone, clock);
  }
  const zoned = clock;
  return { ...batch, fold: foldBatch(batch, strs, req, (ms) => zoned.lhour(ms)) };
}
