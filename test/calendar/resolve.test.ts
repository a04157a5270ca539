// Calendar periods and the resolution of a range into its window and spans (src/calendar/periods.ts, resolve.ts), in
// named zones: DST changes, :30/:45 offsets, Lord Howe's half-hour DST, year ends, the day limit.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dayKey, parseDayKey } from '../../src/calendar/days.ts';
import { lastDays, lastMonth, previousPeriod, thisMonth, thisWeek, type DaySpan } from '../../src/calendar/periods.ts';
import { MAX_RANGE_DAYS, type RangeSel } from '../../src/calendar/range.ts';
import { exactHours, firstWholeDay, rangeSpan, resolveRange, selectionDays, todaySpan } from '../../src/calendar/resolve.ts';
import { ianaZone } from '../../src/calendar/zone.ts';

const H = 3_600_000;
const utc = (s: string): number => Date.parse(`${s}Z`);
const day = (s: string): number => parseDayKey(s)!;
const keys = (p: DaySpan): [string, string] => [dayKey(p.from), dayKey(p.to)];
const NY = ianaZone('America/New_York');
const LONDON = ianaZone('Europe/London');
const KOLKATA = ianaZone('Asia/Kolkata');
const KATHMANDU = ianaZone('Asia/Kathmandu');
const LORD_HOWE = ianaZone('Australia/Lord_Howe');
const CHATHAM = ianaZone('Pacific/Chatham');

const Periods = suite('calendar periods');

Periods('this week from Monday, this month, last month, last N days, across year ends', () => {
  assert.equal(keys(thisWeek(day('2024-01-03'))), ['2024-01-01', '2024-01-03']);
  assert.equal(keys(thisWeek(day('2025-01-01'))), ['2024-12-30', '2025-01-01'], 'a week that starts in the year before');
  assert.equal(keys(thisWeek(day('2024-03-10'))), ['2024-03-04', '2024-03-10'], 'Sunday ends the week');
  assert.equal(keys(thisMonth(day('2024-02-29'))), ['2024-02-01', '2024-02-29']);
  assert.equal(keys(lastMonth(day('2024-01-15'))), ['2023-12-01', '2023-12-31'], 'January: the December before');
  assert.equal(keys(lastMonth(day('2024-03-31'))), ['2024-02-01', '2024-02-29'], 'a leap February');
  assert.equal(keys(lastMonth(day('2023-03-01'))), ['2023-02-01', '2023-02-28']);
  assert.equal(keys(lastDays(3, day('2025-01-01'))), ['2024-12-30', '2025-01-01']);
});

Periods('the previous period has the same number of days, just before', () => {
  assert.equal(keys(previousPeriod({ from: day('2026-01-01'), to: day('2026-01-30') })), ['2025-12-02', '2025-12-31']);
  assert.equal(keys(previousPeriod({ from: day('2024-03-01'), to: day('2024-03-31') })), ['2024-01-30', '2024-02-29']);
  assert.equal(keys(previousPeriod({ from: day('2024-03-05'), to: day('2024-03-05') })), ['2024-03-04', '2024-03-04']);
});

Periods.run();

const Resolve = suite('resolveRange');

const window = (sel: RangeSel, now: number, zone = NY) => {
  const w = resolveRange(sel, now, zone);
  return { from: w.from, to: w.to, hours: (w.toMs - w.fromMs) / H, bucket: w.bucket, kind: w.kind, days: w.days };
};

Resolve('whole local days in New York across DST: 23 and 25 hours, counted as calendar days', () => {
  const now = utc('2024-03-12T19:30:00'); // 15:30 EDT on Tuesday
  assert.equal(window({ kind: 'days', days: 3 }, now), { from: '2024-03-10', to: '2024-03-12', hours: 71, bucket: 'day', kind: 'days', days: 3 });
  assert.equal(window({ kind: 'custom', from: '2024-11-03', to: '2024-11-03' }, now + 300 * 24 * H), { from: '2024-11-03', to: '2024-11-03', hours: 25, bucket: 'hour', kind: 'custom', days: 1 });
  assert.equal(window({ kind: 'week' }, now), { from: '2024-03-11', to: '2024-03-12', hours: 48, bucket: 'day', kind: 'week', days: 2 });
  assert.equal(resolveRange({ kind: 'today' }, utc('2024-03-10T12:00:00'), NY).fromMs, utc('2024-03-10T05:00:00'));
  assert.equal(resolveRange({ kind: 'today' }, utc('2024-03-10T12:00:00'), NY).toMs, utc('2024-03-11T04:00:00'));
});

Resolve('the same day in London, Kolkata, Kathmandu, Lord Howe and Chatham starts at its own instant', () => {
  const sel: RangeSel = { kind: 'custom', from: '2024-06-01', to: '2024-06-01' };
  const now = utc('2024-07-01T00:00:00');
  assert.is(resolveRange(sel, now, LONDON).fromMs, utc('2024-05-31T23:00:00'));
  assert.is(resolveRange(sel, now, KOLKATA).fromMs, utc('2024-05-31T18:30:00'));
  assert.is(resolveRange(sel, now, KATHMANDU).fromMs, utc('2024-05-31T18:15:00'));
  assert.is(resolveRange(sel, now, LORD_HOWE).fromMs, utc('2024-05-31T13:30:00'));
  assert.is(resolveRange(sel, now, CHATHAM).fromMs, utc('2024-05-31T11:15:00'));
  assert.equal(window({ kind: 'custom', from: '2024-10-06', to: '2024-10-06' }, now + 200 * 24 * H, LORD_HOWE).hours, 23.5);
  assert.equal(window({ kind: 'custom', from: '2024-09-29', to: '2024-09-29' }, now + 200 * 24 * H, CHATHAM).hours, 23);
});

Resolve('month so far, last month and this week at a year end, in Chatham (+13:45) before UTC has turned the year', () => {
  const now = utc('2024-12-31T10:20:00'); // 2025-01-01 00:05 in Chatham
  assert.equal(window({ kind: 'month' }, now, CHATHAM), { from: '2025-01-01', to: '2025-01-01', hours: 24, bucket: 'hour', kind: 'month', days: 1 });
  assert.equal(window({ kind: 'lastmonth' }, now, CHATHAM), { from: '2024-12-01', to: '2024-12-31', hours: 31 * 24, bucket: 'day', kind: 'lastmonth', days: 31 });
  assert.equal(window({ kind: 'week' }, now, CHATHAM).from, '2024-12-30');
  assert.equal(window({ kind: 'lastmonth' }, now, NY).from, '2024-11-01', 'still 2024 in New York');
});

Resolve('24h, all time, the day limit, custom days after today', () => {
  const now = utc('2024-03-10T16:00:00');
  const rolling = resolveRange({ kind: '24h' }, now, NY);
  assert.equal([rolling.fromMs, rolling.toMs, rolling.from, rolling.to, rolling.bucket, rolling.days], [now - 24 * H, now + 1, '2024-03-09', '2024-03-10', 'hour', null]);
  const all = resolveRange({ kind: 'all' }, now, NY);
  assert.equal([all.fromMs, all.toMs, all.from, all.to, all.bucket, all.days], [0, utc('2024-03-11T04:00:00'), '1969-12-31', '2024-03-10', 'day', null]);
  assert.is(resolveRange({ kind: 'days', days: MAX_RANGE_DAYS }, now, NY).days, MAX_RANGE_DAYS);
  assert.equal(window({ kind: 'custom', from: '2024-03-09', to: '2030-01-01' }, now), { from: '2024-03-09', to: '2024-03-10', hours: 47, bucket: 'day', kind: 'custom', days: 2 });
  assert.equal(window({ kind: 'custom', from: '2031-01-01', to: '2030-01-01' }, now).from, '2024-03-10');
});

Resolve('the dates a selection covers (the pre-fill of the custom inputs), in the zone of the page', () => {
  const now = utc('2024-12-31T10:20:00'); // Tuesday; already 2025-01-01 in Chatham
  assert.equal(selectionDays({ kind: 'days', days: 7 }, now, NY), { from: '2024-12-25', to: '2024-12-31' });
  assert.equal(selectionDays({ kind: 'days', days: 7 }, now, CHATHAM), { from: '2024-12-26', to: '2025-01-01' });
  assert.equal(selectionDays({ kind: 'week' }, now, NY), { from: '2024-12-30', to: '2024-12-31' });
  assert.equal(selectionDays({ kind: 'lastmonth' }, now, CHATHAM), { from: '2024-12-01', to: '2024-12-31' });
  assert.equal(selectionDays({ kind: '24h' }, now, KATHMANDU), { from: '2024-12-30', to: '2024-12-31' });
  assert.equal(selectionDays({ kind: 'all' }, now, CHATHAM), { from: '2025-01-01', to: '2025-01-01' });
  assert.equal(selectionDays({ kind: 'custom', from: '2030-01-01', to: '2030-02-01' }, now, NY), { from: '2030-01-01', to: '2030-02-01' }, 'as asked');
});

Resolve.run();

const Spans = suite('rangeSpan');

Spans('whole days in a :30 zone: local days, UTC hours with partial edges, local hours', () => {
  const w = resolveRange({ kind: 'custom', from: '2024-06-01', to: '2024-06-02' }, utc('2024-07-01T00:00:00'), KOLKATA);
  const s = rangeSpan(w, KOLKATA);
  assert.equal(s.days, { from: day('2024-06-01'), to: day('2024-06-03') });
  const h = (t: string) => utc(t) / H;
  assert.equal(s.hours, { from: h('2024-05-31T19:00:00'), to: h('2024-06-02T18:00:00'), edges: [[utc('2024-05-31T18:30:00'), utc('2024-05-31T19:00:00')], [utc('2024-06-02T18:00:00'), utc('2024-06-02T18:30:00')]] });
  assert.equal(s.utcHours, { from: h('2024-05-31T19:00:00'), to: h('2024-06-02T19:00:00') }, 'the UTC hours starting inside');
  assert.equal(s.localHours, { from: day('2024-06-01') * 24, to: day('2024-06-03') * 24 });
});

Spans('whole days in a whole-hour zone have no edges; all time reads as whole days from the epoch', () => {
  const s = rangeSpan(resolveRange({ kind: 'days', days: 7 }, utc('2024-03-12T12:00:00'), NY), NY);
  assert.equal(s.hours.edges, []);
  assert.is(s.hours.to - s.hours.from, 7 * 24 - 1, 'a week with the 23-hour day');
  const all = rangeSpan(resolveRange({ kind: 'all' }, utc('2024-03-12T12:00:00'), KATHMANDU), KATHMANDU);
  assert.equal(all.days, { from: 0, to: day('2024-03-13') });
  assert.equal(all.hours.edges, [[utc('2024-03-12T18:00:00'), utc('2024-03-12T18:15:00')]]);
});

Spans('a rolling 24 h window: the UTC hours starting inside it, no edges, the local hours starting inside it', () => {
  const now = utc('2024-06-01T10:20:00');
  const s = rangeSpan(resolveRange({ kind: '24h' }, now, KATHMANDU), KATHMANDU);
  assert.is(s.days, null);
  assert.equal(s.utcHours, { from: utc('2024-05-31T11:00:00') / H, to: utc('2024-06-01T11:00:00') / H });
  assert.equal(s.hours, { ...s.utcHours, edges: [] });
  // 10:20 UTC is 16:05 in Kathmandu: the first local hour starting inside is 2024-05-31T17.
  assert.equal(s.localHours, { from: day('2024-05-31') * 24 + 17, to: day('2024-06-01') * 24 + 17 });
});

Spans('a window off local midnights is not whole days', () => {
  const s = rangeSpan({ fromMs: utc('2024-06-01T00:00:00'), toMs: utc('2024-06-02T00:00:00'), kind: 'custom' }, KOLKATA);
  assert.is(s.days, null);
  assert.equal(exactHours(utc('2024-06-01T00:10:00'), utc('2024-06-01T00:20:00')), { from: utc('2024-06-01T01:00:00') / H, to: utc('2024-06-01T01:00:00') / H, edges: [[utc('2024-06-01T00:10:00'), utc('2024-06-01T00:20:00')]] });
});

Spans('today, and the first whole day of an instant, on DST days', () => {
  const t = todaySpan(utc('2024-11-03T12:00:00'), NY);
  assert.equal([t.fromMs, t.toMs, t.days], [utc('2024-11-03T04:00:00'), utc('2024-11-04T05:00:00'), { from: day('2024-11-03'), to: day('2024-11-04') }]);
  const lh = todaySpan(utc('2024-10-06T12:00:00'), LORD_HOWE);
  assert.is((lh.toMs - lh.fromMs) / H, 23.5);
  assert.is(dayKey(firstWholeDay(NY, utc('2024-03-10T05:00:00'))), '2024-03-10', 'a local midnight starts its own day');
  assert.is(dayKey(firstWholeDay(NY, utc('2024-03-10T05:00:01'))), '2024-03-11');
});

Spans.run();
