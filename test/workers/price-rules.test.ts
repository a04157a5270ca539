// What the parser keeps for issue 32's price rules: US-only inference, cache writes from the breakdown, web fetches,
// and each advisor iteration of a response as a row of its own (also for usage nested in a progress line), through
// the worker's own scan and encoding.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { collapseRows, extractProgressRows, extractUsageRows, LIMITS } from '../../src/workers/extract.ts';
import { scanRange } from '../../src/workers/jsonl.ts';
import { encodeBatch, rowsOf, type UsageRow } from '../../src/workers/protocol.ts';
import { jsonlText, usageLine } from '../helpers/jsonl.ts';

type Rec = Record<string, unknown>;
const usageOf = (line: Rec) => (line.message as { usage: Rec }).usage;

function rowsOfLine(line: Rec, offset = 0): UsageRow[] {
  const rows = extractUsageRows(line, offset);
  if (!rows || rows === 'outOfRange') throw new Error(`no rows: ${String(rows)}`);
  return rows;
}

/** An advisor iteration as Claude Code writes it in `usage.iterations`. */
const advisor = (o: Rec = {}): Rec => ({
  type: 'advisor_message', model: 'claude-opus-4-8', input_tokens: 1200, output_tokens: 300,
  cache_creation_input_tokens: 0, cache_read_input_tokens: 5000, ...o,
});

const Rules = suite('price rules in the parser');

Rules('inference_geo "us" is US-only inference; any other value is not', () => {
  const line = usageLine();
  for (const [geo, want] of [['us', true], ['', false], ['not_available', false], ['global', false], [null, false], ['US', false]] as const) {
    usageOf(line).inference_geo = geo;
    assert.is(rowsOfLine(line)[0]!.geo, want, String(geo));
  }
  delete usageOf(line).inference_geo;
  assert.is(rowsOfLine(line)[0]!.geo, false, 'absent');
});

Rules('cache writes are the larger of the top-level count and the 5m + 1h breakdown', () => {
  const line = usageLine({ cacheCreate: 500, cache1h: 100 });
  assert.equal(pick(rowsOfLine(line)[0]!), [500, 100], 'they agree');
  const usage = usageOf(line);
  usage.cache_creation_input_tokens = 0;
  usage.cache_creation = { ephemeral_5m_input_tokens: 700, ephemeral_1h_input_tokens: 300 };
  assert.equal(pick(rowsOfLine(line)[0]!), [1000, 300], 'a 0 top-level beside the real breakdown (before 2.1.152)');
  usage.cache_creation_input_tokens = null;
  assert.equal(pick(rowsOfLine(line)[0]!), [1000, 300], 'no top-level count');
  usage.cache_creation_input_tokens = 1200;
  assert.equal(pick(rowsOfLine(line)[0]!), [1200, 300], 'a larger top-level count');
  delete usage.cache_creation;
  assert.equal(pick(rowsOfLine(line)[0]!), [1200, 0], 'no breakdown');
});
const pick = (r: UsageRow): number[] => [r.cacheCreate, r.cache1h];

Rules('the served model without a bracketed suffix, for the entry and its advisor rows', () => {
  const line = usageLine({ model: 'claude-opus-4-6[1m]' });
  usageOf(line).iterations = [advisor({ model: 'claude-fable-5-2 [1m]' }), advisor({ model: undefined })];
  assert.equal(rowsOfLine(line).map((r) => r.model), ['claude-opus-4-6', 'claude-fable-5-2', 'claude-opus-4-6']);
});

Rules('web fetch requests are counted, within LIMITS', () => {
  const line = usageLine();
  usageOf(line).server_tool_use = { web_search_requests: 1, web_fetch_requests: 4 };
  const [row] = rowsOfLine(line);
  assert.equal([row!.webSearch, row!.webFetch], [1, 4]);
  (usageOf(line).server_tool_use as Rec).web_fetch_requests = LIMITS.webFetches + 1;
  assert.is(extractUsageRows(line, 0), 'outOfRange');
  (usageOf(line).server_tool_use as Rec).web_fetch_requests = 2.5;
  assert.is(extractUsageRows(line, 0), 'outOfRange');
});

Rules('each advisor iteration is a row of its own model, tokens and id; other iterations add nothing', () => {
  const line = usageLine({ model: 'claude-fable-5-2', messageId: 'msg_01A', requestId: 'req_011CB', input: 10, output: 20,
    tools: ['Bash'], extra: { agentId: 'a1', isSidechain: true, gitBranch: 'main', entrypoint: 'cli' } });
  const usage = usageOf(line);
  usage.inference_geo = 'us';
  usage.speed = 'fast';
  usage.iterations = [
    { type: 'message', input_tokens: 10, output_tokens: 20 },
    advisor({ cache_creation: { ephemeral_5m_input_tokens: 40, ephemeral_1h_input_tokens: 60 }, server_tool_use: { web_search_requests: 2 } }),
    'not an object',
    advisor({ model: undefined, output_tokens: 7, speed: 'fast' }),
  ];
  line.costUSD = 0.5;
  const rows = rowsOfLine(line, 1000);
  assert.is(rows.length, 3);
  const [top, a0, a1] = rows as [UsageRow, UsageRow, UsageRow];
  assert.equal([top.input, top.output, top.advisor, top.costUSD, top.offset], [10, 20, false, 0.5, 1000], 'the top-level row is as before');
  assert.equal(a0, {
    ...top,
    input: 1200, output: 300, cacheCreate: 100, cacheRead: 5000, cache1h: 60, webSearch: 2, webFetch: 0,
    costUSD: null, offset: 1001, fast: false, advisor: true, messageId: 'msg_01A:advisor:0', model: 'claude-opus-4-8', tools: [],
  });
  assert.equal([a0.geo, a0.sessionId, a0.agentId, a0.sidechain, a0.branch, a0.entrypoint, a0.requestId, a0.ts],
    [true, 'sess-1', 'a1', true, 'main', 'cli', 'req_011CB', top.ts], 'the entry\'s geo, session, agent, branch, time and request');
  assert.equal([a1.model, a1.output, a1.fast, a1.messageId, a1.offset], ['claude-fable-5-2', 7, true, 'msg_01A:advisor:1', 1002],
    'no model of its own: the entry\'s; fast only when the iteration says so');
});

Rules('a response without a message id gives advisor rows without one; a bad iteration count is out of range', () => {
  const line = usageLine();
  delete (line.message as Rec).id;
  usageOf(line).iterations = [advisor(), advisor()];
  const rows = rowsOfLine(line, 50);
  assert.equal(rows.map((r) => [r.messageId, r.offset]), [['', 50], ['', 51], ['', 52]]);
  assert.is(collapseRows(rows).length, 3, 'each counts, as the entry does');
  usageOf(line).iterations = [advisor({ output_tokens: -1 })];
  assert.is(extractUsageRows(line, 0), 'outOfRange');
  usageOf(line).iterations = Array.from({ length: LIMITS.advisors + 1 }, () => advisor());
  assert.is(extractUsageRows(line, 0), 'outOfRange');
});

Rules('copies of a response keep one copy of each advisor part, the one with the most output tokens', () => {
  const copy = (output: number, advisorOutput: number, offset: number): UsageRow[] => {
    const line = usageLine({ messageId: 'msg_01A', requestId: 'req_1', output });
    usageOf(line).iterations = [advisor({ output_tokens: advisorOutput })];
    return rowsOfLine(line, offset);
  };
  const kept = collapseRows([...copy(5, 300, 0), ...copy(40, 2, 100)]);
  assert.equal(kept.map((r) => [r.messageId, r.output]), [['msg_01A', 40], ['msg_01A:advisor:0', 300]]);
});

Rules('usage nested in a progress line gives its advisor rows as subagent rows', () => {
  const nested = usageLine({ messageId: 'msg_01N', model: 'claude-sonnet-4-6' });
  usageOf(nested).iterations = [advisor()];
  const line: Rec = {
    type: 'progress', sessionId: 'sess-1', parentToolUseID: 'toolu_9',
    data: { type: 'agent_progress', agentId: 'sub7', message: { timestamp: nested.timestamp, requestId: 'req_N', message: nested.message } },
  };
  const rows = extractProgressRows(line, 10);
  assert.ok(Array.isArray(rows));
  assert.equal((rows as UsageRow[]).map((r) => [r.messageId, r.model, r.agentId, r.sidechain, r.advisor, r.requestId]), [
    ['msg_01N', 'claude-sonnet-4-6', 'sub7', true, false, 'req_N'],
    ['msg_01N:advisor:0', 'claude-opus-4-8', 'sub7', true, true, 'req_N'],
  ]);
});

Rules('the scan and the batch carry every row and the new fields', () => {
  const line = usageLine({ messageId: 'msg_01S' });
  const usage = usageOf(line);
  usage.inference_geo = 'us';
  usage.server_tool_use = { web_fetch_requests: 3 };
  usage.iterations = [advisor()];
  const bytes = Buffer.from(jsonlText([line, line]));
  const readAt = (buf: Buffer, at: number, len: number, pos: number): number => bytes.copy(buf, at, pos, Math.min(pos + len, bytes.length));
  const scan = scanRange(readAt, 0, bytes.length, { wantPrompt: false, maxLine: 1 << 20, buf: Buffer.alloc(1 << 21) });
  assert.is(scan.stats.usageLines, 2, 'lines, not rows');
  assert.is(scan.rows.length, 4);
  const batch = encodeBatch(collapseRows(scan.rows), { path: '/x.jsonl', from: 0, consumedTo: bytes.length, head: '', meta: {}, stats: scan.stats });
  const back = [...rowsOf(batch)];
  assert.equal(back.map((r) => [r.messageId, r.geo, r.advisor, r.webFetch]), [['msg_01S', true, false, 3], ['msg_01S:advisor:0', true, true, 0]]);
});

Rules.run();
