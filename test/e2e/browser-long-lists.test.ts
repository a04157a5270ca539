// A history of many project folders and sessions in real Chromium against the real server: the long lists (the
// overview's projects; the sessions of the Sessions view, a project and a repository; a session's messages) draw
// their first rows and keep the others behind "Show more" (drawing every row of a big history held the page's main
// thread), while their count, filter and sort still take every row. Needs `npm run build`.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Overview, ProjectSessions, SessionDetail, SessionList } from '../../src/shared/api-types.ts';
import { formatUsd } from '../../ui/src/format.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';

/** Folders of one session each, and the sessions of one more folder: each more than a long list shows at first. */
const FOLDERS = 70;
const BIG_FOLDER_SESSIONS = 60;
const BIG_CWD = '/home/dev/src/monorepo';
/** The messages of the first folder's session: more than its Messages table shows at first. */
const LONG_SESSION_MESSAGES = 60;

const test = suite('long lists');
let server: AppServer;
let browser: Browser;
const home = tempDir('cost-long-lists-');

/**
 * One session in the folder of `cwd` of `messages` responses a minute apart, the last `minutesAgo` before now; its
 * cost grows with `output`. Every third response costs more the later it comes, so the dearest is among the last.
 */
function session(cwd: string, sessionId: string, minutesAgo: number, output: number, messages = 1): void {
  writeJsonl(path.join(home.dir, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`), Array.from({ length: messages }, (_, k) =>
    usageLine({ sessionId, cwd, timestamp: new Date(Date.now() - (minutesAgo + messages - 1 - k) * 60_000).toISOString(), messageId: `msg_${sessionId}_${k}`,
      requestId: `req_${sessionId}_${k}`, input: 100, output: k % 3 === 0 ? output + 10 * k : output })));
}

test.before(async () => {
  for (let i = 0; i < FOLDERS; i++) {
    session(`/home/dev/src/service-${String(i).padStart(2, '0')}`, `long-list-${String(i).padStart(2, '0')}`, i + 1, 1000 * (i + 1), i ? 1 : LONG_SESSION_MESSAGES);
  }
  // Newer the dearer, except every third: the project's order (the latest first) is not its cost's.
  for (let j = 0; j < BIG_FOLDER_SESSIONS; j++) session(BIG_CWD, `mono-${String(j).padStart(2, '0')}`, 100 + j, 700 * (j % 3 === 0 ? j + 1 : BIG_FOLDER_SESSIONS - j));
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
 * The table `table` at `url` shows its first page of rows, whose `cell` texts are the first of `cells` (every row's, in
 * the table's order), the others behind "Show more"; its count is every row's; from a fresh page its filter (a table
 * that has one), given `filter.find`, leaves the one row whose cell reads `filter.found`. Returns the page's size.
 */
async function checkLongList(page: Page, url: string, table: string, cell: string, cells: string[], filter?: { find: string; found: string }): Promise<number> {
  await page.goto(url);
  const t = page.locator(table);
  const rows = t.locator('tbody tr');
  await rows.first().waitFor();
  const pageSize = await t.evaluate((el) => (el as HTMLElement & { pageSize: number }).pageSize);
  assert.ok(pageSize < cells.length, `${table} shows ${pageSize} rows at first, not all ${cells.length}`);
  assert.is(await rows.count(), pageSize);
  assert.is((await t.locator('.count').textContent())?.trim(), String(cells.length));
  assert.equal(await rows.locator(cell).allTextContents(), cells.slice(0, pageSize));

  const more = t.locator('button.more');
  assert.match((await more.textContent()) ?? '', `(${cells.length - pageSize} hidden)`);
  await more.click();
  await rows.nth(Math.min(cells.length, 2 * pageSize) - 1).waitFor({ timeout: 5000 });
  assert.is(await rows.count(), Math.min(cells.length, 2 * pageSize));

  // The filter looks at every row, those behind "Show more" too.
  if (filter) {
    await page.reload();
    await t.locator('input.filter').fill(filter.find);
    await rows.locator(cell, { hasText: filter.found }).first().waitFor({ timeout: 5000 });
    assert.is(await rows.count(), 1);
  }
  return pageSize;
}

function dearestFirst<T extends { cost: number }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => b.cost - a.cost);
}

test('the overview: the dearest projects first, the others behind "Show more", every one counted and found by the filter', async () => {
  const o = await getJson<Overview>(server, '/api/overview?range=7');
  assert.is(o.projects.length, FOLDERS + 1);
  const byCost = dearestFirst(o.projects);
  const cheapest = byCost.at(-1)!;
  const page = await browser.page();
  await checkLongList(page, `${server.url}/?view=overview&range=7`, 'cost-overview-view cost-table', 'td:nth-child(3)', byCost.map((p) => formatUsd(p.cost)),
    { find: cheapest.name, found: formatUsd(cheapest.cost) });
  assert.equal(browser.problems, []);
  await page.close();
});

test('the Sessions view: the dearest sessions first, the others behind "Show more"', async () => {
  const list = await getJson<SessionList>(server, '/api/sessions?range=7');
  assert.is(list.sessions.length, FOLDERS + BIG_FOLDER_SESSIONS);
  const cheapest = list.sessions.at(-1)!;
  const page = await browser.page();
  await checkLongList(page, `${server.url}/?view=sessions&range=7`, 'cost-sessions-view cost-table', 'td:nth-child(2) b', list.sessions.map((s) => formatUsd(s.cost)),
    { find: cheapest.id, found: formatUsd(cheapest.cost) });
  assert.equal(browser.problems, []);
  await page.close();
});

test('a project\'s and a repository\'s sessions: their first page, in their own order, the others behind "Show more"', async () => {
  const o = await getJson<Overview>(server, '/api/overview?range=7');
  const big = o.projects.find((p) => p.sessions === BIG_FOLDER_SESSIONS)!;
  assert.ok(big, 'the big folder is listed');
  const page = await browser.page();
  // A project's sessions, the latest first.
  const ps = await getJson<ProjectSessions>(server, `/api/projects/${encodeURIComponent(big.id)}/sessions?range=7`);
  const latest = [...ps.sessions].sort((a, b) => (b.lastActivity ?? '').localeCompare(a.lastActivity ?? ''));
  const oldest = latest.at(-1)!;
  await checkLongList(page, `${server.url}/?view=project&project=${encodeURIComponent(big.id)}&range=7`, 'cost-project-view cost-table[view="project"]',
    'td:nth-child(2) b', latest.map((s) => formatUsd(s.cost)), { find: oldest.id, found: formatUsd(oldest.cost) });
  // Its repository's (the folder itself: no git checkout), the dearest first.
  const repo = await getJson<SessionList>(server, `/api/sessions?repository=${encodeURIComponent(big.repository.id)}&range=7`);
  const byCost = dearestFirst(repo.sessions);
  const cheapest = byCost.at(-1)!;
  await checkLongList(page, `${server.url}/?view=repository&repository=${encodeURIComponent(big.repository.id)}&range=7`,
    'cost-repository-view cost-table[view="repository-sessions"]', 'td:nth-child(2) b', byCost.map((s) => formatUsd(s.cost)), { find: cheapest.id, found: formatUsd(cheapest.cost) });
  assert.equal(browser.problems, []);
  await page.close();
});

test('a session\'s messages: the first in time order, the others behind "Show more"; the sort takes every one', async () => {
  const sid = 'long-list-00';
  const d = await getJson<SessionDetail>(server, `/api/sessions/${sid}?range=7`);
  assert.is(d.messages.length, LONG_SESSION_MESSAGES);
  let total = 0;
  const totals = d.messages.map((m) => formatUsd((total += m.cost)));
  const page = await browser.page();
  const table = 'cost-session-view cost-table[view="detail"]';
  // The running total, in time order.
  const pageSize = await checkLongList(page, `${server.url}/?view=detail&project=${encodeURIComponent(d.project.id)}&session=${sid}&range=7`, table,
    'td:nth-child(8)', totals);
  // By cost, from a fresh page, the dearest message first: one of the last, which the first page in time order leaves out.
  const dearest = Math.max(...d.messages.map((m) => m.cost));
  assert.ok(d.messages.findIndex((m) => m.cost === dearest) >= pageSize);
  await page.reload();
  const t = page.locator(table);
  const rows = t.locator('tbody tr');
  await rows.first().waitFor();
  await t.locator('button.sort[data-key="cost"]').click();
  await rows.first().locator('td:nth-child(7)', { hasText: formatUsd(dearest) }).waitFor({ timeout: 5000 });
  assert.is(await rows.count(), pageSize);
  assert.equal(browser.problems, []);
  await page.close();
});

test.run();
