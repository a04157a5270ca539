// Local days and hours in IANA zones (src/calendar/zone.ts, days.ts): DST days of 23/25 hours and Lord Howe's half
// hour, :30 and :45 offsets, year ends, and the process zone agreeing with Date's local constructor in each of them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dateOfDay, dayFromDate, dayKey, daysInMonth, hourKey, monthStart, parseDayKey, weekday, weekStart } from '../../src/calendar/days.ts';
import { LocalClock } from '../../src/calendar/local-clock.ts';
import { dayOf, dayStartMs, ianaZone, instantOf, localHourCeil, localHourOf, systemZone } from '../../src/calendar/zone.ts';

const H = 3_600_000;
const M = 60_000;
const utc = (s: string): number => Date.parse(`${s}Z`);
const day = (s: string): number => parseDayKey(s)!;
const ZONES = ['America/New_York', 'Europe/London', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham'];

/** Every day of a year whose length in `zone` is not 24 hours, as 'YYYY-MM-DD' -> hours. */
function oddDays(zone: string, year: number): Record<string, number> {
  const z = ianaZone(zone);
  const out: Record<string, number> = {};
  for (let d = dayFromDate(year, 1, 1); d < dayFromDate(year + 1, 1, 1); d++) {
    const hours = (dayStartMs(z, d + 1) - dayStartMs(z, d)) / H;
    if (hours !== 24) out[dayKey(d)] = hours;
  }
  return out;
}

const Days = suite('civil days');

Days('keys, dates, weekdays, weeks and months, across year ends and leap days', () => {
  assert.is(dayKey(0), '1970-01-01');
  assert.is(dayKey(-1), '1969-12-31');
  assert.is(weekday(0), 3, '1970-01-01 was a Thursday');
  assert.is(weekday(-1), 2, 'a day before the epoch');
  assert.is(dayKey(weekStart(day('2024-12-31'))), '2024-12-30');
  assert.is(dayKey(weekStart(day('2027-01-03'))), '2026-12-28', 'a Sunday belongs to the week of the Monday before');
  assert.is(dayKey(weekStart(day('2024-01-01'))), '2024-01-01', 'a Monday starts its own week');
  assert.is(dayKey(monthStart(day('2024-02-29'))), '2024-02-01');
  assert.equal([daysInMonth(day('2024-02-10')), daysInMonth(day('2023-02-10')), daysInMonth(day('2100-02-10')), daysInMonth(day('2000-02-10'))], [29, 28, 28, 29]);
  assert.equal(dateOfDay(day('2026-12-31')), { y: 2026, m: 12, d: 31 });
  assert.is(dayKey(dayFromDate(2024, 13, 1)), '2025-01-01', 'a month past the end rolls over');
  assert.is(dayKey(dayFromDate(2024, 3, 0)), '2024-02-29', 'day 0 is the last of the month before');
  assert.is(dayKey(dayFromDate(50, 1, 1)), '0050-01-01', 'years below 100 are not read as 19xx');
  assert.is(hourKey(day('2024-03-10') * 24 + 7), '2024-03-10T07');
  assert.is(hourKey(-1), '1969-12-31T23');
  for (const bad of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-00-01', '2024-1-01', '24-01-01', '2024-01-01T00']) assert.is(parseDayKey(bad), null, bad);
});

Days('day numbers and dates agree with Date.UTC for every day from 1600 to 2400', () => {
  const first = Date.UTC(1600, 0, 1) / 86_400_000;
  const last = Date.UTC(2400, 0, 1) / 86_400_000;
  for (let d = first; d <= last; d++) {
    const t = new Date(d * 86_400_000);
    const want = { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
    const got = dateOfDay(d);
    if (got.y !== want.y || got.m !== want.m || got.d !== want.d) assert.equal(got, want, `day ${d}`);
    if (dayFromDate(want.y, want.m, want.d) !== d) assert.is(dayFromDate(want.y, want.m, want.d), d, `date ${t.toISOString()}`);
    if (dayKey(d) !== t.toISOString().slice(0, 10)) assert.is(dayKey(d), t.toISOString().slice(0, 10));
  }
  assert.is(dayKey(dayFromDate(2024, -1, 1)), '2023-11-01', 'months before January roll back');
  assert.is(dayKey(dayFromDate(2024, 1, -30)), '2023-12-01');
});

Days.run();

const Zones = suite('zones');

Zones('offsets: :30, :45, Lord Howe +10:30/+11, Chatham +12:45/+13:45', () => {
  const off = (zone: string, s: string) => ianaZone(zone).offsetAt(utc(s)) / M;
  assert.is(off('Asia/Kolkata', '2024-06-01T00:00:00'), 330);
  assert.is(off('Asia/Kathmandu', '2024-06-01T00:00:00'), 345);
  assert.is(off('Australia/Lord_Howe', '2024-07-01T00:00:00'), 630);
  assert.is(off('Australia/Lord_Howe', '2024-12-01T00:00:00'), 660);
  assert.is(off('Pacific/Chatham', '2024-07-01T00:00:00'), 765);
  assert.is(off('Pacific/Chatham', '2024-12-01T00:00:00'), 825);
  assert.is(off('America/New_York', '2024-01-15T12:00:00'), -300);
  assert.is(off('Europe/London', '2024-07-01T12:00:00'), 60);
  assert.throws(() => ianaZone('Mars/Olympus_Mons'), RangeError);
});

Zones('DST days: 23 and 25 hours, Lord Howe 23.5 and 24.5; none in Kolkata or Kathmandu', () => {
  assert.equal(oddDays('America/New_York', 2024), { '2024-03-10': 23, '2024-11-03': 25 });
  assert.equal(oddDays('Europe/London', 2024), { '2024-03-31': 23, '2024-10-27': 25 });
  assert.equal(oddDays('Australia/Lord_Howe', 2024), { '2024-04-07': 24.5, '2024-10-06': 23.5 });
  assert.equal(oddDays('Pacific/Chatham', 2024), { '2024-04-07': 25, '2024-09-29': 23 });
  assert.equal(oddDays('Asia/Kolkata', 2024), {});
  assert.equal(oddDays('Asia/Kathmandu', 2024), {});
});

Zones('local days and hours of instants at :30 and :45 offsets and across a year end', () => {
  const kolkata = ianaZone('Asia/Kolkata');
  const kathmandu = ianaZone('Asia/Kathmandu');
  assert.is(dayStartMs(kolkata, day('2024-06-01')), utc('2024-05-31T18:30:00'));
  assert.is(dayStartMs(kathmandu, day('2024-06-01')), utc('2024-05-31T18:15:00'));
  assert.is(dayKey(dayOf(kathmandu, utc('2024-12-31T18:14:59.999'))), '2024-12-31');
  assert.is(dayKey(dayOf(kathmandu, utc('2024-12-31T18:15:00'))), '2025-01-01');
  assert.is(hourKey(localHourOf(kathmandu, utc('2024-06-01T00:14:00'))), '2024-06-01T05');
  assert.is(hourKey(localHourOf(kathmandu, utc('2024-06-01T00:15:00'))), '2024-06-01T06');
  assert.is(localHourCeil(kolkata, utc('2024-06-01T00:30:00')), localHourOf(kolkata, utc('2024-06-01T00:30:00')), 'on a local hour');
  assert.is(localHourCeil(kolkata, utc('2024-06-01T00:00:00')), localHourOf(kolkata, utc('2024-06-01T00:00:00')) + 1, 'inside a local hour');
  const ny = ianaZone('America/New_York');
  assert.is(dayKey(dayOf(ny, utc('2025-01-01T04:59:59.999'))), '2024-12-31');
  assert.is(dayKey(dayOf(ny, utc('2025-01-01T05:00:00'))), '2025-01-01');
});

Zones('wall-clock times DST skips or repeats resolve as Date does', () => {
  const ny = ianaZone('America/New_York');
  // 02:30 on 2024-03-10 does not exist: the offset before the gap puts it at 03:30 EDT.
  assert.is(instantOf(ny, utc('2024-03-10T02:30:00')), utc('2024-03-10T07:30:00'));
  // 01:30 on 2024-11-03 happens twice: the earlier (EDT).
  assert.is(instantOf(ny, utc('2024-11-03T01:30:00')), utc('2024-11-03T05:30:00'));
  const lordHowe = ianaZone('Australia/Lord_Howe');
  // 02:00-02:30 on 2024-10-06 is skipped; 01:30-02:00 on 2024-04-07 repeats.
  assert.is(instantOf(lordHowe, utc('2024-10-06T02:15:00')), utc('2024-10-05T15:45:00'));
  assert.is(instantOf(lordHowe, utc('2024-04-07T01:45:00')), utc('2024-04-06T14:45:00'));
  // Santiago skips its midnight: the day starts at 01:00, the gap's end.
  const santiago = ianaZone('America/Santiago');
  assert.is(dayStartMs(santiago, day('2024-09-08')), utc('2024-09-08T04:00:00'));
});

Zones('the process zone is Date: every day of 2023-2026 starts where the local constructor and Intl say', () => {
  for (const name of [...ZONES, 'America/Santiago']) {
    process.env.TZ = name; // Node reads TZ again when it is assigned
    const iana = ianaZone(name);
    assert.is(systemZone.name, iana.name);
    for (let d = dayFromDate(2023, 1, 1); d < dayFromDate(2027, 1, 1); d++) {
      const { y, m, d: dd } = dateOfDay(d);
      const start = dayStartMs(systemZone, d);
      assert.is(start, new Date(y, m - 1, dd).getTime(), `${name} ${dayKey(d)}`);
      assert.is(dayStartMs(iana, d), start, `${name} ${dayKey(d)} (Intl)`);
      for (const t of [start, start + 12 * H, dayStartMs(systemZone, d + 1) - 1]) {
        assert.is(dayOf(systemZone, t), d, `${name} ${dayKey(d)} +${t - start}`);
        const local = new Date(t);
        assert.is(localHourOf(systemZone, t) - d * 24, local.getHours(), `${name} ${dayKey(d)} hour`);
      }
    }
  }
});

Zones('a zone by name is Date in that zone: the same offset at every quarter hour of 2025-2026, the same local hours', () => {
  // The parse workers fold local hours with ianaZone(name) for a writer whose Date is in that zone (src/workers/fold.ts).
  for (const name of [...ZONES, 'America/Santiago']) {
    process.env.TZ = name;
    const iana = ianaZone(name);
    const byName = new LocalClock(iana);
    const byDate = new LocalClock();
    for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2027, 0, 1); t += 15 * M) {
      if (iana.offsetAt(t) !== systemZone.offsetAt(t)) assert.unreachable(`${name} ${new Date(t).toISOString()}: ${iana.offsetAt(t)} vs ${systemZone.offsetAt(t)}`);
      for (const at of [t, t + 15 * M - 1]) {
        if (byName.lhour(at) !== byDate.lhour(at)) assert.unreachable(`${name} ${new Date(at).toISOString()} local hour`);
      }
    }
  }
});

Zones.run();
