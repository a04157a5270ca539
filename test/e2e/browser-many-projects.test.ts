// A history of many project folders in real Chromium against the real server: the overview's projects table draws the
// dearest rows first and keeps the others behind "Show more" (drawing every row of a big history held the page's main
// thread), while its count, its filter and its sort still take every project. Needs `npm run build`.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview } from '../../src/shared/api-types.ts';
import { formatUsd } from '../../ui/src/format.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';

/** More folders than the table's first page; each its own repository (no git checkout behind any). */
const FOLDERS = 70;

const test = suite('the overview over many projects');
let server: AppServer;
let browser: Browser;
const home = tempDir('cost-many-projects-');

test.before(async () => {
  const now = Date.now();
  for (let i = 0; i < FOLDERS; i++) {
    const cwd = `/home/dev/src/service-${String(i).padStart(2, '0')}`;
    const sessionId = `many-${i}`;
    // A cost of its own for each folder: more output the later the folder.
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

test('the dearest projects first, the others behind "Show more", every one counted and found by the filter', async () => {
  const o = await getJson<Overview>(server, '/api/overview?range=7');
  assert.is(o.projects.length, FOLDERS);
  const byCost = [...o.projects].sort((a, b) => b.cost - a.cost);
  const page = await browser.page();
  await page.goto(`${server.url}/?view=overview&range=7`);
  const table = page.locator('cost-overview-view cost-table');
  const rows = table.locator('tbody tr');
  await rows.first().waitFor();
  const pageSize = await table.evaluate((el) => (el as HTMLElement & { pageSize: number }).pageSize);
  assert.ok(pageSize < FOLDERS, `the table shows ${pageSize} rows at first, not all ${FOLDERS}`);
  assert.is(await rows.count(), pageSize);
  assert.is((await table.locator('.count').textContent())?.trim(), String(FOLDERS));
  assert.equal(await rows.locator('td:nth-child(3)').allTextContents(), byCost.slice(0, pageSize).map((p) => formatUsd(p.cost)));

  const more = table.locator('button.more');
  assert.match((await more.textContent()) ?? '', `(${FOLDERS - pageSize} hidden)`);
  await more.click();
  await page.waitForFunction((n) => document.querySelector('cost-overview-view')?.shadowRoot?.querySelector('cost-table')?.shadowRoot
    ?.querySelectorAll('tbody tr').length === n, Math.min(FOLDERS, 2 * pageSize));

  // The filter looks at every project, those behind "Show more" too: the cheapest one, on a fresh page.
  await page.reload();
  const cheapest = byCost.at(-1)!;
  await table.locator('input.filter').fill(cheapest.name);
  await rows.locator('td:nth-child(3)', { hasText: formatUsd(cheapest.cost) }).first().waitFor({ timeout: 5000 });
  assert.equal((await rows.locator('td:nth-child(2)').allTextContents()).map((n) => n.trim()), [cheapest.name]);
  assert.equal(browser.problems, []);
  await page.close();
});

test.run();
