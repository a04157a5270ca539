// A history of many project folders and sessions in real Chromium against the real server: the overview's projects
// table and the Sessions view's list draw their first rows (the dearest) and keep the others behind "Show more"
// (drawing every row of a big history held the page's main thread), while their count, filter and sort still take
// every row. Needs `npm run build`.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Overview, SessionList } from '../../src/shared/api-types.ts';
import { formatUsd } from '../../ui/src/format.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';

/** More folders (each with one session) than a long list shows at first; each its own repository (no git checkout). */
const FOLDERS = 70;

const test = suite('long lists');
let server: AppServer;
let browser: Browser;
const home = tempDir('cost-long-lists-');

test.before(async () => {
  const now = Date.now();
  for (let i = 0; i < FOLDERS; i++) {
    const cwd = `/home/dev/src/service-${String(i).padStart(2, '0')}`;
    const sessionId = `long-list-${String(i).padStart(2, '0')}`;
    // A cost of its own for each: more output the later the folder.
    writeJsonl(path.join(home.dir, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`), [
      usageLine({ sessionId, cwd, timestamp: new Date(now - (i + 1) * 60_000).toISOString(), messageId: `msg_${i}`, requestId: `req_${i}`, input: 100, output: 1000 * (i + 1) }),
    ]);
  }
  server = await startAppServer({ dir: home.dir, timeoutMs: 30_000 });
  await untilIndexed(server, 30_000);
  browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
});

test.after(async () => {
  await browser?.close();
  await server?.close();
  home.cleanup();
});

/**
 * The table `view` at `url` shows its first page of rows, `costs` (every row's, dearest first) in its `costCell`, the
 * others behind "Show more"; its count is every row's, and its filter finds `cheapest`'s row (the last) from a fresh page.
 */
async function checkLongList(page: Page, url: string, view: string, costCell: string, costs: number[], cheapest: { text: string; cost: number }): Promise<void> {
  await page.goto(url);
  const table = page.locator(`${view} cost-table`);
  const rows = table.locator('tbody tr');
  await rows.first().waitFor();
  const pageSize = await table.evaluate((el) => (el as HTMLElement & { pageSize: number }).pageSize);
  assert.ok(pageSize < costs.length, `the table shows ${pageSize} rows at first, not all ${costs.length}`);
  assert.is(await rows.count(), pageSize);
  assert.is((await table.locator('.count').textContent())?.trim(), String(costs.length));
  assert.equal(await rows.locator(costCell).allTextContents(), costs.slice(0, pageSize).map(formatUsd));

  const more = table.locator('button.more');
  assert.match((await more.textContent()) ?? '', `(${costs.length - pageSize} hidden)`);
  await more.click();
  await rows.nth(Math.min(costs.length, 2 * pageSize) - 1).waitFor({ timeout: 5000 });
  assert.is(await rows.count(), Math.min(costs.length, 2 * pageSize));

  // The filter looks at every row, those behind "Show more" too.
  await page.reload();
  await table.locator('input.filter').fill(cheapest.text);
  await rows.locator(costCell, { hasText: formatUsd(cheapest.cost) }).first().waitFor({ timeout: 5000 });
  assert.is(await rows.count(), 1);
}

test('the overview: the dearest projects first, the others behind "Show more", every one counted and found by the filter', async () => {
  const o = await getJson<Overview>(server, '/api/overview?range=7');
  assert.is(o.projects.length, FOLDERS);
  const byCost = [...o.projects].sort((a, b) => b.cost - a.cost);
  const page = await browser.page();
  const cheapest = byCost.at(-1)!;
  await checkLongList(page, `${server.url}/?view=overview&range=7`, 'cost-overview-view', 'td:nth-child(3)', byCost.map((p) => p.cost),
    { text: cheapest.name, cost: cheapest.cost });
  assert.equal(browser.problems, []);
  await page.close();
});

test('the Sessions view: the dearest sessions first, the others behind "Show more"', async () => {
  const list = await getJson<SessionList>(server, '/api/sessions?range=7');
  assert.is(list.sessions.length, FOLDERS);
  const page = await browser.page();
  const cheapest = list.sessions.at(-1)!;
  await checkLongList(page, `${server.url}/?view=sessions&range=7`, 'cost-sessions-view', 'td:nth-child(2) b', list.sessions.map((s) => s.cost),
    { text: cheapest.id, cost: cheapest.cost });
  assert.equal(browser.problems, []);
  await page.close();
});

test.run();
