// A budget's period and projection in the server's local time: period edges (Monday weeks, month and year ends), DST
// days of 23 and 25 hours in two zones (New York, Berlin) and a :30 zone, today's pace with the first hour counted
// whole, and the ok / warn / over thresholds.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { alerts, budgetState, periodSpan, projectedUse, usualDay } from '../../src/index-db/queries/budget-pace.ts';

const HOUR = 3_600_000;
const t = suite('budget periods and projections');

/** Runs `fn` with the process in `zone` (Date reads TZ at each call). */
function inZone(zone: string, fn: () => void): void {
  const was = process.env.TZ;
  process.env.TZ = zone;
  try {
    fn();
  } finally {
    process.env.TZ = was;
  }
}

const hours = (s: { start: number; end: number }) => (s.end - s.start) / HOUR;

t('weeks start on Monday; a Monday at midnight starts its own week; Sunday night is the week before', () => {
  inZone('UTC', () => {
    const sunday = periodSpan('weekly', Date.UTC(2026, 10, 29, 23, 59));
    assert.equal([sunday.from, sunday.to], ['2026-11-23', '2026-11-29']);
    const monday = periodSpan('weekly', Date.UTC(2026, 10, 30, 0, 0));
    assert.equal([monday.from, monday.to, monday.end], ['2026-11-30', '2026-12-06', Date.UTC(2026, 11, 7)]);
    // The week of 1 January 2027 (a Friday) starts in 2026.
    const newYear = periodSpan('weekly', Date.UTC(2027, 0, 1, 12));
    assert.equal([newYear.from, newYear.to], ['2026-12-28', '2027-01-03']);
  });
});

t('months end on their last day, February and December included', () => {
  inZone('UTC', () => {
    const feb = periodSpan('monthly', Date.UTC(2028, 1, 29, 23));
    assert.equal([feb.from, feb.to, feb.end], ['2028-02-01', '2028-02-29', Date.UTC(2028, 2, 1)]);
    const dec = periodSpan('monthly', Date.UTC(2026, 11, 31, 23, 59));
    assert.equal([dec.from, dec.to, dec.end], ['2026-12-01', '2026-12-31', Date.UTC(2027, 0, 1)]);
    assert.is(dec.lastDay - dec.firstDay, 30);
  });
});

t('DST in New York: days of 23 and 25 hours, the week and month around them', () => {
  inZone('America/New_York', () => {
    // Spring forward on Sunday 8 March 2026 (02:00 EST -> 03:00 EDT).
    const spring = Date.UTC(2026, 2, 8, 17); // 13:00 EDT
    assert.is(hours(periodSpan('daily', spring)), 23);
    const week = periodSpan('weekly', spring);
    assert.equal([week.from, week.to, hours(week)], ['2026-03-02', '2026-03-08', 7 * 24 - 1]);
    assert.is(hours(periodSpan('monthly', spring)), 31 * 24 - 1);
    // Fall back on Sunday 1 November 2026 (02:00 EDT -> 01:00 EST).
    const fall = Date.UTC(2026, 10, 1, 17); // 12:00 EST
    const day = periodSpan('daily', fall);
    assert.equal([day.from, day.to, hours(day)], ['2026-11-01', '2026-11-01', 25]);
    assert.is(hours(periodSpan('monthly', fall)), 30 * 24 + 1);
    // Today's share runs over real hours: at noon of the 25-hour day 13 hours have passed and 12 of 25 are left.
    assert.is(projectedUse(13, 25, fall, day), 13 + 12);
    // The 23-hour day at 13:00 EDT (12 hours in, the midnight before the change): 11 of 23 hours left; the week ends today.
    const springDay = periodSpan('daily', spring);
    assert.is(projectedUse(12, 23, spring, springDay), 12 + 11);
    assert.is(projectedUse(30, 23, spring, week), 30 + 11);
  });
});

t('DST in Berlin: the change falls on other dates than in New York', () => {
  inZone('Europe/Berlin', () => {
    // 29 March 2026 (02:00 CET -> 03:00 CEST); on 8 March Berlin has no change.
    assert.is(hours(periodSpan('daily', Date.UTC(2026, 2, 29, 10))), 23);
    assert.is(hours(periodSpan('daily', Date.UTC(2026, 2, 8, 10))), 24);
    // 25 October 2026 (03:00 CEST -> 02:00 CET): the week of Monday 19 October has 169 hours, October 745.
    const fall = Date.UTC(2026, 9, 25, 11); // 12:00 CET
    assert.is(hours(periodSpan('daily', fall)), 25);
    const week = periodSpan('weekly', fall);
    assert.equal([week.from, week.to, hours(week)], ['2026-10-19', '2026-10-25', 7 * 24 + 1]);
    assert.is(hours(periodSpan('monthly', fall)), 31 * 24 + 1);
    // Local midnight of the month, not UTC's: 1 October 00:00 CEST is 30 September 22:00 UTC.
    assert.is(periodSpan('monthly', fall).start, Date.UTC(2026, 8, 30, 22));
  });
});

t('a :30 zone: the day starts at local midnight, half an hour off the UTC hour', () => {
  inZone('Asia/Kolkata', () => {
    const now = Date.UTC(2026, 10, 24, 0, 30); // 06:00 IST
    const day = periodSpan('daily', now);
    assert.is(day.start, Date.UTC(2026, 10, 23, 18, 30));
    assert.is(day.from, '2026-11-24');
    assert.is(projectedUse(6, 24, now, day), 6 + 18);
  });
});

// Issue 36: one projection per period (the strip's), not today's cost per hour times the hours left.
t('the projection: the use so far, a usual day for each day left, and the part of a usual day today has ahead', () => {
  inZone('UTC', () => {
    const now = Date.UTC(2026, 10, 25, 6); // Wednesday 06:00
    const week = periodSpan('weekly', now);
    // $40 this week, a usual day $10: Thursday to Sunday, and the 18 of 24 hours of today still ahead.
    assert.is(projectedUse(40, 10, now, week), 40 + 10 * (4 + 0.75));
    // A night session: $30 by 03:00 with a usual day of $8 is $30 + 21/24 of $8, not $10 an hour times the 21 hours left.
    const night = Date.UTC(2026, 10, 25, 3);
    assert.is(projectedUse(30, 8, night, periodSpan('daily', night)), 30 + 7);
    // No usual day (nothing before today): the projection is the use.
    assert.is(projectedUse(40, 0, now, week), 40);
    // At the period's very end nothing is left to project.
    assert.is(projectedUse(5, 5, week.end - 1, week), 5 + 5 / (24 * HOUR));
  });
});

t('a usual day: the period\'s ended days, else the 7 days before today (days without usage count as $0)', () => {
  inZone('UTC', () => {
    const now = Date.UTC(2026, 10, 25, 6); // Wednesday 25 November
    const costs = new Map<number, number>();
    const today = periodSpan('daily', now).firstDay;
    costs.set(today - 2, 6); // Monday
    costs.set(today - 1, 3); // Tuesday
    costs.set(today - 5, 70); // the Friday before: not this week
    costs.set(today, 100); // today never counts as a usual day
    const of = (d: number) => costs.get(d) ?? 0;
    assert.is(usualDay(periodSpan('weekly', now), today, of), (6 + 3) / 2);
    assert.is(usualDay(periodSpan('daily', now), today, of), (6 + 3 + 70) / 7);
    assert.is(usualDay(periodSpan('monthly', now), today, of), (6 + 3 + 70) / 24);
  });
});

t('state: ok below 80 % projected, warn from 80 % (on pace, past the amount too), over only for money spent past it', () => {
  assert.is(budgetState(100, 10, 79.99), 'ok');
  assert.is(budgetState(100, 10, 80), 'warn');
  assert.is(budgetState(100, 10, 100), 'warn');
  assert.is(budgetState(100, 10, 100.01), 'warn');
  assert.is(budgetState(100, 100.5, 100.5), 'over');
  assert.is(alerts({ amount: 100, use: 10, projected: 100 }), false);
  assert.is(alerts({ amount: 100, use: 10, projected: 100.01 }), true, 'on pace to pass: alerted');
  assert.is(alerts({ amount: 100, use: 100.5, projected: 100.5 }), true);
});

t.run();
