// Pure: one parsed transcript line -> the facts we index. Never throws on any JSON value.
import { servedModel } from '../shared/model-name.ts';
import type { UsageRow } from './protocol.ts';

type Rec = Record<string, unknown>;

export function isRecord(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Bounds of what one real API request can carry. A number outside them is not usage but damage or an attack: summed
 * into SQLite integers it overflows (5e18), turns totals into null (1e308) or adds absurd costs (2^53 tokens), and
 * the index keeps history for good. Such a line is skipped and counted as out of range, never clamped.
 */
export const LIMITS = {
  /** Tokens of one kind in one request: ~500x today's largest context window. */
  tokens: 500_000_000,
  /** Web searches in one request. */
  webSearches: 100_000,
  /** Web fetches in one request. */
  webFetches: 100_000,
  /** Advisor iterations of one response (each becomes a row of its own). */
  advisors: 1_000,
  /** A line's own costUSD, in dollars. */
  costUSD: 10_000,
  /** Timestamps from 2000-01-01 to 2200-01-01 (UTC, epoch ms). */
  minTs: Date.UTC(2000, 0, 1),
  maxTs: Date.UTC(2200, 0, 1),
} as const;

/** Marks a count outside LIMITS while a row is read (thrown and caught within extractUsageRows only). */
class OutOfRange extends Error {}

/** A count: absent or not a number is 0 (older lines lack fields); a number must be a whole count within `max`. */
function count(v: unknown, max: number = LIMITS.tokens): number {
  if (typeof v !== 'number') return 0;
  if (!Number.isInteger(v) || v < 0 || v > max) throw new OutOfRange();
  return v;
}

/** Epoch ms of a line's timestamp (ISO string or epoch number), or NaN. */
export function timestampOf(line: Rec): number {
  const t = line.timestamp;
  if (typeof t === 'string') return parseIsoUtc(t);
  return typeof t === 'number' && Number.isFinite(t) ? t : Number.NaN;
}

/**
 * Date.parse, with a fast path for the agent's own `YYYY-MM-DDTHH:MM:SS.mmmZ` (one per usage line: it adds up). A
 * date and time with no zone is UTC, as Claude Code writes UTC: Date.parse would read it in the process's zone, so an
 * entry's instant would follow the server's TZ.
 */
export function parseIsoUtc(t: string): number {
  if (t.length !== 24 || t.charCodeAt(23) !== 0x5a /* Z */ || t.charCodeAt(10) !== 0x54 /* T */) return parseOther(t);
  const year = digits(t, 0, 4);
  const month = digits(t, 5, 2);
  const day = digits(t, 8, 2);
  const hour = digits(t, 11, 2);
  const min = digits(t, 14, 2);
  const sec = digits(t, 17, 2);
  const ms = digits(t, 20, 3);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || min < 0 || min > 59 || sec < 0 || sec > 59 || ms < 0) {
    return parseOther(t);
  }
  return Date.UTC(year, month - 1, day, hour, min, sec, ms);
}

/** An ISO date and time without a zone designator (`T` or a space between them, seconds and fraction optional). */
const NO_ZONE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)$/;

function parseOther(t: string): number {
  const m = NO_ZONE.exec(t);
  return Date.parse(m ? `${m[1]}T${m[2]}Z` : t);
}

/** The decimal number of t[at, at + n), or -1 when a character is not a digit. */
function digits(t: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = t.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** True when the line carries a usage entry at all (good or bad shape). */
export function hasUsage(line: Rec): boolean {
  return isRecord(line.message) && line.message.usage !== undefined;
}

/**
 * The rows of a line: its usage row, then one row per advisor iteration (advisorRows); null when it has no usable
 * `message.usage` + timestamp (malformed); 'outOfRange' when a count, cost or timestamp is outside LIMITS.
 */
export function extractUsageRows(line: Rec, offset: number): UsageRow[] | 'outOfRange' | null {
  try {
    const row = readUsage(line, offset);
    if (!row) return null;
    const advisors = advisorRows(row, (line.message as Rec).usage as Rec);
    return advisors ? [row, ...advisors] : [row];
  } catch (err) {
    if (err instanceof OutOfRange) return 'outOfRange';
    throw err;
  }
}

/** The line's own usage row of extractUsageRows (its advisor rows left out). */
export function extractUsage(line: Rec, offset: number): UsageRow | 'outOfRange' | null {
  const rows = extractUsageRows(line, offset);
  return rows === null || rows === 'outOfRange' ? rows : rows[0]!;
}

function readUsage(line: Rec, offset: number): UsageRow | null {
  const message = line.message;
  if (!isRecord(message)) return null;
  const usage = message.usage;
  if (!isRecord(usage)) return null;
  const ts = timestampOf(line);
  if (Number.isNaN(ts)) return null;
  if (ts < LIMITS.minTs || ts >= LIMITS.maxTs) throw new OutOfRange();
  const cost = line.costUSD;
  if (typeof cost === 'number' && !(cost >= 0 && cost <= LIMITS.costUSD)) throw new OutOfRange();

  const row = newRow(ts, offset);
  setCounts(row, usage);
  row.costUSD = typeof cost === 'number' ? cost : null;
  row.fast = usage.speed === 'fast';
  row.sidechain = line.isSidechain === true;
  row.geo = usage.inference_geo === 'us';
  row.messageId = str(message.id);
  row.requestId = str(line.requestId);
  row.sessionId = str(line.sessionId);
  row.model = servedModel(str(message.model));
  row.agentId = str(line.agentId);
  row.tools = toolNames(message.content);
  row.branch = str(line.gitBranch);
  row.entrypoint = str(line.entrypoint);
  setCauses(row, line);
  return row;
}

/**
 * A row with every field in UsageRow's order, set afterwards. Every row of a worker is made here, so they all share one
 * object shape: rows built by spreading partial objects took several shapes, which made each later read of a field
 * (the batch encoder, the in-batch dedup) slower; bench/RESULTS.md "Issue 32" measured it on the cold index.
 */
function newRow(ts: number, offset: number): UsageRow {
  return {
    input: 0, output: 0, cacheCreate: 0, cacheRead: 0, cache1h: 0, webSearch: 0, webFetch: 0,
    ts, costUSD: null, offset, fast: false, sidechain: false, geo: false, advisor: false,
    messageId: '', requestId: '', sessionId: '', model: '', agentId: '', tools: [], branch: '', entrypoint: '',
    skill: '', mcpServer: '', mcpTool: '', agentType: '', effort: '',
  };
}

/** Longest attribution name kept (a skill, MCP server or tool, agent type); a longer one is cut. */
export const CAUSE_NAME_MAX = 200;
/** Longest effort kept: levels are short words (`low` … `xhigh`, `ultracode`); a longer string is not one. */
export const EFFORT_MAX = 32;

/**
 * What caused an assistant line's usage, as Claude Code attributes it (its top-level `attributionSkill`,
 * `attributionMcpServer` with `attributionMcpTool`, `attributionAgent`) and the line's `effort`: '' for none ("direct").
 * Names are free text of the user's own skills and servers, so only their length is bounded.
 */
function setCauses(row: UsageRow, line: Rec): void {
  row.skill = causeName(line.attributionSkill);
  row.mcpServer = causeName(line.attributionMcpServer);
  row.mcpTool = causeName(line.attributionMcpTool);
  row.agentType = causeName(line.attributionAgent);
  const effort = line.effort === undefined ? '' : str(line.effort).trim();
  row.effort = effort.length <= EFFORT_MAX ? effort : '';
}

function causeName(v: unknown): string {
  if (v === undefined) return ''; // most lines: no attribution at all
  const name = str(v).trim();
  if (name.length <= CAUSE_NAME_MAX) return name;
  const cut = name.slice(0, CAUSE_NAME_MAX);
  // do not leave half of a surrogate pair at the end
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/**
 * The counts of a usage object (a line's, or one of its advisor iterations), set on its row. Cache writes are the
 * larger of the top-level count and the 5m + 1h breakdown: before 2.1.152 Claude Code could write a top-level 0 beside
 * the real breakdown, and older lines have no top-level count at all.
 */
function setCounts(row: UsageRow, usage: Rec): void {
  const split = isRecord(usage.cache_creation) ? usage.cache_creation : null;
  const breakdown = split ? count(split.ephemeral_5m_input_tokens) + count(split.ephemeral_1h_input_tokens) : 0;
  const server = isRecord(usage.server_tool_use) ? usage.server_tool_use : null;
  row.input = count(usage.input_tokens);
  row.output = count(usage.output_tokens);
  row.cacheCreate = Math.max(count(usage.cache_creation_input_tokens), breakdown);
  row.cacheRead = count(usage.cache_read_input_tokens);
  row.cache1h = split ? count(split.ephemeral_1h_input_tokens) : 0; // within cacheCreate, which is at least the breakdown
  row.webSearch = server ? count(server.web_search_requests, LIMITS.webSearches) : 0;
  row.webFetch = server ? count(server.web_fetch_requests, LIMITS.webFetches) : 0;
}

/**
 * One row per advisor iteration of a response (`usage.iterations[]` of type `advisor_message`): usage on top of the
 * top-level counts, priced under the iteration's own model (the response's when it names none), fast only when the
 * iteration says so, with the response's time, session, agent, geo and ids. Its message id is the response's with
 * `:advisor:<n>` (n counts the advisor iterations), so the dedup keeps one copy of each part of a response; a response
 * without a message id gives rows without one, which each count, as the response does. Its offset is a byte inside the
 * line (the line's + 1 + n: a line is longer than its iterations), so a line's rows keep distinct file-and-offset keys.
 * Null when the response has none (most have no `iterations`).
 */
function advisorRows(row: UsageRow, usage: Rec): UsageRow[] | null {
  const iterations = usage.iterations;
  if (!Array.isArray(iterations)) return null;
  let out: UsageRow[] | null = null;
  for (const it of iterations) {
    if (!isRecord(it) || it.type !== 'advisor_message') continue;
    out ??= [];
    if (out.length >= LIMITS.advisors) throw new OutOfRange();
    const n = out.length;
    const a = newRow(row.ts, row.offset + 1 + n);
    setCounts(a, it);
    a.fast = it.speed === 'fast';
    a.sidechain = row.sidechain;
    a.geo = row.geo;
    a.advisor = true;
    a.messageId = row.messageId && `${row.messageId}:advisor:${n}`;
    a.requestId = row.requestId;
    a.sessionId = row.sessionId;
    a.model = servedModel(str(it.model)) || row.model;
    a.agentId = row.agentId;
    a.branch = row.branch;
    a.entrypoint = row.entrypoint;
    copyCauses(a, row);
    out.push(a);
  }
  return out;
}

function copyCauses(to: UsageRow, from: UsageRow): void {
  to.skill = from.skill;
  to.mcpServer = from.mcpServer;
  to.mcpTool = from.mcpTool;
  to.agentType = from.agentType;
  to.effort = from.effort;
}

/**
 * The usage row of a Task subagent's response that Claude Code streamed into its parent as a `progress` line
 * (`data.type: agent_progress`), or null. Id, model and usage are the nested message's; requestId and time are
 * `data.message`'s, the branch the line's; the row is the subagent's (data.agentId, else the Task call's id, else
 * 'progress'), so the global dedup meets the copy in the subagent's own file when there is one.
 */
export function extractProgressUsage(line: Rec, offset: number): UsageRow | 'outOfRange' | null {
  const rows = extractProgressRows(line, offset);
  return rows === null || rows === 'outOfRange' ? rows : rows[0]!;
}

/** The same, with the nested response's advisor rows after its own (extractUsageRows). */
export function extractProgressRows(line: Rec, offset: number): UsageRow[] | 'outOfRange' | null {
  if (line.type !== 'progress' || !isRecord(line.data) || line.data.type !== 'agent_progress') return null;
  const data = line.data;
  const outer = data.message;
  if (!isRecord(outer) || !isRecord(outer.message) || !isRecord(outer.message.usage)) return null;
  const nested = { timestamp: outer.timestamp, requestId: outer.requestId, sessionId: line.sessionId, gitBranch: line.gitBranch, entrypoint: line.entrypoint,
    message: outer.message };
  const rows = extractUsageRows(nested, offset);
  if (!rows || rows === 'outOfRange') return rows;
  const agentId = str(data.agentId) || str(line.parentToolUseID) || 'progress';
  for (const row of rows) {
    setCauses(row, line); // the progress line's attribution, not the nested message's
    row.sidechain = true;
    row.agentId = agentId;
  }
  return rows;
}

function toolNames(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  const names: string[] = [];
  for (const item of content) {
    // ',' joins the names in the batch's string table, so it cannot be part of one
    if (isRecord(item) && item.type === 'tool_use' && typeof item.name === 'string' && item.name && !item.name.includes(',')) {
      names.push(item.name);
    }
  }
  return names;
}

/** Title of a `custom-title` / `ai-title` line, or null. */
export function extractTitle(line: Rec): { title: string; kind: 'custom' | 'ai' } | null {
  const kind = line.type === 'custom-title' ? 'custom' : line.type === 'ai-title' ? 'ai' : null;
  if (!kind) return null;
  const title = str(kind === 'custom' ? line.customTitle : line.aiTitle) || str(line.title);
  const trimmed = title.trim();
  return trimmed ? { title: trimmed, kind } : null;
}

export const PROMPT_MAX_CHARS = 500;
/** Blocks Claude Code injects into user messages wherever they stand (decisions.md, "Session title, refined"). */
const INJECTED = /<(ide_selection|ide_opened_file|system-reminder|local-command-stdout|local-command-stderr|local-command-caveat|bash-stdout|bash-stderr|task-notification)\b[^>]*>[\s\S]*?<\/\1>/g;
/** Any other `<tag>…</tag>` block at the start of the message. */
const OPENING_BLOCK = /^<([A-Za-z][\w-]*)\b[^>]*>[\s\S]*?<\/\1>\s*/;
/** The preamble older versions wrote before replaying local commands, up to its end of line. */
const CAVEAT = /^Caveat: The messages below were generated by the user while running local commands[^\n]*\s*/;

/**
 * The words the user typed in a user line, or null when it holds none: "/name args" for a slash command, "! command"
 * for shell input; injected blocks, the local-command caveat, tool results and interruptions are not the user's.
 */
export function extractPrompt(line: Rec): string | null {
  if (line.type !== 'user' || line.isMeta === true || line.isCompactSummary === true) return null;
  const message = line.message;
  if (!isRecord(message)) return null;
  const text = promptText(message.content).trim();
  if (!text) return null;

  const command = /<command-name>([^<]*)<\/command-name>/.exec(text);
  if (command) {
    const name = command[1]!.trim();
    if (!name) return null;
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? '';
    return cap(`${name.startsWith('/') ? name : `/${name}`}${args ? ` ${args}` : ''}`);
  }
  const bash = /<bash-input>([\s\S]*?)<\/bash-input>/.exec(text)?.[1]?.trim();
  if (bash) return cap(`! ${bash}`);

  let words = text.replace(INJECTED, '').trim().replace(CAVEAT, '');
  for (let m = OPENING_BLOCK.exec(words); m; m = OPENING_BLOCK.exec(words)) words = words.slice(m[0].length);
  words = words.trim();
  if (!words || words.startsWith('[Request interrupted')) return null;
  return cap(words);
}

/** A string content, or the text blocks of an array content (tool results and images hold no prompt). */
function promptText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const item of content) {
    if (isRecord(item) && item.type === 'text' && typeof item.text === 'string') parts.push(item.text);
  }
  return parts.join('\n');
}

function cap(s: string): string {
  if (s.length <= PROMPT_MAX_CHARS) return s;
  const cut = s.slice(0, PROMPT_MAX_CHARS);
  // do not leave half of a surrogate pair at the end
  const last = cut.charCodeAt(cut.length - 1);
  return (last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut).trimEnd();
}

/**
 * Collapses the rows of one batch that are copies of one API response: same (messageId, requestId), or the same
 * messageId within the same session when there is no requestId. Keeps the copy with the most output tokens (the
 * first on a tie), in the place of the first copy, with the union of all copies' tool names.
 */
export function collapseRows(rows: UsageRow[]): UsageRow[] {
  const out: UsageRow[] = [];
  const byMessage = new Map<string, number[]>(); // messageId -> indexes in `out` (almost always one)
  for (const row of rows) {
    if (!row.messageId) {
      out.push(row);
      continue;
    }
    const seen = byMessage.get(row.messageId);
    const i = seen?.find((k) => sameResponse(out[k]!, row));
    if (i === undefined) {
      if (seen) seen.push(out.length);
      else byMessage.set(row.messageId, [out.length]);
      out.push(row);
      continue;
    }
    const kept = out[i]!;
    const tools = unionTools(kept.tools, row.tools);
    if (row.output > kept.output) out[i] = { ...row, tools };
    else kept.tools = tools;
  }
  return out;
}

/** Same messageId is given; then the same requestId, or no requestId on either and the same session. */
function sameResponse(a: UsageRow, b: UsageRow): boolean {
  return a.requestId === b.requestId && (a.requestId !== '' || a.sessionId === b.sessionId);
}

function unionTools(a: string[], b: string[]): string[] {
  if (!b.length) return a;
  if (!a.length) return b;
  const all = [...a];
  for (const t of b) if (!all.includes(t)) all.push(t);
  return all;
}
