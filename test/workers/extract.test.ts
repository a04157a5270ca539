// One parsed line -> usage row / title / prompt, and the in-batch collapse of one response's copies.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LIMITS, collapseRows, extractProgressUsage, extractPrompt, extractTitle, extractUsage, parseIsoUtc } from '../../src/workers/extract.ts';
import type { UsageRow } from '../../src/workers/protocol.ts';
import { usageLine, userLine } from '../helpers/jsonl.ts';

const PROJECT = path.resolve(import.meta.dirname, '../../../shared/fixtures/transcripts/config/projects/-Users-randlee-Documents-github-claude-history');
const SUBAGENT = path.join(PROJECT, '967e501d-aa48-4eab-a21f-b17058bd78f0/subagents/agent-aae161c.jsonl');
// The main checkout's session whose Task subagent exists only as `progress` lines (worktrees PROVENANCE.md).
const PROGRESS = path.resolve(import.meta.dirname, '../../../shared/fixtures/transcripts/worktrees/projects/-home-marco-projects-spotter/subagent.jsonl');

/** Line n (1-based) of a fixture file, parsed. */
function fixtureLine(file: string, n: number): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[n - 1]!) as Record<string, unknown>;
}
const usageOf = (line: Record<string, unknown>) => (line.message as { usage: Record<string, unknown> }).usage;

/** The row of a line that must give one. */
function rowOf(line: Record<string, unknown>, offset: number): UsageRow {
  const row = extractUsage(line, offset);
  if (!row || row === 'outOfRange') throw new Error(`no row: ${String(row)}`);
  return row;
}

const Usage = suite('extractUsage');

Usage('every field of a real subagent line', () => {
  const row = extractUsage(fixtureLine(SUBAGENT, 3), 1234);
  assert.equal(row, {
    ts: Date.UTC(2026, 1, 2, 4, 53, 23, 892),
    input: 3,
    output: 4,
    cacheCreate: 8901,
    cacheRead: 0,
    cache1h: 0,
    webSearch: 0,
    costUSD: null,
    offset: 1234,
    fast: false,
    sidechain: true,
    messageId: 'msg_01XYF9Po72P31z39Cp18a4gS',
    requestId: 'req_011CXieJsKTqmAeTMEGBh8d2',
    sessionId: '967e501d-aa48-4eab-a21f-b17058bd78f0',
    model: 'claude-opus-4-5-20251101',
    agentId: 'aae161c',
    tools: ['Bash'],
    branch: 'develop',
    entrypoint: '', // the fixture's lines predate the field
    webFetch: 0,
    geo: false,
    advisor: false,
  });
});

Usage('costUSD, fast, web search and 1-hour cache writes', () => {
  const line = fixtureLine(SUBAGENT, 3);
  const usage = usageOf(line);
  line.costUSD = 0.125;
  usage.speed = 'fast';
  usage.server_tool_use = { web_search_requests: 2 };
  usage.cache_creation = { ephemeral_5m_input_tokens: 3901, ephemeral_1h_input_tokens: 5000 };
  const row = rowOf(line, 0);
  assert.is(row.costUSD, 0.125);
  assert.is(row.fast, true);
  assert.is(row.webSearch, 2);
  assert.is(row.cacheCreate, 8901);
  assert.is(row.cache1h, 5000);

  // Issue 32 rule 3 replaced the clamp of the 1-hour writes to the top-level count: the breakdown's sum wins when larger.
  usage.cache_creation = { ephemeral_1h_input_tokens: 99_999 };
  assert.equal([rowOf(line, 0).cacheCreate, rowOf(line, 0).cache1h], [99_999, 99_999], 'a larger breakdown is the cache writes');
  usage.speed = 'standard';
  assert.is(rowOf(line, 0).fast, false);
});

Usage('the line\'s top-level entrypoint, and the parent line\'s for usage nested in a progress line', () => {
  const line = fixtureLine(SUBAGENT, 3);
  line.entrypoint = 'sdk-ts';
  assert.is(rowOf(line, 0).entrypoint, 'sdk-ts');
  line.entrypoint = 42;
  assert.is(rowOf(line, 0).entrypoint, '', 'not a string: none');
  delete line.entrypoint;
  assert.is(rowOf(line, 0).entrypoint, '');
  const progress = fs.readFileSync(PROGRESS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.type === 'progress' && extractProgressUsage(l, 0) !== null)!;
  progress.entrypoint = 'claude-vscode';
  assert.is((extractProgressUsage(progress, 0) as UsageRow).entrypoint, 'claude-vscode');
});

Usage('cache writes from the 5m/1h split when the total is absent', () => {
  const line = fixtureLine(SUBAGENT, 3);
  const usage = usageOf(line);
  delete usage.cache_creation_input_tokens;
  usage.cache_creation = { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 40 };
  const row = rowOf(line, 0);
  assert.is(row.cacheCreate, 140);
  assert.is(row.cache1h, 40);
});

Usage('counts that are not numbers count as 0; strings default to empty', () => {
  const line = JSON.parse(
    '{"timestamp":"2026-01-01T00:00:00.000Z","costUSD":"1.5","message":{"content":"x","usage":' +
      '{"input_tokens":"12","output_tokens":false,"cache_read_input_tokens":"1e999","cache_creation_input_tokens":null,' +
      '"cache_creation":{"ephemeral_5m_input_tokens":true,"ephemeral_1h_input_tokens":7},"server_tool_use":{"web_search_requests":"3"}}}}',
  ) as Record<string, unknown>;
  assert.equal(extractUsage(line, 5), {
    ts: Date.UTC(2026, 0, 1),
    input: 0,
    output: 0,
    cacheCreate: 7,
    cacheRead: 0,
    cache1h: 7,
    webSearch: 0,
    costUSD: null,
    offset: 5,
    fast: false,
    sidechain: false,
    messageId: '',
    requestId: '',
    sessionId: '',
    model: '',
    agentId: '',
    tools: [],
    branch: '',
    entrypoint: '', // the fixture's lines predate the field
    webFetch: 0,
    geo: false,
    advisor: false,
  });
});

Usage('no row without message.usage object and a parseable timestamp', () => {
  const good = usageLine();
  assert.ok(extractUsage(good, 0));
  assert.is(extractUsage({ ...good, timestamp: undefined }, 0), null);
  assert.is(extractUsage({ ...good, timestamp: 'not a date' }, 0), null);
  assert.is(rowOf({ ...good, timestamp: Date.UTC(2026, 0, 1) }, 0).ts, Date.UTC(2026, 0, 1));
  assert.is(extractUsage({ ...good, message: { usage: [1] } }, 0), null);
  assert.is(extractUsage({ ...good, message: 'text' }, 0), null);
  assert.is(extractUsage({ timestamp: good.timestamp }, 0), null);
});

Usage('a count, cost or timestamp outside what a real request can be makes the line out of range', () => {
  const good = usageLine({ input: 7 });
  const withUsage = (patch: Record<string, unknown>) => {
    const line = usageLine({ input: 7 });
    Object.assign((line.message as { usage: Record<string, unknown> }).usage, patch);
    return line;
  };
  for (const bad of [5e18, 1e308, 2 ** 53, 1e30, -1, 1.5, LIMITS.tokens + 1]) {
    for (const key of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens']) {
      assert.is(extractUsage(withUsage({ [key]: bad }), 0), 'outOfRange', `${key}: ${bad}`);
    }
    assert.is(extractUsage(withUsage({ cache_creation_input_tokens: undefined, cache_creation: { ephemeral_1h_input_tokens: bad } }), 0), 'outOfRange');
  }
  assert.is(extractUsage(withUsage({ server_tool_use: { web_search_requests: 1e9 } }), 0), 'outOfRange');
  for (const cost of [1e308, 1e30, -0.01, LIMITS.costUSD + 1]) assert.is(extractUsage({ ...good, costUSD: cost }, 0), 'outOfRange', `costUSD ${cost}`);
  for (const ts of [1e20, -1, 0, Date.UTC(1999, 11, 31), Date.UTC(2200, 0, 1), '1970-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z']) {
    assert.is(extractUsage({ ...good, timestamp: ts }, 0), 'outOfRange', `timestamp ${ts}`);
  }
  // the largest values inside the bounds are kept as they are
  const edge = rowOf({ ...withUsage({ input_tokens: LIMITS.tokens }), costUSD: LIMITS.costUSD, timestamp: Date.UTC(2199, 11, 31) }, 0);
  assert.is(edge.input, LIMITS.tokens);
  assert.is(edge.costUSD, LIMITS.costUSD);
});

Usage('tool names: every tool_use item, nothing else', () => {
  const line = usageLine({ tools: ['Read', 'Edit'] });
  const content = (line.message as { content: unknown[] }).content;
  content.push({ type: 'text', text: 'tool_use' }, { type: 'tool_use' }, { type: 'tool_use', name: 7 }, null, 'Bash');
  assert.equal(rowOf(line, 0).tools, ['Read', 'Edit']);
});

Usage('the ISO fast path agrees with Date.parse', () => {
  for (const t of [
    '2026-02-02T04:53:23.892Z',
    '1999-12-31T23:59:59.999Z',
    '2024-02-29T12:00:00.000Z',
    '2026-01-02T03:04:05Z',
    '2026-01-02T03:04:05.678+02:00',
    '2026-13-02T03:04:05.678Z',
    '2026-01-02T03:04:0x.678Z',
    'garbage',
    '',
  ]) {
    assert.equal(parseIsoUtc(t), Date.parse(t), t);
  }
});

Usage('a date and time without a zone is UTC whatever the process TZ (issue 37)', () => {
  const tz = process.env.TZ;
  process.env.TZ = 'Asia/Kolkata'; // +05:30: a local reading would be 5.5 hours early
  try {
    assert.is(new Date(2026, 0, 2).getTimezoneOffset(), -330, 'the zone took effect');
    assert.is(parseIsoUtc('2026-01-02T03:04:05.678'), Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    assert.is(parseIsoUtc('2026-01-02T03:04:05'), Date.UTC(2026, 0, 2, 3, 4, 5));
    assert.is(parseIsoUtc('2026-01-02 03:04'), Date.UTC(2026, 0, 2, 3, 4));
    assert.is(parseIsoUtc('2026-01-02T03:04:05+02:00'), Date.UTC(2026, 0, 2, 1, 4, 5), 'a zone given is kept');
    assert.is(parseIsoUtc('2026-01-02'), Date.UTC(2026, 0, 2));
    assert.ok(Number.isNaN(parseIsoUtc('2026-01-02T25:04:05')));
    assert.is(rowOf(usageLine({ timestamp: '2026-01-02T03:04:05.678' }), 0).ts, Date.UTC(2026, 0, 2, 3, 4, 5, 678), 'a usage line\'s time');
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
});

Usage('usage nested in a real agent_progress line: the nested message, data.message\'s requestId and time', () => {
  const lines = fs.readFileSync(PROGRESS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const progress = lines.filter((l) => l.type === 'progress');
  const rows = progress.map((l, i) => extractProgressUsage(l, i)).filter((r): r is UsageRow => r !== null && r !== 'outOfRange');
  assert.is(rows.length, 9, 'the 9 progress lines that carry an assistant message with usage');
  assert.equal(rows[0], {
    ts: Date.UTC(2026, 1, 10, 21, 58, 17, 856), // data.message.timestamp, not the line's (…17.857Z)
    input: 2,
    output: 3,
    cacheCreate: 2398,
    cacheRead: 15584,
    cache1h: 2398,
    webSearch: 0,
    costUSD: null,
    offset: rows[0]!.offset,
    fast: false,
    sidechain: true,
    messageId: 'msg_0199s85GE5eqHtZm2Xpv7BsK',
    requestId: 'req_011CY18wFKcx4uxzHzUBxUC6',
    sessionId: '491e126e-1e71-469c-ade2-fcc8af567c74',
    model: 'claude-haiku-4-5-20251001',
    agentId: 'afb92ff',
    tools: rows[0]!.tools,
    branch: 'master', // the parent line's
    entrypoint: '', // the fixture's lines predate the field
    webFetch: 0,
    geo: false,
    advisor: false,
  });
  assert.is(new Set(rows.map((r) => `${r.messageId} ${r.requestId}`)).size, 5, 'five responses, streamed as several lines each');
  assert.is(extractUsage(progress[0]!, 0), null, 'a progress line has no usage of its own');
});

Usage('progress lines without a nested response give no row', () => {
  const nested = { type: 'assistant', requestId: 'req_p', timestamp: '2026-01-02T03:04:05.000Z', message: { id: 'msg_p', model: 'm', usage: { output_tokens: 4 } } };
  const line = (data: unknown, extra: Record<string, unknown> = {}) => ({ type: 'progress', sessionId: 's', timestamp: '2026-01-02T03:04:06.000Z', data, ...extra });
  const row = extractProgressUsage(line({ type: 'agent_progress', message: nested }, { parentToolUseID: 'toolu_9' }), 0) as UsageRow;
  assert.is(row.agentId, 'toolu_9', 'without data.agentId the Task call it belongs to names the subagent');
  assert.is(row.output, 4);
  assert.is(extractProgressUsage(line({ type: 'hook_progress', message: nested }), 0), null);
  assert.is(extractProgressUsage(line({ type: 'agent_progress', message: { ...nested, message: { id: 'x' } } }), 0), null);
  assert.is(extractProgressUsage(line({ type: 'agent_progress', message: { ...nested, timestamp: undefined } }), 0), null);
  assert.is(extractProgressUsage(line({ type: 'agent_progress', message: 'text' }), 0), null);
  assert.is(extractProgressUsage({ ...line({ type: 'agent_progress', message: nested }), type: 'assistant' }, 0), null);
});

Usage.run();

const Title = suite('extractTitle');
Title('custom and ai titles, with the title field as fallback', () => {
  assert.equal(extractTitle({ type: 'custom-title', customTitle: ' Mine ' }), { title: 'Mine', kind: 'custom' });
  assert.equal(extractTitle({ type: 'ai-title', aiTitle: 'Generated' }), { title: 'Generated', kind: 'ai' });
  assert.equal(extractTitle({ type: 'ai-title', title: 'Plain' }), { title: 'Plain', kind: 'ai' });
  assert.is(extractTitle({ type: 'custom-title', customTitle: 5 }), null);
  assert.is(extractTitle({ type: 'summary', summary: 'x' }), null);
});
Title.run();

const Prompt = suite('extractPrompt');

Prompt('string content and text blocks, trimmed', () => {
  assert.is(extractPrompt(userLine('  fix the build \n')), 'fix the build');
  assert.is(extractPrompt(userLine([{ type: 'text', text: 'look at' }, { type: 'image', source: {} }, { type: 'text', text: 'this' }])), 'look at\nthis');
});

Prompt('slash commands become "/name args"', () => {
  const cmd = (body: string) => extractPrompt(userLine(body));
  assert.is(cmd('<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>'), '/init');
  assert.is(cmd('<command-name>/model</command-name>\n  <command-message>model</command-message>\n  <command-args>haiku</command-args>'), '/model haiku');
  assert.is(cmd('<command-name>/context</command-name><command-args></command-args>'), '/context');
  assert.is(cmd('<command-name>review</command-name><command-args> pr 12 </command-args>'), '/review pr 12');
});

Prompt('not prompts: meta, tool results, command output, interruptions, compact summaries, empty', () => {
  assert.is(extractPrompt(userLine('Caveat', { isMeta: true })), null);
  assert.is(extractPrompt(userLine([{ type: 'tool_result', tool_use_id: 't', content: 'output' }])), null);
  assert.is(extractPrompt(userLine('<local-command-stdout>Bye!</local-command-stdout>')), null);
  assert.is(extractPrompt(userLine('[Request interrupted by user for tool use]')), null);
  assert.is(extractPrompt(userLine([{ type: 'text', text: '[Request interrupted by user]' }])), null);
  assert.is(extractPrompt(userLine('This session is being continued...', { isCompactSummary: true })), null);
  assert.is(extractPrompt(userLine('   ')), null);
  assert.is(extractPrompt(userLine(42)), null);
  assert.is(extractPrompt({ ...userLine('hi'), type: 'assistant' }), null);
});

Prompt('injected blocks are not the user\'s words; what follows them is', () => {
  const p = (content: unknown) => extractPrompt(userLine(content));
  const selection = '<ide_selection>The user selected the lines 508 to 508 from /src/app.ts:\nconst x = 1;\n\nThis may or may not be related to the current task.</ide_selection>';
  assert.is(p(selection), null, 'a real 2.x IDE selection alone');
  assert.is(p([{ type: 'text', text: selection }, { type: 'text', text: 'why is x one?' }]), 'why is x one?');
  assert.is(p('<ide_opened_file>The user opened the file /a.ts in the IDE.</ide_opened_file>\nrename it'), 'rename it');
  assert.is(p('fix the tests\n<system-reminder>Todo list is empty</system-reminder>'), 'fix the tests', 'a reminder anywhere');
  assert.is(p('<local-command-stderr>Error: no such command</local-command-stderr>'), null);
  assert.is(p('<bash-stdout>ok</bash-stdout><bash-stderr></bash-stderr>'), null);
  assert.is(p('<user-memory-input>remember this</user-memory-input>'), null, 'any other block that opens the message');
  assert.is(p('<custom attr="1">x</custom> then <b>this</b>'), 'then <b>this</b>', 'tags inside the words stay');
  assert.is(p('Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.'), null);
  assert.is(p('[Request interrupted by user]'), null);
});

Prompt('shell input becomes "! command"', () => {
  assert.is(extractPrompt(userLine('<bash-input>mix test --failed</bash-input>')), '! mix test --failed');
  assert.is(extractPrompt(userLine('<bash-input>  </bash-input>')), null);
});

Prompt('capped at 500 characters without splitting a surrogate pair', () => {
  assert.is(extractPrompt(userLine('a'.repeat(800)))!.length, 500);
  const emoji = `${'b'.repeat(499)}😀tail`;
  const p = extractPrompt(userLine(emoji))!;
  assert.is(p, 'b'.repeat(499));
});

Prompt('real fixture lines', () => {
  const main = path.join(PROJECT, '967e501d-aa48-4eab-a21f-b17058bd78f0.jsonl');
  const lines = fs.readFileSync(main, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const prompts = lines.map((l) => extractPrompt(l)).filter((p) => p !== null);
  assert.ok(prompts[0]!.startsWith('read claude.md and docs/project-plan'));
  assert.ok(prompts.includes('/model haiku'));
  assert.ok(prompts.includes('/exit'));
  assert.not.ok(prompts.some((p) => p.includes('local-command-stdout') || p.startsWith('Caveat')));
});
Prompt.run();

const Collapse = suite('collapseRows');
const row = (o: Partial<UsageRow>): UsageRow => ({
  ts: 0, input: 1, output: 1, cacheCreate: 0, cacheRead: 0, cache1h: 0, webSearch: 0, webFetch: 0, costUSD: null, offset: 0,
  fast: false, sidechain: false, geo: false, advisor: false, messageId: '', requestId: '', sessionId: 's', model: 'm', agentId: '', tools: [], branch: '', entrypoint: '', ...o,
});

Collapse('copies of one response keep the most output tokens and all tool names', () => {
  const out = collapseRows([
    row({ messageId: 'a', requestId: 'r', output: 5, offset: 0, tools: ['Read'] }),
    row({ messageId: 'b', requestId: 'q', output: 1, offset: 10 }),
    row({ messageId: 'a', requestId: 'r', output: 9, offset: 20, tools: ['Bash', 'Read'] }),
    row({ messageId: 'a', requestId: 'r', output: 9, offset: 30, tools: ['Edit'] }),
  ]);
  assert.is(out.length, 2);
  assert.is(out[0]!.offset, 20, 'the copy with most output wins, the first on a tie');
  assert.is(out[0]!.output, 9);
  assert.equal(out[0]!.tools, ['Read', 'Bash', 'Edit']);
  assert.is(out[1]!.messageId, 'b');
});

Collapse('same messageId with another requestId is another response', () => {
  const out = collapseRows([row({ messageId: 'a', requestId: 'r1' }), row({ messageId: 'a', requestId: 'r2' })]);
  assert.is(out.length, 2);
});

Collapse('messageId without requestId collapses within one session only', () => {
  const out = collapseRows([
    row({ messageId: 'a', sessionId: 's1', output: 2 }),
    row({ messageId: 'a', sessionId: 's1', output: 3 }),
    row({ messageId: 'a', sessionId: 's2', output: 4 }),
    row({ messageId: 'a', requestId: 'r', sessionId: 's1', output: 5 }),
  ]);
  assert.equal(out.map((r) => [r.sessionId, r.output]), [['s1', 3], ['s2', 4], ['s1', 5]]);
});

Collapse('rows without ids are each kept', () => {
  assert.is(collapseRows([row({ requestId: 'r' }), row({ requestId: 'r' }), row({})]).length, 3);
});

Collapse('real split lines of one response (two Bash calls) become one row', () => {
  const a = rowOf(fixtureLine(SUBAGENT, 3), 3);
  const b = rowOf(fixtureLine(SUBAGENT, 7), 7);
  const out = collapseRows([a, b]);
  assert.is(out.length, 1);
  assert.is(out[0]!.offset, 3);
  assert.equal(out[0]!.tools, ['Bash']);
});
Collapse.run();
