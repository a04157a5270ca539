// The byte scanner and the worker's file reading: line splitting, chunk boundaries, giant and bad lines.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { scanRange } from '../../src/workers/jsonl.ts';
import type { ReadAt } from '../../src/workers/jsonl.ts';
import { readTranscript } from '../../src/workers/parse-transcript.ts';
import { HEAD_BYTES, MAX_LINE_BYTES, rowsOf } from '../../src/workers/protocol.ts';
import { appendJsonl, jsonlText, tempDir, titleLine, toolResultLine, usageLine, userLine, writeJsonl } from '../helpers/jsonl.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures/transcripts/config/projects');
const SMALL_FIXTURE = path.join(FIXTURES, 'sample-project/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl');

const memReader =
  (data: Buffer): ReadAt =>
  (buf, at, len, pos) =>
    pos >= data.length ? 0 : data.copy(buf, at, pos, Math.min(pos + len, data.length));

function scanMem(data: Buffer, opts: { chunk: number; maxLine: number; wantPrompt?: boolean; from?: number }) {
  const buf = Buffer.alloc(opts.maxLine + opts.chunk);
  return scanRange(memReader(data), opts.from ?? 0, data.length, { wantPrompt: opts.wantPrompt ?? false, maxLine: opts.maxLine, buf });
}

const read = (file: string, from = 0, wantPrompt = false) =>
  readTranscript({ path: file, from, to: fs.statSync(file).size, wantPrompt });

let tmp: ReturnType<typeof tempDir>;
const Scan = suite('scanner');
Scan.before(() => {
  tmp = tempDir('cost-jsonl-');
});
Scan.after(() => tmp.cleanup());

Scan('a half-written last line is left for the next task, then consumed once complete', () => {
  const file = path.join(tmp.dir, 'partial.jsonl');
  const first = [usageLine({ messageId: 'm1', output: 5 }), usageLine({ messageId: 'm2', output: 7 })];
  const third = JSON.stringify(usageLine({ messageId: 'm3', output: 11 }));
  writeJsonl(file, first);
  const complete = fs.statSync(file).size;
  fs.appendFileSync(file, third.slice(0, 100));

  const a = read(file);
  assert.is(a.rows, 2);
  assert.is(a.consumedTo, complete);
  assert.is(a.stats.lines, 2);

  fs.appendFileSync(file, `${third.slice(100)}\n`);
  const b = read(file, a.consumedTo);
  assert.is(b.rows, 1);
  assert.is(b.consumedTo, fs.statSync(file).size);
  const [row] = [...rowsOf(b)];
  assert.is(row!.messageId, 'm3');
  assert.is(row!.output, 11);
  assert.is(row!.offset, complete, 'offset is the byte position of the line in the file');
  assert.is(b.head, '', 'no head fingerprint for a range that does not start at 0');
});

Scan('CRLF line ends and blank lines', () => {
  const file = path.join(tmp.dir, 'crlf.jsonl');
  const text = jsonlText([usageLine({ messageId: 'a' }), '', '   ', '\t', usageLine({ messageId: 'b' }), usageLine({ messageId: 'c' })], { eol: '\r\n' });
  fs.writeFileSync(file, text);
  const b = read(file);
  assert.is(b.rows, 3);
  assert.equal([...rowsOf(b)].map((r) => r.messageId), ['a', 'b', 'c']);
  assert.is(b.stats.blank, 3);
  assert.is(b.stats.lines, 6);
  assert.is(b.stats.malformed, 0);
  assert.is(b.consumedTo, Buffer.byteLength(text));
  const offsets = [...rowsOf(b)].map((r) => r.offset);
  for (const o of offsets) assert.is(text[o], '{', 'each offset points at the start of its line');
});

Scan('every chunk size gives the same result (lines crossing chunk boundaries)', () => {
  const data = fs.readFileSync(SMALL_FIXTURE);
  const longest = Math.max(...data.toString().split('\n').map((l) => Buffer.byteLength(l)));
  const maxLine = longest + 1;
  const whole = scanMem(data, { chunk: data.length, maxLine, wantPrompt: true });
  assert.ok(whole.rows.length > 10);
  assert.is(whole.consumedTo, data.length);
  for (const chunk of [1, 7, 100, 1000, 4093]) {
    const parts = scanMem(data, { chunk, maxLine, wantPrompt: true });
    assert.equal(parts, whole, `chunk ${chunk}`);
  }
});

Scan('a valid 20 MB usage line is counted (its strings cut while streaming); the lines around it too', () => {
  const file = path.join(tmp.dir, 'giant.jsonl');
  const big = usageLine({ messageId: 'big', output: 9, input: 1234, tools: ['Write'] });
  const content = (big.message as { content: Record<string, unknown>[] }).content;
  content[0]!.input = { file_path: '/tmp/a', content: 'é\\"x'.repeat(5 * 1024 * 1024) }; // 20 MiB, escapes and 2-byte chars
  writeJsonl(file, [usageLine({ messageId: 'before', output: 3 }), big, usageLine({ messageId: 'after', output: 4 }), '']);
  const text = fs.readFileSync(file);
  assert.ok(text.length > 2 * MAX_LINE_BYTES);
  const b = read(file);
  const rows = [...rowsOf(b)];
  assert.equal(rows.map((r) => r.messageId), ['before', 'big', 'after']);
  assert.equal([rows[1]!.input, rows[1]!.output, rows[1]!.tools], [1234, 9, ['Write']]);
  assert.is(text.indexOf('{', rows[1]!.offset), rows[1]!.offset, 'the offset is where the big line starts');
  assert.equal(b.stats, { lines: 4, usageLines: 3, blank: 1, malformed: 0, giant: 0, outOfRange: 0 });
  assert.is(b.consumedTo, text.length);
});

Scan('a valid usage line still over 8 MiB with its strings cut counts: a huge array keeps its first members (issue 37)', () => {
  const file = path.join(tmp.dir, 'structure.jsonl');
  const big = usageLine({ messageId: 'wide', output: 7, input: 4321, tools: ['Read'] });
  // A million short items before the usage: 27 MB whose copy with strings cut is as long.
  const content = (big.message as { content: unknown[] }).content;
  for (let i = 0; i < 1_000_000; i++) content.push({ type: 'text', text: 'x' });
  (big as Record<string, unknown>).toolUseResult = { files: Array.from({ length: 200_000 }, (_, i) => ({ n: i })) };
  writeJsonl(file, [usageLine({ messageId: 'before', output: 3 }), big, usageLine({ messageId: 'after', output: 4 })]);
  const text = fs.readFileSync(file);
  assert.ok(text.length > 3 * MAX_LINE_BYTES);
  const b = read(file);
  const rows = [...rowsOf(b)];
  assert.equal(rows.map((r) => r.messageId), ['before', 'wide', 'after']);
  assert.equal([rows[1]!.input, rows[1]!.output, rows[1]!.tools], [4321, 7, ['Read']]);
  assert.equal(b.stats, { lines: 3, usageLines: 3, blank: 0, malformed: 0, giant: 0, outOfRange: 0 });
  assert.is(b.consumedTo, text.length);
});

Scan('a big line is streamed through a buffer smaller than it; only a copy still too big is skipped as giant', () => {
  const big = usageLine({ messageId: 'big', output: 8 });
  (big.message as { content: unknown[] }).content = [{ type: 'text', text: 'y'.repeat(50_000) }];
  // 50 KB without strings: its copy keeps the array's first members (issue 37), so it is read (no timestamp: malformed).
  const structure = `{"message":{"usage":{"input_tokens":1}},"pad":[${'1,'.repeat(25_000)}1]}`;
  const deep = `{"message":{"usage":{"input_tokens":1}},"pad":${'['.repeat(2000)}${']'.repeat(2000)}}`; // nested past any line
  const data = Buffer.from(jsonlText([usageLine({ messageId: 'a' }), big, structure, deep, usageLine({ messageId: 'b' })]));
  const whole = scanMem(data, { chunk: data.length, maxLine: 1000 });
  assert.equal(whole.rows.map((x) => x.messageId), ['a', 'big', 'b']);
  assert.is(whole.rows[1]!.offset, data.indexOf('{', data.indexOf('\n') + 1));
  assert.equal(whole.stats, { lines: 5, usageLines: 3, blank: 0, malformed: 1, giant: 1, outOfRange: 0 });
  assert.is(whole.consumedTo, data.length);
  for (const chunk of [1, 7, 256, 4093]) assert.equal(scanMem(data, { chunk, maxLine: 1000 }), whole, `chunk ${chunk}`); // buffer of 1000 + chunk

  // unfinished big line at the end: not counted, not consumed
  const cut = data.subarray(0, data.indexOf('yyyy') + 20_000);
  const p = scanMem(cut, { chunk: 256, maxLine: 1000 });
  assert.is(p.stats.lines, 1);
  assert.is(p.consumedTo, data.indexOf('\n') + 1);
});

Scan('binary junk neither throws nor hides the good lines', () => {
  let seed = 7;
  const junk = Buffer.alloc(200_000);
  for (let i = 0; i < junk.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    junk[i] = seed >>> 24;
  }
  junk.write('"usage"', 5000); // makes one junk line pass the prefilter
  junk.write('"user"', 9000);
  const data = Buffer.concat([
    Buffer.from(jsonlText([usageLine({ messageId: 'a' })])),
    junk,
    Buffer.from(`\n${jsonlText([userLine('hello there'), usageLine({ messageId: 'b' })])}`),
  ]);
  const file = path.join(tmp.dir, 'junk.jsonl');
  fs.writeFileSync(file, data);
  const b = read(file, 0, true);
  assert.equal([...rowsOf(b)].map((r) => r.messageId), ['a', 'b']);
  assert.ok(b.stats.malformed >= 1);
  let newlines = 0;
  for (const c of data) if (c === 10) newlines++;
  assert.is(b.stats.lines, newlines);
  assert.is(b.meta.firstPrompt, 'hello there');
  assert.is(b.consumedTo, data.length);
});

Scan('empty file', () => {
  const file = path.join(tmp.dir, 'empty.jsonl');
  fs.writeFileSync(file, '');
  const b = read(file);
  assert.is(b.rows, 0);
  assert.is(b.consumedTo, 0);
  assert.is(b.head, '');
  assert.equal(b.stats, { lines: 0, usageLines: 0, blank: 0, malformed: 0, giant: 0, outOfRange: 0 });
  assert.equal(b.meta, {});
});

Scan('JSON that is not an object, or has a bad usage shape', () => {
  const file = path.join(tmp.dir, 'shapes.jsonl');
  writeJsonl(file, [
    '[1]',
    '"x"',
    'null',
    '["usage"]', // passes the prefilter, not an object
    '"usage"',
    '{"usage": 1', // truncated JSON
    '{"message":{"usage":5},"timestamp":"2026-01-01T00:00:00.000Z"}', // usage not an object
    '{"message":{"usage":{"output_tokens":9}},"timestamp":"yesterday"}', // no parseable time
    '{"message":{"usage":{"output_tokens":9}}}', // no time at all
    '{"toolUseResult":{"usage":{"output_tokens":9}},"timestamp":"2026-01-01T00:00:00.000Z"}', // not a usage entry
    usageLine({ messageId: 'ok', output: 9 }),
  ]);
  const b = read(file);
  assert.equal([...rowsOf(b)].map((r) => r.messageId), ['ok']);
  assert.is(b.stats.lines, 11);
  assert.is(b.stats.malformed, 6);
  assert.is(b.stats.usageLines, 1);
});

Scan('head fingerprint: first 64 bytes as hex when the range starts at 0', () => {
  const file = path.join(tmp.dir, 'head.jsonl');
  writeJsonl(file, [usageLine(), usageLine({ messageId: 'm2' })]);
  const bytes = fs.readFileSync(file);
  assert.is(read(file).head, bytes.subarray(0, HEAD_BYTES).toString('hex'));
  const short = path.join(tmp.dir, 'short.jsonl');
  fs.writeFileSync(short, '{}\n');
  assert.is(read(short).head, Buffer.from('{}\n').toString('hex'));
});

Scan('an unreadable file throws a clear error; a bad task too', () => {
  const missing = path.join(tmp.dir, 'nope.jsonl');
  assert.throws(() => readTranscript({ path: missing, from: 0, to: 10, wantPrompt: false }), /cannot open transcript .*nope\.jsonl.*ENOENT/);
  assert.throws(() => readTranscript({ path: tmp.dir, from: 0, to: 10, wantPrompt: false }), /cannot read transcript .*EISDIR/);
  assert.throws(() => readTranscript({ path: SMALL_FIXTURE, from: 10, to: 5, wantPrompt: false }), /invalid parse task/);
});

Scan('a file that shrank below `to` yields what is there', () => {
  const file = path.join(tmp.dir, 'shrunk.jsonl');
  writeJsonl(file, [usageLine()]);
  const b = readTranscript({ path: file, from: 0, to: 1_000_000, wantPrompt: false });
  assert.is(b.rows, 1);
  assert.is(b.consumedTo, fs.statSync(file).size);
});

Scan('meta: earliest timestamp, first sessionId, last cwd, latest title', () => {
  const file = path.join(tmp.dir, 'meta.jsonl');
  writeJsonl(file, [
    { type: 'summary', summary: 'old', leafUuid: 'x' },
    userLine('first question', { timestamp: '2026-01-02T10:00:00.000Z', sessionId: 'sess-A', cwd: '/a' }),
    usageLine({ timestamp: '2026-01-02T09:00:00.000Z', sessionId: 'sess-B', cwd: '/b', messageId: 'm1' }),
    titleLine('custom', 'My title'),
    usageLine({ timestamp: '2026-01-02T11:00:00.000Z', cwd: '/c', messageId: 'm2' }),
    titleLine('ai', 'Generated title'),
    { type: 'ai-title', title: 'Title via the title field' },
    { type: 'custom-title', customTitle: '   ' },
  ]);
  const b = read(file, 0, true);
  assert.is(b.meta.firstTs, Date.UTC(2026, 0, 2, 9));
  assert.is(b.meta.sessionId, 'sess-A');
  assert.is(b.meta.cwd, '/c');
  assert.is(b.meta.title, 'Title via the title field');
  assert.is(b.meta.titleKind, 'ai');
  assert.is(b.meta.firstPrompt, 'first question');
});

Scan('first prompt: only when asked, skipping tool results, meta lines and command output', () => {
  const file = path.join(tmp.dir, 'prompt.jsonl');
  writeJsonl(file, [
    toolResultLine('a tool said something'),
    userLine('<local-command-caveat>Caveat: ...</local-command-caveat>', { isMeta: true }),
    userLine('<local-command-stdout>Set model</local-command-stdout>'),
    userLine([{ type: 'text', text: '[Request interrupted by user]' }]),
    userLine('<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>haiku</command-args>'),
    userLine('the second prompt'),
  ]);
  assert.is(read(file, 0, false).meta.firstPrompt, undefined);
  // Issue 36: a housekeeping command (/model) gives way to the prompt after it; alone, it is the first prompt.
  assert.is(read(file, 0, true).meta.firstPrompt, 'the second prompt');
  const alone = path.join(tmp.dir, 'prompt-alone.jsonl');
  writeJsonl(alone, [userLine('<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>haiku</command-args>')]);
  assert.is(read(alone, 0, true).meta.firstPrompt, '/model haiku');
});

Scan('first prompts of the real fixtures', () => {
  const prompt = (rel: string) => read(path.join(FIXTURES, rel), 0, true).meta.firstPrompt;
  assert.is(prompt('sample-project/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'), '/init');
  assert.is(prompt('sample-project/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'), '/orchestrator @CLAUDE.md を最新の状態にアップデートしてください');
  assert.is(prompt('sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'), '/orchestrator create TODO app by Next.js');
  const main = prompt('-Users-randlee-Documents-github-claude-history/967e501d-aa48-4eab-a21f-b17058bd78f0.jsonl');
  assert.ok(main?.startsWith('read claude.md and docs/project-plan'), main);
  assert.ok(main!.length <= 500);
});

Scan('appending lines then reading from the cursor sees only the new rows', () => {
  const file = path.join(tmp.dir, 'append.jsonl');
  writeJsonl(file, [usageLine({ messageId: 'm1' })]);
  const a = read(file);
  appendJsonl(file, [usageLine({ messageId: 'm2' }), usageLine({ messageId: 'm3' })]);
  const b = read(file, a.consumedTo);
  assert.equal([...rowsOf(b)].map((r) => r.messageId), ['m2', 'm3']);
  assert.is(b.stats.lines, 2);
});

Scan.run();
