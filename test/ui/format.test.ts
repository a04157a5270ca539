import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatBucket, formatBytes, formatCount, formatDate, formatDateTime, formatDayRange, formatDuration, formatInt, formatMoment, formatMoney, formatPercent, formatRelative, formatTime, formatTokens, formatUsd, formatUsdAxis, formatUsdCompact, formatWeekday, shortModel } from '../../ui/src/format.ts';

// Dates are built from local parts, so these hold in any TZ.
const NOW = new Date(2025, 2, 10, 12, 0, 0);

const money = suite('format: money');

money('formatUsd keeps cents, and small amounts keep up to 4 decimals', () => {
  assert.is(formatUsd(0), '$0.00');
  assert.is(formatUsd(1234.567), '$1,234.57');
  assert.is(formatUsd(0.5), '$0.50');
  assert.is(formatUsd(0.0042), '$0.0042');
  assert.is(formatUsd(0.00001), '<$0.0001');
  assert.is(formatUsd(-2.5), '-$2.50');
  assert.is(formatUsd(Number.NaN), '$0.00');
});

money('formatMoney shows the currency of an extra-usage account', () => {
  assert.is(formatMoney(12.34, 'USD'), '$12.34');
  assert.is(formatMoney(12.34, 'EUR'), '€12.34');
  assert.is(formatMoney(5, 'GBP'), '£5.00');
  assert.is(formatMoney(1.5, 'ZZ1'), '1.50 ZZ1');
});

money('formatUsdAxis: one form for every tick', () => {
  assert.equal(formatUsdAxis([0, 50, 100, 150]), ['$0', '$50', '$100', '$150']);
  assert.equal(formatUsdAxis([0, 5, 10, 15]), ['$0', '$5', '$10', '$15']);
  assert.equal(formatUsdAxis([0, 0.5, 1, 1.5]), ['$0.00', '$0.50', '$1.00', '$1.50']);
  assert.equal(formatUsdAxis([0, 0.005, 0.01, 0.015]), ['$0.000', '$0.005', '$0.010', '$0.015']);
  assert.equal(formatUsdAxis([0, 0.1 + 0.2, 0.6]), ['$0.00', '$0.30', '$0.60'], 'float noise of summed steps');
  assert.equal(formatUsdAxis([0, 5000, 10_000, 15_000]), ['$0', '$5K', '$10K', '$15K']);
  assert.equal(formatUsdAxis([0, 2_500_000]), ['$0', '$2.5M']);
});

money('formatUsdCompact shortens large values', () => {
  assert.is(formatUsdCompact(3.456), '$3.46');
  assert.is(formatUsdCompact(42.4), '$42');
  assert.is(formatUsdCompact(1234), '$1,234');
  assert.is(formatUsdCompact(12_345), '$12.3K');
  assert.is(formatUsdCompact(2_500_000), '$2.5M');
});

money.run();

const numbers = suite('format: numbers');

numbers('formatTokens uses K/M/B with one decimal, none when whole', () => {
  assert.is(formatTokens(950), '950');
  assert.is(formatTokens(1000), '1K');
  assert.is(formatTokens(12_345), '12.3K');
  assert.is(formatTokens(4_500_000), '4.5M');
  assert.is(formatTokens(1_200_000_000), '1.2B');
  assert.is(formatTokens(250_000), '250K');
  assert.is(formatTokens(Number.POSITIVE_INFINITY), '0');
});

numbers('formatInt and formatPercent', () => {
  assert.is(formatInt(12345.6), '12,346');
  assert.is(formatPercent(0.4567), '45.7%');
  assert.is(formatPercent(1, 0), '100%');
  assert.is(formatPercent(Number.NaN), '0.0%');
  assert.is(formatPercent(0.004, 0), '<1%', 'a share that is not zero never reads 0%');
  assert.is(formatPercent(0.0004), '<0.1%');
  assert.is(formatPercent(0.006, 0), '1%');
  assert.is(formatPercent(0, 0), '0%');
});

numbers('formatCount agrees the noun with the number', () => {
  assert.is(formatCount(1, 'project'), '1 project');
  assert.is(formatCount(0, 'project'), '0 projects');
  assert.is(formatCount(1204, 'message'), '1,204 messages');
});

numbers('formatBytes steps by 1024', () => {
  assert.is(formatBytes(512), '512 B');
  assert.is(formatBytes(1536), '1.5 KB');
  assert.is(formatBytes(3.2 * 1024 * 1024), '3.2 MB');
});

numbers.run();

const dates = suite('format: dates and times');

dates('formatDate treats YYYY-MM-DD as a local day and adds the year only when it differs', () => {
  assert.is(formatDate('2025-03-05', NOW), 'Mar 5');
  assert.is(formatDate('2024-12-31', NOW), 'Dec 31, 2024');
  assert.is(formatDate(new Date(2025, 0, 2, 23, 59), NOW), 'Jan 2');
  assert.is(formatDate(null, NOW), '—');
  assert.is(formatDate('not a date', NOW), '—');
});

dates('formatDateTime and formatTime use 24 h local time', () => {
  const t = new Date(2025, 2, 5, 14, 7);
  assert.is(formatTime(t), '14:07');
  assert.is(formatDateTime(t, NOW), 'Mar 5, 14:07');
  assert.is(formatDateTime(t.toISOString(), NOW), 'Mar 5, 14:07');
  assert.is(formatTime(undefined), '—');
});

dates('formatWeekday', () => {
  assert.is(formatWeekday('2025-03-10'), 'Mon');
});

dates('formatBucket reads day and hour bucket keys (this year: no year shown)', () => {
  const y = new Date().getFullYear();
  assert.is(formatBucket(`${y}-03-05`), 'Mar 5');
  assert.is(formatBucket(`${y}-03-05T09`), '09:00');
  assert.is(formatBucket(`${y}-03-05T09`, true), 'Mar 5 09:00');
  assert.is(formatBucket(`${y - 1}-03-05`), `Mar 5, ${y - 1}`);
  assert.is(formatBucket('weird'), 'weird');
});

dates('formatDayRange', () => {
  assert.is(formatDayRange('2025-03-01', '2025-03-05', NOW), 'Mar 1 – Mar 5');
  assert.is(formatDayRange('2025-03-05', '2025-03-05', NOW), 'Mar 5');
  assert.is(formatDayRange('2024-12-20', '2025-01-05', NOW), 'Dec 20, 2024 – Jan 5, 2025', 'a span into another year: the year on both ends');
  assert.is(formatDayRange('2024-11-01', '2024-11-30', NOW), 'Nov 1, 2024 – Nov 30, 2024');
});

dates('formatDuration', () => {
  assert.is(formatDuration(-5), '0s');
  assert.is(formatDuration(45_000), '45s');
  assert.is(formatDuration(12 * 60_000 + 5_000), '12m');
  assert.is(formatDuration(2 * 3_600_000 + 5 * 60_000), '2h 05m');
  assert.is(formatDuration(3 * 86_400_000 + 4 * 3_600_000), '3d 4h');
});

// Issue 36: "Last activity: Apr 18, 13:50 (Apr 18)" said the date twice.
dates('formatMoment: the relative part only while it says something the date does not', () => {
  const at = new Date(NOW.getTime() - 3 * 86_400_000);
  assert.is(formatMoment(at, NOW), `${formatDateTime(at)} (3 days ago)`);
  const old = new Date(NOW.getTime() - 90 * 86_400_000);
  assert.is(formatMoment(old, NOW), formatDateTime(old));
});

dates('formatRelative, past and future', () => {
  const ago = (ms: number) => new Date(NOW.getTime() - ms);
  assert.is(formatRelative(ago(10_000), NOW), 'just now');
  assert.is(formatRelative(ago(5 * 60_000), NOW), '5 min ago');
  assert.is(formatRelative(ago(3 * 3_600_000), NOW), '3 h ago');
  assert.is(formatRelative(ago(86_400_000), NOW), '1 day ago');
  assert.is(formatRelative(ago(2 * 86_400_000), NOW), '2 days ago');
  assert.is(formatRelative(ago(-10 * 60_000), NOW), 'in 10 min');
  assert.is(formatRelative(ago(60 * 86_400_000), NOW), 'Jan 9');
});

dates.run();

const models = suite('format: models');

models('shortModel drops vendor prefix, claude- and the date suffix', () => {
  assert.is(shortModel('claude-sonnet-4-5-20250929'), 'sonnet-4-5');
  assert.is(shortModel('anthropic/claude-opus-4-1'), 'opus-4-1');
  assert.is(shortModel('claude-3-5-haiku@20241022'), '3-5-haiku');
  assert.is(shortModel('gpt-4o'), 'gpt-4o');
});

models.run();
