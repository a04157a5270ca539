// The Overview strip and the calendar presets in Chromium against the real server (dist/main.js, TZ=UTC) over crafted
// transcripts with known costs: today, this week and this month so far (sums computed here from the timestamps), the
// month end at the pace of the ended days, the active block, the plan usage once the probe (the fake CLI) answered;
// presets This week / This month / Last month / All, a range label with the year, and the cards' change against the
// previous period; the monthly table and GET /api/monthly; the last activity offered for an empty range. At 1440 px dark and 800 px
// light, in two themes. Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Insights, Monthly } from '../../src/shared/api-types.ts';
import { formatDuration, formatUsd } from '../../ui/src/format.ts';
import { changeText } from '../../ui/src/previous-period.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { FAKE_CLAUDE } from '../helpers/paths.ts';
import { launchThemed, type Browser } from '../helpers/browser.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';

const DAY = 86_400_000;
const now = Date.now();
const todayStart = Math.floor(now / DAY) * DAY; // UTC midnight: the server runs in UTC
const HAIKU = 'claude-haiku-4-5-20251001'; // $1 per M input tokens
// [timestamp, dollars]: today (the active block), yesterday, 3, 10 and 40 days ago.
const ENTRIES: [number, number][] = [
  [Math.max(todayStart, now - 5 * 60_000), 1],
  [now - DAY, 2],
  [now - 3 * DAY, 4],
  [now - 10 * DAY, 8],
  [now - 40 * DAY, 16],
];
const work = tempDir('cost-glance-strip-');
writeJsonl(path.join(work.dir, 'projects', '-home-dev-strip', 's1.jsonl'), ENTRIES.map(([ts, usd], i) =>
  usageLine({ timestamp: new Date(ts).toISOString(), model: HAIKU, messageId: `m${i}`, requestId: `r${i}`, input: usd * 1_000_000, output: 0 })));

const d = new Date(now);
const weekStart = todayStart - ((d.getUTCDay() + 6) % 7) * DAY;
const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
const sumSince = (from: number, to = Infinity) => ENTRIES.filter(([ts]) => ts >= from && ts < to).reduce((s, [, c]) => s + c, 0);
const monthCost = sumSince(monthStart);
const endedDays = Math.round((todayStart - monthStart) / DAY);
const daysInMonth = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
/**
 * Issue 36's one projection: so far + a usual day (the month's ended days' average, else the 7 days before today's) for
 * each day left after today, + the part of a usual day today has ahead at `at`.
 */
const projectedAt = (at: number) => {
  const usual = endedDays ? sumSince(monthStart, todayStart) / endedDays : sumSince(todayStart - 7 * DAY, todayStart) / 7;
  return monthCost + usual * (daysInMonth - d.getUTCDate() + (todayStart + DAY - at) / DAY);
};

const SETUPS = [
  { name: '1440 px, nord dark', width: 1440, theme: 'nord', mode: 'dark' as const },
  { name: '800 px, github light', width: 800, theme: 'github', mode: 'light' as const },
];
let server: AppServer;

async function cardText(page: Page, stat: string): Promise<{ value: string; sub: string }> {
  const card = page.locator(`cost-glance-strip cost-stat-card[data-stat="${stat}"]`);
  await card.waitFor();
  return {
    value: ((await card.locator('.value').textContent()) ?? '').trim(),
    sub: ((await card.locator('.sub').count()) ? (await card.locator('.sub').textContent()) ?? '' : '').trim(),
  };
}

for (const setup of SETUPS) {
  let browser: Browser;
  let page: Page;
  const test = suite(`the Overview strip and calendar presets, ${setup.name}`);

  test.before(async () => {
    server ??= await startAppServer({ dir: work.dir, env: { TZ: 'UTC', AGENT_BIN: FAKE_CLAUDE, FAKE_CLAUDE_MODE: 'success' }, timeoutMs: 30_000 });
    await untilIndexed(server, 30_000);
    ({ browser, page } = await launchThemed(server.url, setup));
  });

  test.after(async () => {
    await browser?.close();
  });

  test('today, this week and this month so far, the month end, the active block: whatever range is shown', async () => {
    await page.goto(`${server.url}/?view=overview&range=3`);
    assert.is(await page.evaluate(() => document.body.dataset.theme), setup.theme);
    assert.is((await cardText(page, 'glance-today')).value, formatUsd(sumSince(todayStart)));
    assert.is((await cardText(page, 'glance-week')).value, formatUsd(sumSince(weekStart)));
    const month = await cardText(page, 'glance-month');
    assert.is(month.value, formatUsd(monthCost));
    assert.is(month.sub, `${formatUsd(projectedAt(Date.now()))} by month end`);
    const ins = await getJson<Insights>(server, '/api/insights?range=today');
    const burn = ins.activeBlock?.burn;
    assert.ok(burn, 'an active block');
    const block = await cardText(page, 'glance-block');
    // The minutes left tick with the clock: compare with the API's answer within a minute.
    const left = [burn!.minutesLeft, burn!.minutesLeft - 1].map((m) => `${formatDuration(m * 60_000)} left`);
    assert.ok(left.includes(block.value), `${block.value} in ${left}`);
    assert.ok(block.sub.startsWith(`${formatUsd(burn!.costPerHour)}/h · ${formatUsd(burn!.projectedCost)} projected`), block.sub);
  });

  test('the plan usage shows once the probe has answered', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    const recent = await getJson<{ limits: unknown }>(server, '/api/usage-limits/recent');
    if (setup === SETUPS[0]) {
      assert.is(recent.limits, null);
      assert.not.match((await cardText(page, 'glance-block')).sub, /plan/);
    }
    // The dialog asks the probe; the strip reads its answer on the next refresh.
    await page.locator('cost-top-bar [data-action="usage"]').click();
    await page.locator('cost-usage-dialog dialog').waitFor({ state: 'visible' });
    await page.locator('cost-usage-dialog .usage-window').first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
    await page.locator('cost-top-bar button[aria-label="Refresh now"]').click();
    await page.locator('cost-glance-strip cost-stat-card[data-stat="glance-block"][sub*="plan"]').waitFor({ timeout: 10_000 });
    assert.match((await cardText(page, 'glance-block')).sub, /plan \d+% \(Week \(Opus\)\)/);
  });

  test('presets This week, This month, Last month and All ask the server for calendar periods', async () => {
    await page.goto(`${server.url}/?view=overview&range=3`);
    await page.locator('cost-overview-view cost-stat-card[data-stat="cost"]').waitFor();
    for (const [label, value, cost] of [['Week', 'week', sumSince(weekStart)], ['Month', 'month', monthCost], ['All', 'all', 31]] as const) {
      // The strip may have asked for this period already (the answer is then in the page's memory cache).
      await page.locator(`cost-range-picker button[data-range="${label}"]`).click();
      await page.locator(`cost-range-picker button[data-range="${label}"][aria-pressed="true"]`).waitFor();
      assert.is(new URL(page.url()).searchParams.get('range'), value);
      await page.waitForFunction(([c]) => {
        const card = document.querySelector('cost-overview-view')?.shadowRoot?.querySelector('cost-stat-card[data-stat="cost"]');
        return card?.getAttribute('value') === c;
      }, [formatUsd(cost)] as const, { timeout: 5000 });
    }
    await page.locator('cost-range-picker button[data-range="Last mo"]').click();
    await page.locator('cost-range-picker button[data-range="Last mo"][aria-pressed="true"]').waitFor();
    assert.is(new URL(page.url()).searchParams.get('range'), 'lastmonth');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
  });

  test('a range not inside the current year is labelled with the year on both ends', async () => {
    const y = d.getUTCFullYear();
    await page.goto(`${server.url}/?view=overview&range=${y - 1}-12-20..${y}-01-01`);
    const label = page.locator('cost-overview-view header .range');
    await label.waitFor();
    assert.is((await label.textContent())?.trim(), `Dec 20, ${y - 1} – Jan 1, ${y}`);
  });

  test('the cards show the change against the previous period of the same length', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    // 7 days (today and the 6 before): $1 + $2 + $4; the 7 days before them: the $8 of 10 days ago.
    const change = page.locator('cost-overview-view cost-stat-card[data-stat="cost"] .change');
    await change.waitFor();
    assert.is((await change.textContent())?.trim(), changeText(sumSince(todayStart - 6 * DAY), sumSince(todayStart - 13 * DAY, todayStart - 6 * DAY), 'previous 7 days'));
    assert.match((await change.textContent()) ?? '', /^−13% vs previous 7 days$/);
    const sessions = page.locator('cost-overview-view cost-stat-card[data-stat="sessions"] .change');
    assert.is((await sessions.textContent())?.trim(), 'no change vs previous 7 days');
    // All time has no previous period.
    await page.goto(`${server.url}/?view=overview&range=all`);
    await page.locator('cost-overview-view cost-stat-card[data-stat="cost"][value="$31.00"]').waitFor();
    assert.is(await page.locator('cost-overview-view .change').count(), 0);
  });

  test('the daily chart overlays the previous period on request: a legend entry and both values in the tooltip', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    const chart = page.locator('cost-overview-view cost-chart-series');
    const toggle = chart.locator('button.compare');
    await toggle.waitFor();
    assert.is((await toggle.textContent())?.trim(), 'Compare with previous 7 days');
    assert.is(await toggle.getAttribute('aria-pressed'), 'false');
    assert.is(await chart.locator('polyline.previous').count(), 0);
    await toggle.focus();
    await page.keyboard.press('Enter');
    await chart.locator('polyline.previous').waitFor();
    assert.is(await toggle.getAttribute('aria-pressed'), 'true');
    // One vertex per day; the legend sums the previous 7 days (the $8 of 10 days ago).
    const vertices = ((await chart.locator('polyline.previous').getAttribute('points')) ?? '').trim().split(/\s+/);
    assert.is(vertices.length, 7);
    const legend = chart.locator('.legend .item.prev');
    assert.is((await legend.textContent())?.replace(/\s+/g, ' ').trim(), `previous 7 days ${formatUsd(8)}`);
    // Day 3 of the range (3 days ago, $4) against day 3 of the previous period (10 days ago, $8).
    await chart.locator('g.col[data-i="3"]').focus();
    const tip = chart.locator('.tip');
    await tip.waitFor();
    assert.is((await tip.locator('.tv').textContent())?.trim(), formatUsd(4));
    const previous = (await tip.locator('.tp').textContent())?.replace(/\s+/g, ' ').trim() ?? '';
    assert.ok(previous.startsWith(`previous 7 days: ${formatUsd(8)} (`), previous);
    assert.ok((await chart.locator('.sr thead th').allTextContents()).includes('previous 7 days'), 'the table alternative has the column');
    await toggle.click();
    assert.is(await chart.locator('polyline.previous').count(), 0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
  });

  test('All is labelled "All time", never from 1970; its run rate counts the whole days since the first activity', async () => {
    for (const view of ['overview', 'insights']) {
      await page.goto(`${server.url}/?view=${view}&range=all`);
      const label = page.locator(`cost-${view}-view header .range`);
      await label.waitFor();
      assert.is((await label.textContent())?.trim(), 'All time', view);
    }
    // The first entry is 40 days ago: the days from its day to yesterday, not the days since 1970.
    const firstDay = Math.floor(ENTRIES[ENTRIES.length - 1]![0] / DAY) * DAY;
    const days = Math.round((todayStart - firstDay) / DAY);
    const ins = await getJson<Insights>(server, '/api/insights?range=all');
    assert.is(ins.runRate.days, days);
    assert.is(ins.runRate.dailyAvg, sumSince(0, todayStart) / days);
    const sub = page.locator('cost-insights-view cost-stat-card[data-stat="run-rate"] .sub');
    assert.is((await sub.textContent())?.trim(), `${formatUsd(sumSince(0, todayStart) / days)}/day over ${days} whole days`);
  });

  test('the monthly table: every month with cost, tokens, top model and change; exported as CSV', async () => {
    const byMonth = new Map<string, number>();
    for (const [ts, usd] of ENTRIES) byMonth.set(new Date(ts).toISOString().slice(0, 7), (byMonth.get(new Date(ts).toISOString().slice(0, 7)) ?? 0) + usd);
    const expected = [...byMonth].sort((a, b) => (a[0] < b[0] ? 1 : -1));
    const api = await getJson<Monthly>(server, '/api/monthly');
    assert.equal(api.months.map((m) => [m.month, m.cost, m.totalTokens, m.topModel]), expected.map(([m, c]) => [m, c, c * 1_000_000, HAIKU]));
    assert.equal((await getJson<Monthly>(server, '/api/monthly?project=-nowhere')).months, []);
    await page.goto(`${server.url}/?view=overview&range=7`);
    await page.locator('cost-overview-view details.months summary').click();
    const table = page.locator('cost-monthly-table cost-table');
    await table.locator('tbody tr').first().waitFor();
    assert.is(await table.locator('tbody tr').count(), expected.length);
    const [dl] = await Promise.all([page.waitForEvent('download'), table.locator('button.export').click()]);
    const csv = fs.readFileSync((await dl.path()) as string, 'utf8').trim().split('\r\n');
    assert.is(csv[0], 'Month,Cost,Tokens,Messages,Top model,Change');
    const [month, cost] = expected[0]!;
    const before = byMonth.get(expected[1]?.[0] ?? '');
    const prevKey = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    const change = before && expected[1]![0] === prevKey ? String(Math.round(((cost - before) / before) * 1e6) / 1e6) : '';
    assert.is(csv[1], [month, cost, cost * 1_000_000, expected.length > 0 ? ENTRIES.filter(([ts]) => new Date(ts).toISOString().startsWith(month)).length : 0, HAIKU, change].join(','));
  });

  test('an empty range over a history says when the last activity was and shows it on request', async () => {
    const y = d.getUTCFullYear() - 3;
    await page.goto(`${server.url}/?view=overview&range=${y}-01-01..${y}-01-31`);
    const empty = page.locator('cost-overview-view cost-empty');
    await empty.locator('.last').waitFor();
    assert.match((await empty.locator('.last').textContent()) ?? '', /^Last activity: .+ \(.+\)\.$/);
    await empty.locator('button.show-last').click();
    const to = new Date(ENTRIES[0]![0]).toISOString().slice(0, 10);
    await page.waitForFunction((t) => new URL(location.href).searchParams.get('range')?.endsWith(`..${t}`), to, { timeout: 5000 });
    const from = new Date(Date.parse(`${to}T00:00:00Z`) - 29 * DAY).toISOString().slice(0, 10);
    await page.locator(`cost-overview-view cost-stat-card[data-stat="cost"][value="${formatUsd(sumSince(Date.parse(`${from}T00:00:00Z`)))}"]`).waitFor({ timeout: 5000 });
  });

  test('no console errors or failed requests', () => {
    assert.equal(browser.problems, []);
  });

  test.run();
}

const done = suite('the Overview strip: the server stops');
done('closes', async () => {
  await server?.close();
  work.cleanup();
});
done.run();
