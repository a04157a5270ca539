// Live figures in Chromium against the real server (dist/main.js) watching a real transcript: a line appended to it
// shows on the open page within 2 s (no click, no 30 s poll), the "updated" note says how old the figures are, and at
// no moment do the strip's Today and the Range cost card (Today) disagree: a sampler reads both every animation frame
// from before the append until both show the new total. Then the tab's title and icon, and a one-day Insights without
// the charts a day cannot fill (issue 36). Needs `npm run build`.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { suiteBrowser } from '../helpers/browser.ts';
import { appendJsonl, tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';

const HAIKU = 'claude-haiku-4-5-20251001'; // $1 per M input tokens
const work = tempDir('cost-live-');
const file = path.join(work.dir, 'projects', '-home-dev-live', 's1.jsonl');
/** A minute ago, but never before local midnight: the line must count as today. */
function todayTs(): string {
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  return new Date(Math.max(midnight.getTime(), Date.now() - 60_000)).toISOString();
}
const dollars = (usd: number, i: number) =>
  usageLine({ sessionId: 's1', timestamp: todayTs(), model: HAIKU, messageId: `m${i}`, requestId: `r${i}`, input: usd * 1_000_000, output: 0 });
writeJsonl(file, [dollars(1, 0)]);

let server: AppServer;
const test = suite('live figures');
const browser = suiteBrowser(test, { viewport: { width: 1440, height: 900 } });
test.before(async () => {
  server = await startAppServer({ dir: work.dir });
  await untilIndexed(server, 20_000);
});
test.after(async () => {
  await server?.close();
  work.cleanup();
});

/** Both figures as the page shows them now ('' while a card is not rendered). */
const READ = `(() => {
  const value = (root, stat) => root?.shadowRoot?.querySelector('cost-stat-card[data-stat="' + stat + '"]')?.shadowRoot?.querySelector('.value')?.textContent?.trim() ?? '';
  const view = document.querySelector('cost-overview-view');
  return [value(view?.shadowRoot?.querySelector('cost-glance-strip'), 'glance-today'), value(view, 'cost')];
})()`;

async function figures(page: Page): Promise<[string, string]> {
  return (await page.evaluate(READ)) as [string, string];
}

test('an appended line shows within 2 s, and the strip and the range card never disagree', async () => {
  const page = await browser.page();
  await page.goto(`${server.url}/?view=overview&range=today`);
  await page.waitForFunction(`(${READ}).every((v) => v === '$1.00')`, null, { timeout: 10_000 }).catch(async (e: unknown) => {
    throw new Error(`${String(e)}: ${JSON.stringify(await figures(page))} ${browser.problems.join('; ')}`);
  });
  // The stream is open before the line is written.
  await page.locator('cost-updated-note .note.live').waitFor({ timeout: 5_000 });
  assert.match((await page.locator('cost-updated-note .note').textContent()) ?? '', /Updated (just now|\d+ s ago)/);

  await page.evaluate(`window.__samples = []; (function sample() { window.__samples.push(${READ}); if (!window.__stop) requestAnimationFrame(sample); })()`);
  appendJsonl(file, [dollars(2, 1)]);
  const appended = performance.now();
  await page.waitForFunction(`(${READ}).every((v) => v === '$3.00')`, null, { timeout: 2_000 });
  const took = performance.now() - appended;
  await page.evaluate('window.__stop = true');
  const samples = (await page.evaluate('window.__samples')) as [string, string][];
  const disagree = samples.filter(([a, b]) => a && b && a !== b);
  assert.ok(samples.length > 2, `${samples.length} samples`);
  assert.equal(disagree.slice(0, 3), [], `the cards disagreed in ${disagree.length} of ${samples.length} frames`);
  assert.ok(took < 2_000, `shown ${Math.round(took)} ms after the append`);
  assert.equal(await figures(page), ['$3.00', '$3.00']);
  assert.equal(browser.problems, []);
  await page.close();
});

test('the tab\'s title carries today\'s cost, the block\'s time left and what is open; the icon shows an alert', async () => {
  const page = await browser.page();
  await page.goto(`${server.url}/?view=overview&range=today`);
  await page.waitForFunction(() => /^\$3\.00 today · \d+h \d+m left — Cost$/.test(document.title), null, { timeout: 10_000 }).catch(async (e: unknown) => {
    throw new Error(`${String(e)}: ${await page.title()}`);
  });
  const icon = () => page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.getAttribute('href') ?? '');
  assert.not.match(decodeURIComponent(await icon()), /circle/);
  // A daily budget passed: the title and the icon say so, for a tab nobody looks at.
  const r = await fetch(`${server.url}/api/budgets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ period: 'daily', amount: 2 }) });
  assert.is(r.status, 200, await r.text());
  await page.locator('cost-top-bar button[aria-label="Refresh now"]').click();
  await page.waitForFunction(() => document.title.startsWith('! $3.00 today'), null, { timeout: 70_000 });
  assert.match(decodeURIComponent(await icon()), /<circle/);
  await page.goto(`${server.url}/?view=detail&session=s1`);
  await page.waitForFunction(() => / · session s1 — Cost$/.test(document.title), null, { timeout: 10_000 });
  assert.equal(browser.problems, []);
  await page.close();
});

test('a one-day range draws no weekday heatmap and no weekly chart; a longer one does', async () => {
  const page = await browser.page();
  await page.goto(`${server.url}/?view=insights&range=today`);
  await page.locator('cost-insights-view cost-stat-card[data-stat="run-rate"]').waitFor();
  assert.is(await page.locator('cost-insights-view cost-heatmap').count(), 0);
  assert.is(await page.locator('cost-insights-view cost-chart-series[label="Weekly cost"]').count(), 0);
  await page.goto(`${server.url}/?view=insights&range=7`);
  await page.locator('cost-insights-view cost-heatmap').waitFor();
  assert.is(await page.locator('cost-insights-view cost-chart-series[label="Weekly cost"]').count(), 1);
  assert.equal(browser.problems, []);
  await page.close();
});

test.run();
