// THE contract between the parse worker and the main thread.
// A task names a byte range of one file; the worker answers with a columnar batch whose
// buffers are transferred (not cloned) back to the main thread.

export interface ParseTask {
  /** Absolute path of the transcript. */
  path: string;
  /** Byte offset to start at; always the start of a line (0 or just after a '\n'). */
  from: number;
  /** Read up to this offset (the size seen by stat). Only complete lines are consumed. */
  to: number;
  /** Also report the first real user prompt of the range (the session has none yet). */
  wantPrompt: boolean;
  /** Decide the batch's rows and fold their rollup cells here (fold.ts), as the writer would for this file. */
  fold?: FoldRequest;
  /** Also read the subagent's `agent-<id>.meta.json` beside the transcript (agent-meta.ts). */
  agentMeta?: boolean;
}

/** A subagent's type and description, from its meta file (null: none, or not a string). */
export interface AgentMeta {
  agentType: string | null;
  agentDescription: string | null;
}

/** What the in-batch dedup and the rollup cells depend on besides the rows: the file's role and the writer's zone. */
export interface FoldRequest {
  /** The role's session (null: a file outside any session, its lines' own sessionId or its name then). */
  session: string | null;
  /** The role's subagent id (null: the lines' own agentId, if any). */
  agentId: string | null;
  /** The IANA zone the writer folds local hours and days in. */
  zone: string;
}

/** Numeric columns of one usage row, NUM_COLS float64 per row, in this order. */
export const NUM = {
  ts: 0, // epoch ms (UTC)
  input: 1,
  output: 2,
  cacheCreate: 3, // all cache-write tokens (5m + 1h)
  cacheRead: 4,
  cache1h: 5, // of cacheCreate, the 1-hour writes (usage.cache_creation.ephemeral_1h_input_tokens)
  webSearch: 6, // usage.server_tool_use.web_search_requests
  costUSD: 7, // the line's own costUSD, NaN when absent
  offset: 8, // byte offset of the line in the file (unique per file)
  hkey: 9, // hashKey(responseKey(messageId, requestId)) when the line has both ids, else NaN (the index hashes its own key)
  webFetch: 10, // usage.server_tool_use.web_fetch_requests
} as const;
export const NUM_COLS = 11;

/** Flag bits of one row (Uint8Array, one byte per row): geo = US-only inference, advisor = an advisor iteration's row. */
export const FLAG = { fast: 1, sidechain: 2, geo: 4, advisor: 8 } as const;

/** String columns of one row, indexes into the batch string table, STR_COLS uint32 per row. */
export const STR = {
  messageId: 0, // '' when absent
  requestId: 1, // '' when absent
  sessionId: 2, // the line's sessionId ('' when absent)
  model: 3, // '' when absent
  agentId: 4, // the line's agentId ('' when absent)
  tools: 5, // tool_use names of this line's content, joined by ',' ('' when none)
  branch: 6, // the line's gitBranch ('' when absent or empty)
  entrypoint: 7, // the line's top-level entrypoint: cli, sdk-ts, ... ('' when absent)
  skill: 8, // the line's attributionSkill ('' when absent: direct)
  mcpServer: 9, // the line's attributionMcpServer ('' when absent)
  mcpTool: 10, // the line's attributionMcpTool ('' when absent)
  agentType: 11, // the line's attributionAgent: the subagent type ('' when absent)
  effort: 12, // the line's top-level effort: low ... xhigh, ultracode ('' when absent)
} as const;
export const STR_COLS = 13;

export interface ParseStats {
  /** Complete lines consumed. */
  lines: number;
  /** Lines that held a usage entry. */
  usageLines: number;
  /** Blank lines. */
  blank: number;
  /** Lines that passed the prefilter but were not a JSON object or had a bad shape. */
  malformed: number;
  /** Lines too big even with their strings cut (see ScanOptions.maxLine), skipped. */
  giant: number;
  /** Usage lines with a count, cost or timestamp outside what a real request can be (extract.ts LIMITS), skipped. */
  outOfRange: number;
}

/** Non-usage facts found in the range; the latest wins where several appear. */
export interface FileMeta {
  /** cwd of the last line that had one. */
  cwd?: string;
  /** Latest custom-title / ai-title of the range, with its kind. */
  title?: string;
  titleKind?: 'custom' | 'ai';
  /** First real user prompt, else the first housekeeping command (shared/housekeeping.ts); only when asked for. */
  firstPrompt?: string;
  /** Earliest timestamp (epoch ms) seen on any line of the range. */
  firstTs?: number;
  /** sessionId seen on any line (first one). */
  sessionId?: string;
  /** The plan limit hits the range reports (limit-hit.ts), in file order. */
  hits?: LimitHit[];
}

/** A turn a plan limit stopped, as the transcript reports it. */
export interface LimitHit {
  /** Dedup key across files: the message's id, else `<sessionId>@<at>`. */
  key: string;
  /** Epoch ms of the line. */
  at: number;
  /** five_hour, seven_day or seven_day_<model>; null when the text names none. */
  window: string | null;
  /** Epoch ms of the reset the text gives; null when it gives none. */
  resetsAt: number | null;
  /** The message's text, cut to a few hundred characters. */
  text: string;
}

export interface UsageBatch {
  path: string;
  from: number;
  /** Offset just after the last complete line consumed; the next task starts here. */
  consumedTo: number;
  /** First 64 bytes of the file, hex, when the range started at 0 (head fingerprint). */
  head: string;
  rows: number;
  nums: Float64Array;
  flags: Uint8Array;
  strIdx: Uint32Array;
  /** UTF-8 string table, entries separated by '\0'. */
  strTable: Uint8Array;
  meta: FileMeta;
  stats: ParseStats;
  /** The rows decided and folded for `fold`'s role and zone (absent: the writer folds them itself). */
  fold?: BatchFold;
  /** The subagent's meta file, when the task asked for it. */
  agent?: AgentMeta;
}

/**
 * The rows of a batch the writer stores, and their rollup sums by names (fold.ts): what is left to the writer is to
 * map each group's names to ids once, and to take out again the rows the index already holds.
 */
export interface BatchFold extends FoldRequest {
  /** Row indexes of the batch's best copy of each dedup key, in the order of each key's first copy. */
  winners: Int32Array;
  /** The group (in `groups`) of each of `winners`. */
  groupOf: Int32Array;
  /** GROUP_COLS float64 per group of winners: same UTC hour, local hour, session, model and main/subagent. */
  groups: Float64Array;
  /** TOOL_COLS float64 per tool cell: a tool's uses among the winners in one UTC hour and local day. */
  tools: Float64Array;
  /** The session, model and tool names that `groups` and `tools` index. */
  names: string[];
  /** Rows whose counts, cost or timestamp the index cannot store (not among the winners). */
  unstorable: number;
}

/** Columns of one group of BatchFold.groups. */
export const GROUP = {
  hour: 0, // UTC hour number
  lhour: 1, // local hour number in the fold's zone
  session: 2, // index into names: the session's id (the role's, else the line's, else the file's name)
  model: 3, // index into names ('<unknown>' for none)
  sub: 4, // 1: subagent rows
  n: 5,
  input: 6,
  output: 7,
  cacheCreate: 8,
  cacheRead: 9,
  cache1h: 10,
  webSearch: 11,
  webFetch: 12,
} as const;
export const GROUP_COLS = 13;

/** Columns of one cell of BatchFold.tools. */
export const TOOL = { hour: 0, day: 1, tool: 2, n: 3 } as const;
export const TOOL_COLS = 4;

/** Bytes of the head fingerprint kept in each file's cursor. */
export const HEAD_BYTES = 64;
/** Lines longer than this are parsed from a copy with their strings cut (jsonl.ts); the copy has the same bound. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

/** Decodes the string table once; rows then index into the returned array. */
export function decodeStrings(table: Uint8Array): string[] {
  if (table.byteLength === 0) return ['']; // no rows, or rows whose every name is '' (the encoder's first entry)
  return new TextDecoder().decode(table).split('\0');
}

/** The counts of one usage entry: what the worker reads, the index stores per message and sums per rollup cell. */
export interface UsageCounts {
  input: number;
  output: number;
  /** All cache-write tokens (5m + 1h). */
  cacheCreate: number;
  cacheRead: number;
  /** Of cacheCreate, the 1-hour writes. */
  cache1h: number;
  webSearch: number;
  /** Web fetch requests: counted, never priced. */
  webFetch: number;
}

/** A decoded row, for the main thread's writer and for tests. */
export interface UsageRow extends UsageCounts {
  ts: number;
  costUSD: number | null;
  /** The line's byte offset; an advisor row's is a byte inside its line (extract.ts advisorRows). */
  offset: number;
  fast: boolean;
  sidechain: boolean;
  /** `usage.inference_geo` is "us": US-only inference (decisions.md: the cost x 1.1). */
  geo: boolean;
  /** The row is an advisor iteration of its line's response (`usage.iterations[]`, type advisor_message). */
  advisor: boolean;
  messageId: string;
  requestId: string;
  sessionId: string;
  model: string;
  agentId: string;
  tools: string[];
  /** The line's gitBranch: '' none, 'HEAD' detached. */
  branch: string;
  /** The line's top-level `entrypoint` (what started Claude Code: cli, claude-vscode, sdk-ts, ...): '' none. */
  entrypoint: string;
  /** What caused the usage (extract.ts causeOf): the line's attribution and effort, '' each for none ("direct"). */
  skill: string;
  mcpServer: string;
  mcpTool: string;
  agentType: string;
  effort: string;
}

export function* rowsOf(batch: UsageBatch): Generator<UsageRow> {
  const strs = decodeStrings(batch.strTable);
  const { nums, flags, strIdx } = batch;
  for (let i = 0; i < batch.rows; i++) {
    const n = i * NUM_COLS;
    const s = i * STR_COLS;
    const cost = nums[n + NUM.costUSD]!;
    const tools = strs[strIdx[s + STR.tools]!]!;
    yield {
      ts: nums[n + NUM.ts]!,
      input: nums[n + NUM.input]!,
      output: nums[n + NUM.output]!,
      cacheCreate: nums[n + NUM.cacheCreate]!,
      cacheRead: nums[n + NUM.cacheRead]!,
      cache1h: nums[n + NUM.cache1h]!,
      webSearch: nums[n + NUM.webSearch]!,
      webFetch: nums[n + NUM.webFetch]!,
      costUSD: Number.isNaN(cost) ? null : cost,
      offset: nums[n + NUM.offset]!,
      fast: (flags[i]! & FLAG.fast) !== 0,
      sidechain: (flags[i]! & FLAG.sidechain) !== 0,
      geo: (flags[i]! & FLAG.geo) !== 0,
      advisor: (flags[i]! & FLAG.advisor) !== 0,
      messageId: strs[strIdx[s + STR.messageId]!]!,
      requestId: strs[strIdx[s + STR.requestId]!]!,
      sessionId: strs[strIdx[s + STR.sessionId]!]!,
      model: strs[strIdx[s + STR.model]!]!,
      agentId: strs[strIdx[s + STR.agentId]!]!,
      tools: tools ? tools.split(',') : [],
      branch: strs[strIdx[s + STR.branch]!]!,
      entrypoint: strs[strIdx[s + STR.entrypoint]!]!,
      skill: strs[strIdx[s + STR.skill]!]!,
      mcpServer: strs[strIdx[s + STR.mcpServer]!]!,
      mcpTool: strs[strIdx[s + STR.mcpTool]!]!,
      agentType: strs[strIdx[s + STR.agentType]!]!,
      effort: strs[strIdx[s + STR.effort]!]!,
    };
  }
}

/**
 * The dedup key of a response with both ids (decisions.md): global, whatever file or session holds a copy. The
 * index's other key forms (within a session, or a line of a file) need ids only the index has.
 */
export const responseKey = (messageId: string, requestId: string): string => `r${messageId} ${requestId}`;

/** The largest hkey: hkeys are 31-bit, so SQLite stores each in 4 bytes and the key dump and key index in an Int32Array. */
export const HKEY_MAX = 0x7fff_ffff;

/**
 * 31-bit hash of a dedup key (two 32-bit FNV-1a style lanes, mixed), the start of its hkey. Keys of one hash are
 * told apart by the index: the later one takes the next free hkey (`nextHkey`), at the cost of one row read when
 * stored (how many at 10 GiB: bench/RESULTS.md, stop 26). The worker hashes the keys of its rows (responseKey), so
 * the main thread's serial part does not.
 */
export function hashKey(key: string): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 16777619);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 13;
  }
  // murmur3's finalizer over both lanes: the key index takes a key's slot from the hash's high bits.
  let h = a ^ Math.imul(b, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 1;
}

/** The hkey after `hkey`, wrapping past HKEY_MAX: where a key goes when another key holds its hash. */
export const nextHkey = (hkey: number): number => (hkey === HKEY_MAX ? 0 : hkey + 1);

/** Builds a batch from decoded rows (the worker's encoder; tests use it to feed the index). */
export function encodeBatch(
  rows: readonly UsageRow[],
  init: Omit<UsageBatch, 'rows' | 'nums' | 'flags' | 'strIdx' | 'strTable'>,
): UsageBatch {
  const nums = new Float64Array(rows.length * NUM_COLS);
  const flags = new Uint8Array(rows.length);
  const strIdx = new Uint32Array(rows.length * STR_COLS);
  // '' first: most rows leave most of their names empty (no attribution, no agent, no tools), so it skips the map.
  const table: string[] = [''];
  const seen = new Map<string, number>();
  const intern = (s: string): number => {
    if (s === '') return 0;
    let i = seen.get(s);
    if (i === undefined) {
      i = table.length;
      table.push(s.includes('\0') ? s.replaceAll('\0', '') : s);
      seen.set(s, i);
    }
    return i;
  };
  rows.forEach((r, i) => {
    const n = i * NUM_COLS;
    nums[n + NUM.ts] = r.ts;
    nums[n + NUM.input] = r.input;
    nums[n + NUM.output] = r.output;
    nums[n + NUM.cacheCreate] = r.cacheCreate;
    nums[n + NUM.cacheRead] = r.cacheRead;
    nums[n + NUM.cache1h] = r.cache1h;
    nums[n + NUM.webSearch] = r.webSearch;
    nums[n + NUM.webFetch] = r.webFetch;
    nums[n + NUM.costUSD] = r.costUSD ?? Number.NaN;
    nums[n + NUM.offset] = r.offset;
    nums[n + NUM.hkey] = r.messageId && r.requestId ? hashKey(responseKey(r.messageId, r.requestId)) : Number.NaN;
    flags[i] = (r.fast ? FLAG.fast : 0) | (r.sidechain ? FLAG.sidechain : 0) | (r.geo ? FLAG.geo : 0) | (r.advisor ? FLAG.advisor : 0);
    const s = i * STR_COLS;
    strIdx[s + STR.messageId] = intern(r.messageId);
    strIdx[s + STR.requestId] = intern(r.requestId);
    strIdx[s + STR.sessionId] = intern(r.sessionId);
    strIdx[s + STR.model] = intern(r.model);
    strIdx[s + STR.agentId] = intern(r.agentId);
    strIdx[s + STR.tools] = intern(r.tools.join(','));
    strIdx[s + STR.branch] = intern(r.branch);
    strIdx[s + STR.entrypoint] = intern(r.entrypoint);
    strIdx[s + STR.skill] = intern(r.skill);
    strIdx[s + STR.mcpServer] = intern(r.mcpServer);
    strIdx[s + STR.mcpTool] = intern(r.mcpTool);
    strIdx[s + STR.agentType] = intern(r.agentType);
    strIdx[s + STR.effort] = intern(r.effort);
  });
  const strTable = rows.length ? new TextEncoder().encode(table.join('\0')) : new Uint8Array(0);
  return { ...init, rows: rows.length, nums, flags, strIdx, strTable };
}
