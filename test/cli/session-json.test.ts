// `session --json` is written field by field (writeSessionJson, issue 35) through one reused buffer (Utf8Out): byte
// for byte what `${JSON.stringify(sessionJson(sessions, totals), null, 2)}\n` gives, on indexed histories and on
// hand-made rows with the strings and numbers JSON escapes or formats in its own way, whether the destination takes
// each buffer's bytes at once (the buffer is reused) or keeps them (a new one is taken).
process.env.TZ = 'UTC';

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Totals } from '../../src/shared/api-types.ts';
import type { SessionUsage } from '../../src/index-db/queries/reports.ts';
import { resolveRange } from '../../src/calendar/resolve.ts';
import { systemZone } from '../../src/calendar/zone.ts';
import { sessionJson, writeSessionJson } from '../../src/cli/report-output.ts';
import { streamBytes, Utf8Out } from '../../src/cli/utf8-out.ts';
import { indexDir } from '../helpers/pipeline.ts';
import { CAUSES_PROJECTS, FIXTURE_CONFIG_DIR } from '../helpers/paths.ts';

const expected = (sessions: SessionUsage[], totals: Totals): Buffer => Buffer.from(`${JSON.stringify(sessionJson(sessions, totals), null, 2)}\n`, 'utf8');
/** What writeSessionJson writes through a Utf8Out; `keeps`: the destination keeps each buffer (else copies its bytes). */
function written(sessions: SessionUsage[], totals: Totals, keeps = false): Buffer {
  const got: Buffer[] = [];
  const out = new Utf8Out((bytes) => {
    got.push(keeps ? bytes : Buffer.from(bytes));
    return !keeps;
  });
  writeSessionJson(sessions, totals, out);
  out.flush();
  return Buffer.concat(got);
}

const totals = (cost: number, tokens: number): Totals => ({
  cost, messages: 3, inputTokens: tokens, outputTokens: tokens * 2, cacheCreationTokens: 7, cacheReadTokens: 123_456_789_012, totalTokens: tokens * 3 + 7,
});

const session = (i: number, title: string, models: [string, number][]): SessionUsage => ({
  sessionId: `s-${i}`, title, project: { id: `-home-u-p${i}`, name: `p${i} "quoted"` }, machine: i % 2 ? 'here' : 'laptop \\ 2',
  firstActivity: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), lastActivity: new Date(Date.UTC(2026, 0, 2, 0, i)).toISOString(),
  totals: totals(i * 0.1 + 1e-7, i * 1000), models: models.map(([model, cost]) => ({ model, ...totals(cost, 10) })),
});

const t = suite('session --json written field by field');

t('no sessions; a session without visible models; one with several', () => {
  const none = totals(0, 0);
  assert.ok(written([], none).equals(expected([], none)));
  const rows = [session(1, 'plain', []), session(2, 'two models', [['claude-opus-4-5', 1.5], ['claude-haiku-4-5', 0.25]])];
  assert.ok(written(rows, totals(1.75, 99)).equals(expected(rows, totals(1.75, 99))));
});

t('strings JSON escapes, numbers it formats its own way, and a text of many chunks', () => {
  const titles = ['"quotes" and \\ backslashes', 'tab\tnew\nline\r\u0000\u001f\u007f', 'unicode: é ü 中文 😀 \u2028 \u2029', 'lone \ud800 surrogate \udfff', ''];
  const rows = titles.map((title, i) => session(i, title, [['<synthetic>', 0], ['model-ß', 1 / 3]]));
  rows[0]!.totals = { ...rows[0]!.totals, cost: 1e21, inputTokens: -0, outputTokens: 2 ** 53 + 2, totalTokens: 5e-324 };
  rows[1]!.totals = { ...rows[1]!.totals, cost: Number.NaN, inputTokens: Number.POSITIVE_INFINITY };
  const t2 = { ...totals(Math.PI, 1), cacheReadTokens: 0.1 + 0.2 };
  // Past the writer's 1 MiB buffer, with a title of more than a buffer of its own.
  rows.push(session(999, 'x'.repeat(400_000) + '€'.repeat(300_000), []));
  for (let i = 0; i < 2000; i++) rows.push(session(1000 + i, `session ${i} ${'ü😀'.repeat(i % 50)}`, [['claude-sonnet-4-5', i / 7]]));
  for (const keeps of [false, true]) {
    const out = written(rows, t2, keeps);
    assert.ok(out.length > 3 * 1048576, `${out.length} bytes`);
    assert.ok(out.equals(expected(rows, t2)), `keeps: ${keeps}`);
  }
});

t('a stream that keeps the bytes gets a new buffer next; one that wrote them lets it be reused', () => {
  const kept: Buffer[] = [];
  const stream = { writableLength: 0, write(b: Buffer) { kept.push(b); stream.writableLength = pending ? b.length : 0; return true; } };
  let pending = true;
  const out = new Utf8Out(streamBytes(stream));
  for (const piece of ['a'.repeat(300_000), 'b'.repeat(300_000), 'c'.repeat(10)]) out.add(piece);
  out.flush();
  assert.ok(kept.length === 2 && kept[0]!.equals(Buffer.from('a'.repeat(300_000))) && kept[1]!.equals(Buffer.from('b'.repeat(300_000) + 'c'.repeat(10))), 'nothing overwritten');
  assert.ok(kept[0]!.buffer !== kept[1]!.buffer, 'a new buffer after one the stream kept');
  pending = false;
  const reused: Buffer[] = [];
  const sync = { writableLength: 0, write(b: Buffer) { reused.push(b); return true; } };
  const out2 = new Utf8Out(streamBytes(sync));
  for (const piece of ['a'.repeat(300_000), 'b'.repeat(300_000), 'c'.repeat(10)]) out2.add(piece);
  out2.flush();
  assert.ok(reused[0]!.buffer === reused[1]!.buffer, 'the same buffer once the stream wrote it');
});

t('indexed histories: every session of all time, and of one project', async () => {
  for (const projects of [[`${FIXTURE_CONFIG_DIR}/projects`], [CAUSES_PROJECTS], [`${FIXTURE_CONFIG_DIR}/projects`, CAUSES_PROJECTS]]) {
    const index = await indexDir(projects, { machines: projects.map((_, i) => (i ? 'second' : null)) });
    try {
      const range = resolveRange({ kind: 'all' }, Date.now(), systemZone);
      const sessions = index.reports.sessions(range, null, 'this-machine');
      assert.ok(sessions.length > 0, projects.join(','));
      const all = index.reports.totals(range, null);
      assert.ok(written(sessions, all).equals(expected(sessions, all)), projects.join(','));
      const project = sessions[0]!.project.id;
      const one = index.reports.sessions(range, project, 'this-machine');
      assert.ok(written(one, all).equals(expected(one, all)), project);
    } finally {
      index.close();
    }
  }
});

t.run();
