// Plan limits in a real index file: hits read from real-shaped transcript lines by the real pipeline (kept when the
// transcript is deleted, one hit for a line copied into a resumed session, no hit for a throttle), the statusline's
// side file taken in once (a torn last line waits, bad lines are counted, a second intake of the same bytes adds
// nothing), and each window's pace, forecast, peak and the estimated cost of 1 %.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { appendReadings, limitsSideFile, statusReadings, type LimitReading } from '../../src/index-db/limit-readings.ts';
import { hitLine, throttleLine } from '../helpers/limit-lines.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { indexDir } from '../helpers/pipeline.ts';

const { dir } = tempDir('limits-index-');
const H = 3_600_000;
const T0 = Date.UTC(2026, 4, 4, 8, 0); // a 5-hour window from 08:00 to 13:00 UTC
let n = 0;

const t = suite('plan limits in the index');

t('hits come from the transcripts once each, survive the transcript, and throttles are not hits', async () => {
  const root = path.join(dir, `h${++n}`, 'projects', '-home-u-proj');
  const a = path.join(root, 'sess-a.jsonl');
  const b = path.join(root, 'sess-b.jsonl');
  const sessionHit = hitLine("You've hit your session limit · resets 1pm (UTC)", T0 + 2 * H, { id: 'msg-hit-1', sessionId: 'sess-a' });
  writeJsonl(a, [
    usageLine({ sessionId: 'sess-a', messageId: 'm1', requestId: 'r1', timestamp: new Date(T0 + H).toISOString() }),
    sessionHit,
    throttleLine(T0 + 2.5 * H),
    hitLine("You've hit your weekly limit · resets May 7, 10am (Europe/Berlin)", T0 + 3 * H, { sessionId: 'sess-a' }),
  ]);
  // A resumed session carries a copy of the earlier hit line (same message id).
  writeJsonl(b, [{ ...sessionHit, sessionId: 'sess-b' }, hitLine('Claude AI usage limit reached|1778000000', T0 + 4 * H, { sessionId: 'sess-b', error: undefined, status: undefined })]);
  const file = path.join(dir, `h${n}.db`);
  let index = await indexDir(path.dirname(root), { file });
  let data = index.queries.limits(T0 + 5 * H);
  assert.equal(data.hitCounts, { five_hour: 1, seven_day: 1, unknown: 1 });
  assert.equal(data.hits.map((h) => h.at), [T0 + 4 * H, T0 + 3 * H, T0 + 2 * H].map((ms) => new Date(ms).toISOString()));
  assert.is(data.hits[2]!.resetsAt, '2026-05-04T13:00:00.000Z');
  assert.is(data.hits[1]!.resetsAt, '2026-05-07T08:00:00.000Z');
  assert.is(data.hits[0]!.resetsAt, new Date(1778000000 * 1000).toISOString());
  index.close();

  // Claude Code deletes old sessions: the hits stay, and reading a rewritten copy adds none.
  fs.rmSync(a);
  writeJsonl(b, [{ ...sessionHit, sessionId: 'sess-b' }]);
  index = await indexDir(path.dirname(root), { file });
  data = index.queries.limits(T0 + 5 * H);
  assert.equal(data.hitCounts, { five_hour: 1, seven_day: 1, unknown: 1 });
  index.close();
});

const reading = (window: string, at: number, used: number, resetsAt: number, source = 'probe'): LimitReading =>
  ({ window, usedPercent: used, resetsAt, observedAt: at, source, machine: 'm1', amount: null });

t('the side file is taken in once: torn lines wait, bad lines are counted', () => {
  const file = path.join(dir, `s${++n}.db`);
  const side = limitsSideFile(file);
  const index = openIndex(file, { log: () => {} });
  try {
    const { readings, skipped } = statusReadings({
      five_hour: { used_percentage: 12.5, resets_at: (T0 + 5 * H) / 1000 },
      seven_day: { used_percentage: 40, resets_at: (T0 + 3 * 24 * H) / 1000 },
      seven_day_opus: { used_percentage: 2000, resets_at: (T0 + 3 * 24 * H) / 1000 }, // over 1000 %
      seven_day_sonnet: { used_percentage: 5, resets_at: (T0 + 90 * 24 * H) / 1000 }, // 90 days away
    }, T0 + H, 'm1');
    assert.is(readings.length, 2);
    assert.is(skipped, 2);
    assert.is(appendReadings(side, readings, skipped), 2);
    // The same values again are not appended; a changed one is.
    assert.is(appendReadings(side, readings.map((r) => ({ ...r, observedAt: T0 + 1.5 * H }))), 0);
    fs.appendFileSync(side, 'not json\n{"w":"five_hour","u":20,"r":');
    assert.equal(index.takeInLimitReadings(side), { added: 2, skipped: 3 });
    assert.equal(index.takeInLimitReadings(side), { added: 0, skipped: 0 });
    fs.appendFileSync(side, `${T0 + 5 * H},"o":${T0 + 2 * H},"m":"m1"}\n`);
    assert.equal(index.takeInLimitReadings(side), { added: 1, skipped: 0 });
    const data = index.queries.limits(T0 + 2 * H);
    assert.is(data.readings.length, 3);
    assert.is(data.skipped, 3);
    assert.is(data.windows.find((w) => w.window === 'five_hour')!.usedPercent, 20);
  } finally {
    index.close();
  }
  // A second process that lost the intake's offset reads the whole file again: nothing is recorded twice.
  const db = new Database(file);
  db.prepare("DELETE FROM meta WHERE key = 'limits_intake'").run();
  db.close();
  const again = openIndex(file, { log: () => {} });
  try {
    assert.is(again.takeInLimitReadings(side).added, 0);
    assert.is(again.queries.limits(T0 + 2 * H).readings.length, 3);
  } finally {
    again.close();
  }
});

t('pace, forecast to the reset, the time 100 % is reached, an ended window\'s peak', () => {
  const file = path.join(dir, `p${++n}.db`);
  const index = openIndex(file, { log: () => {} });
  try {
    const reset = T0 + 5 * H;
    assert.is(index.addLimitReadings([reading('five_hour', T0 + H, 10, reset), reading('five_hour', T0 + 2 * H, 30, reset)]), 2);
    assert.is(index.addLimitReadings([reading('five_hour', T0 + 2 * H, 30, reset)]), 0, 'the same reading again is one row');
    let w = index.queries.limits(T0 + 2.1 * H).windows[0]!;
    assert.is(w.window, 'five_hour');
    assert.ok(Math.abs(w.pace! - 30 / 40) < 1e-9, `pace ${w.pace}`); // 30 % used at 40 % of the window
    assert.ok(Math.abs(w.projectedPercent! - 90) < 1e-9, `projected ${w.projectedPercent}`); // 20 %/h for 3 h more
    assert.is(w.fullAt, null);
    index.addLimitReadings([reading('five_hour', T0 + 2.5 * H, 50, reset + 30_000)]); // another source's rounding
    w = index.queries.limits(T0 + 2.6 * H).windows[0]!;
    // 40 %/h over the last hour, to the reset this reading gives.
    assert.ok(Math.abs(w.projectedPercent! - (50 + 40 * (2.5 + 30 / 3600))) < 1e-6, `projected ${w.projectedPercent}`);
    assert.is(w.fullAt, new Date(T0 + 3.75 * H).toISOString());
    assert.equal(index.queries.limits(T0 + 2.6 * H).alerts.map((a) => a.kind), ['forecast']);
    // After the reset: the ended window keeps its figures and peak, and alerts no more.
    const after = index.queries.limits(reset + H);
    assert.is(after.windows[0]!.ended, true);
    assert.is(after.windows[0]!.peakPercent, 50);
    assert.is(after.windows[0]!.projectedPercent, null);
    assert.equal(after.alerts, []);
  } finally {
    index.close();
  }
});

t('the cost of 1 % is estimated from the index\'s costs between readings', async () => {
  const root = path.join(dir, `c${++n}`, 'projects', '-home-u-proj');
  writeJsonl(path.join(root, 'sess-c.jsonl'), [0.5, 1.2, 1.7, 2.9].map((h, i) =>
    usageLine({ sessionId: 'sess-c', messageId: `mc${i}`, requestId: `rc${i}`, output: 1000 * (i + 1), input: 5000, timestamp: new Date(T0 + h * H).toISOString() })));
  const file = path.join(dir, `c${n}.db`);
  const index = await indexDir(path.dirname(root), { file });
  let estimate: number | null;
  try {
    const reset = T0 + 5 * H;
    index.addLimitReadings([reading('five_hour', T0 + H, 10, reset), reading('five_hour', T0 + 2.5 * H, 25, reset)]);
    estimate = index.queries.limits(T0 + 3 * H).windows[0]!.costPerPercent;
  } finally {
    index.close();
  }
  const db = new Database(file, { readonly: true });
  const between = db.prepare('SELECT sum(cost) FROM messages WHERE ts >= ? AND ts < ?').pluck().get(T0 + H, T0 + 2.5 * H) as number;
  const all = db.prepare('SELECT sum(cost) FROM messages').pluck().get() as number;
  db.close();
  assert.ok(between > 0 && all > between, `${between} of ${all}`);
  assert.ok(Math.abs(estimate! - between / 15) < 1e-9, `${estimate} vs ${between / 15}`);
});

t.run();
