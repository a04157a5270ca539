// The four views in real Chromium against the real server (dist/main.js) on the real transcripts
// fixture and on a generated corpus: figures match the API, sorting persists, keyboard opens rows,
// CSV export, no console errors or failed requests. Needs `npm run build`. Screenshots go to test-artifacts/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Insights, Overview, ProjectSessions, SessionDetail } from '../../src/shared/api-types.ts';
import { formatInt, formatPercent, formatTokens, formatUsd } from '../../ui/src/format.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { SHARED } from '../helpers/paths.ts';
import { ARTIFACTS, launchBrowser, type Browser } from '../helpers/browser.ts';

const ALL = '3650'; // every day the fixture and the corpus cover

interface App {
  server: AppServer;
  base: string;
  api<T>(p: string): Promise<T>;
}

/** The server over `dir`, once its first index build is done and the answers cached meanwhile are dropped. */
async function startApp(dir?: string): Promise<App> {
  const server = await startAppServer({ ...(dir ? { dir } : {}), timeoutMs: 30_000 });
  await untilIndexed(server, 60_000);
  return { server, base: server.url, api: <T>(p: string) => getJson<T>(server, p) };
}

/** The hidden text alternatives of the charts (thousands of rows for a long range) must not stretch the page. */
async function assertNoOverflow(page: Page): Promise<void> {
  const size = await page.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight, vw: innerWidth }));
  assert.ok(size.w <= size.vw, `page is ${size.w} px wide in a ${size.vw} px window`);
  assert.ok(size.h < 4000, `page is ${size.h} px tall`);
}

const text = async (page: Page, sel: string) => ((await page.locator(sel).first().textContent()) ?? '').trim();
const stat = (page: Page, view: string, name: string) => text(page, `${view} cost-stat-card[data-stat="${name}"] .value`);

/** Full-page screenshots in dark and light mode. */
async function shoot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  for (const theme of ['dark', 'light']) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    await page.reload();
    await page.locator('cost-stat-card').first().waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${theme}.png`), fullPage: true });
  }
}

let browser: Browser;

const fixture = suite('views on the real transcripts fixture');
let app: App;

fixture.before(async () => {
  browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
  app = await startApp();
});

fixture.after(async () => {
  await app?.server.close();
});

fixture('overview shows the API figures, cost by model and every project', async () => {
  const o = await app.api<Overview>(`/api/overview?range=${ALL}`);
  const page = await browser.page();
  await page.goto(`${app.base}/?view=overview&range=${ALL}`);
  await page.locator('cost-overview-view cost-stat-card[data-stat="cost"]').waitFor();
  assert.is(await stat(page, 'cost-overview-view', 'cost'), formatUsd(o.totals.cost));
  assert.is(await stat(page, 'cost-overview-view', 'sessions'), formatInt(o.totals.sessions));
  assert.is(await stat(page, 'cost-overview-view', 'tokens'), formatTokens(o.totals.totalTokens));
  assert.is(await stat(page, 'cost-overview-view', 'cache'), formatPercent(o.cacheEfficiency));
  // Today is on the strip only (issue 14: it was also a card of the range's row).
  assert.is(await stat(page, 'cost-overview-view', 'glance-today'), formatUsd(o.today?.cost ?? 0));
  assert.is(await page.locator('cost-overview-view cost-stat-card[data-stat="today"]').count(), 0);
  const bars = await page.locator('cost-overview-view cost-chart-bars .row .val').allTextContents();
  assert.equal(bars, [...o.costByModel].sort((a, b) => b.cost - a.cost).map((m) => formatUsd(m.cost)));
  const rows = page.locator('cost-overview-view cost-table tbody tr');
  assert.is(await rows.count(), o.projects.length);
  const byCost = [...o.projects].sort((a, b) => b.cost - a.cost);
  assert.equal(await rows.locator('td:nth-child(3)').allTextContents(), byCost.map((p) => formatUsd(p.cost)));
  // The chart's text alternative carries one row per bucket.
  // Long ranges come by week or month (the server's buckets): one row per bucket.
  await countOf(page, 'cost-overview-view cost-chart-series .sr tbody tr', o.costSeries.points.length);
  await assertNoOverflow(page);
  await shoot(page, 'overview');
  await page.close();
});

fixture('sorting by a header is saved per view and survives a reload', async () => {
  const o = await app.api<Overview>(`/api/overview?range=${ALL}`);
  const page = await browser.page();
  await page.goto(`${app.base}/?view=overview&range=${ALL}`);
  const th = page.locator('cost-overview-view cost-table th:has(button[data-key="messages"])');
  await th.locator('button').click();
  assert.is(await th.getAttribute('aria-sort'), 'descending');
  await th.locator('button').click();
  assert.is(await th.getAttribute('aria-sort'), 'ascending');
  assert.is(await page.evaluate(() => localStorage.getItem('cost:sort:overview')), '{"key":"messages","dir":"asc"}');
  await page.reload();
  await th.waitFor();
  assert.is(await th.getAttribute('aria-sort'), 'ascending');
  const names = await page.locator('cost-overview-view cost-table tbody tr td:nth-child(2)').allTextContents();
  assert.equal(names.map((s) => s.trim()), [...o.projects].sort((a, b) => a.messages - b.messages).map((p) => p.name));
  await page.evaluate(() => localStorage.removeItem('cost:sort:overview'));
  await page.close();
});

fixture('keyboard: j moves the selection, Enter opens the project, then the session', async () => {
  const o = await app.api<Overview>(`/api/overview?range=${ALL}`);
  const second = [...o.projects].sort((a, b) => b.cost - a.cost)[1];
  assert.ok(second, 'the fixture has two projects');
  const page = await browser.page();
  await page.goto(`${app.base}/?view=overview&range=${ALL}`);
  await page.locator('cost-overview-view cost-table tbody tr').first().focus();
  await page.keyboard.press('j');
  assert.is(await page.locator('cost-overview-view cost-table tbody tr[aria-selected="true"]').getAttribute('data-key'), second.id);
  await page.keyboard.press('Enter');
  await page.locator('cost-project-view cost-stat-card[data-stat="cost"]').waitFor();
  assert.match(page.url(), `project=${second.id}`);

  const ps = await app.api<ProjectSessions>(`/api/projects/${second.id}/sessions?range=${ALL}`);
  assert.is(await stat(page, 'cost-project-view', 'cost'), formatUsd(ps.totals.cost));
  assert.is(await stat(page, 'cost-project-view', 'sessions'), formatInt(ps.sessions.length));
  const rows = page.locator('cost-project-view cost-table[view="project"] tbody tr');
  assert.is(await rows.count(), ps.sessions.length);
  await shoot(page, 'project');

  // Default sort: last activity, newest first; ArrowDown then Enter opens the second session.
  const target = [...ps.sessions].sort((a, b) => b.lastActivity.localeCompare(a.lastActivity))[1] ?? ps.sessions[0];
  await rows.first().focus();
  if (ps.sessions.length > 1) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.locator('cost-session-view cost-stat-card[data-stat="total"]').waitFor();
  assert.match(page.url(), `session=${target?.id}`);
  await page.close();
});

fixture('the project view scopes the app to its project and clears it again', async () => {
  const o = await app.api<Overview>(`/api/overview?range=${ALL}`);
  const p = o.projects[0];
  assert.ok(p);
  const page = await browser.page();
  await page.goto(`${app.base}/?view=project&project=${p.id}&range=${ALL}`);
  const button = page.locator('cost-project-view button.scope');
  await button.waitFor();
  assert.is(await button.getAttribute('aria-pressed'), 'false');
  await button.click();
  await page.locator('cost-project-view button.scope[aria-pressed="true"]').waitFor();
  assert.is((await button.textContent())?.trim(), 'Clear scope');
  assert.is(await page.evaluate(() => localStorage.getItem('cost:scope')), p.id);
  await button.click();
  await page.locator('cost-project-view button.scope[aria-pressed="false"]').waitFor();
  assert.is(await page.evaluate(() => localStorage.getItem('cost:scope')), null);
  await page.close();
});

fixture('session detail: totals, slices, one row per message with running totals, subagents', async () => {
  const sessions = await app.api<ProjectSessions>(`/api/projects/-Users-randlee-Documents-github-claude-history/sessions?range=${ALL}`);
  const withSubs = sessions.sessions.find((s) => s.subagentCost > 0) ?? sessions.sessions[0];
  assert.ok(withSubs);
  const d = await app.api<SessionDetail>(`/api/sessions/${withSubs.id}?range=${ALL}`);
  const page = await browser.page();
  await page.goto(`${app.base}/?view=detail&session=${d.id}&range=${ALL}`);
  await page.locator('cost-session-view cost-stat-card[data-stat="total"]').waitFor();
  assert.is(await stat(page, 'cost-session-view', 'total'), formatUsd(d.cost));
  assert.is(await stat(page, 'cost-session-view', 'in-range'), d.inRange ? formatUsd(d.inRange.cost) : '—');
  assert.is(await stat(page, 'cost-session-view', 'today'), d.today ? formatUsd(d.today.cost) : '—');
  const table = page.locator('cost-session-view cost-table[view="detail"]');
  assert.is(await table.locator('.count').textContent(), String(d.messages.length));
  // The last running total (time order) is the sum of the message costs.
  await table.locator('tbody tr').first().focus();
  await page.keyboard.press('End');
  const lastTotal = (await table.locator('tbody tr[aria-selected="true"] td:nth-child(8)').textContent())?.trim();
  assert.is(lastTotal, formatUsd(d.messages.reduce((s, m) => s + m.cost, 0)));
  assert.is(await table.locator('tbody tr.sub').count() > 0, d.messages.some((m) => m.subagent));
  if (d.subagents.length) assert.is(await page.locator('cost-session-view cost-table[view="detail-subagents"] tbody tr').count(), d.subagents.length);
  await shoot(page, 'session');
  await page.close();
});

fixture('CSV export of the projects table holds the rows as shown', async () => {
  const o = await app.api<Overview>(`/api/overview?range=${ALL}`);
  const page = await browser.page();
  await page.goto(`${app.base}/?view=overview&range=${ALL}`);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.locator('cost-overview-view cost-table button.export').click()]);
  assert.match(dl.suggestedFilename(), /^cost-projects-.*\.csv$/);
  const csv = fs.readFileSync((await dl.path()) as string, 'utf8').trim().split('\r\n');
  assert.is(csv[0], 'Project,Cost,Sessions,Messages,Tokens,Last activity,Top model');
  const top = [...o.projects].sort((a, b) => b.cost - a.cost)[0];
  assert.ok(top);
  assert.is(csv.length, o.projects.length + 1);
  assert.is(csv[1], [top.name, Math.round(top.cost * 1e6) / 1e6, top.sessions, top.messages, top.totalTokens, top.lastActivity, top.topModel].join(','));
  const [json] = await Promise.all([page.waitForEvent('download'), page.locator('cost-overview-view button.export-json').click()]);
  const parsed = JSON.parse(fs.readFileSync((await json.path()) as string, 'utf8')) as Overview;
  assert.is(parsed.totals.cost, o.totals.cost);
  await page.close();
});

/** Charts draw new points a frame after the figures: waits (bounded) until `selector` matches `n` elements. */
async function countOf(page: Page, selector: string, n: number): Promise<void> {
  const deadline = Date.now() + 5000;
  let count = await page.locator(selector).count();
  while (count !== n && Date.now() < deadline) {
    await page.waitForTimeout(20);
    count = await page.locator(selector).count();
  }
  assert.is(count, n, selector);
}

/** The insights figures on screen against the API answer for the same range. */
async function checkInsights(page: Page, ins: Insights): Promise<void> {
  const v = 'cost-insights-view';
  assert.is(await stat(page, v, 'run-rate'), formatUsd(ins.runRate.projectedMonthly));
  assert.is(await stat(page, v, 'cache-savings'), formatUsd(ins.cacheSavings.saved));
  assert.is(await stat(page, v, 'subagent-share'), formatPercent(ins.subagentShare.share));
  for (const card of await page.locator(`${v} cost-stat-card`).all()) assert.ok(await card.getAttribute('hint'), 'every figure has an explanation');
  const active = ins.activeBlock;
  if (active) {
    assert.is(await stat(page, v, 'block-cost'), formatUsd(active.cost));
    assert.is(await stat(page, v, 'block-tokens'), formatTokens(active.totalTokens));
  } else {
    assert.is(await page.locator(`${v} [data-block="active"]`).count(), 0);
  }
  assert.is(await page.locator(`${v} cost-table[view="insights"] tbody tr`).count(), Math.min(ins.blocks.length, 200));
  const caption = ins.blocksInRange > ins.blocks.length ? `Latest 5-hour blocks (${ins.blocksInRange} in range)` : 'Recent 5-hour blocks';
  assert.is((await text(page, `${v} cost-table[view="insights"] .caption`)).replace(/\s*\d+$/, ''), caption);
  const newest = [...ins.blocks].sort((a, b) => b.start.localeCompare(a.start))[0];
  if (newest) assert.is((await text(page, `${v} cost-table[view="insights"] tbody tr td:nth-child(4)`)), formatUsd(newest.cost));
  const tc = ins.tokenComposition;
  const composition = await page.locator(`${v} cost-chart-bars[label="Token composition"] .row .val`).allTextContents();
  const kinds = [tc.cacheReadTokens, tc.cache5mTokens, tc.cache1hTokens, tc.inputTokens, tc.outputTokens];
  assert.equal(composition, [...kinds].sort((a, b) => b - a).map(formatTokens));
  const tools = await page.locator(`${v} cost-chart-bars[label="Top tools"] .row .val`).allTextContents();
  const counts = ins.topTools.map((t) => t.count).sort((a, b) => b - a);
  if (counts.length <= 10) assert.equal(tools, counts.map(formatInt));
  else assert.equal(tools.slice(0, 9), counts.slice(0, 9).map(formatInt));
  assert.is(await page.locator(`${v} cost-heatmap rect[role="gridcell"]`).count(), 168);
  const cells = await page.locator(`${v} cost-heatmap .sr td`).allTextContents();
  assert.equal(cells, ins.heatmap.flatMap((day) => Array.from({ length: 24 }, (_, h) => formatUsd(day[h] ?? 0))));
  await countOf(page, `${v} cost-chart-series[label="Weekly cost"] .sr tbody tr`, ins.weeklyCost.length);
}

fixture('insights shows the API figures and explains each on hover', async () => {
  const ins = await app.api<Insights>(`/api/insights?range=${ALL}`);
  const page = await browser.page();
  await page.goto(`${app.base}/?view=insights&range=${ALL}`);
  await page.locator('cost-insights-view cost-stat-card[data-stat="run-rate"]').waitFor();
  await checkInsights(page, ins);
  // The fixture predates Claude Code's attribution: every breakdown is one "direct" row, shown as one line, no table.
  assert.ok([ins.bySkill, ins.byMcpServer, ins.byAgent, ins.byEffort].every((rows) => rows.length === 1 && rows[0]!.name === null), 'all direct');
  await page.locator('cost-insights-view cost-cause-tables .all-direct').waitFor();
  assert.is(await page.locator('cost-insights-view cost-cause-tables cost-table').count(), 0, 'no cause table');
  assert.match(await text(page, 'cost-insights-view cost-cause-tables .all-direct'), /^All direct/);
  await assertNoOverflow(page);
  await shoot(page, 'insights');
  await page.close();
});

fixture('a session that does not exist says so', async () => {
  const page = await browser.page();
  const before = browser.problems.length;
  await page.goto(`${app.base}/?view=detail&session=no-such-session&range=${ALL}`);
  await page.locator('cost-session-view cost-empty[heading="Session not found"]').waitFor();
  // The 404 is the point of this test: the console line Chromium logs for it is not a problem.
  const extra = browser.problems.splice(before);
  assert.ok(extra.every((p) => /404/.test(p)), extra.join('\n'));
  await page.close();
});

fixture('no console errors or failed requests', () => {
  assert.equal(browser.problems, []);
});

fixture.run();

const corpus = suite('views on a generated corpus');
let capp: App;
let corpusDir: string;

corpus.before(async () => {
  corpusDir = fs.mkdtempSync(path.join(os.tmpdir(), 'views-corpus-'));
  const r = spawnSync(process.execPath, [path.join(SHARED, 'tools/gen-corpus.mjs'), '--out', corpusDir, '--mb', '5', '--days', '30', '--seed', '3'], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`gen-corpus failed: ${r.stderr}`);
  capp = await startApp(corpusDir);
});

corpus.after(async () => {
  await capp?.server.close();
  await browser?.close();
  fs.rmSync(corpusDir, { recursive: true, force: true });
});

corpus('overview, insights, a project and a session match the API', async () => {
  const page = await browser.page();
  const o = await capp.api<Overview>('/api/overview?range=30');
  await page.goto(`${capp.base}/?view=overview&range=30`);
  await page.locator('cost-overview-view cost-stat-card[data-stat="cost"]').waitFor();
  assert.is(await stat(page, 'cost-overview-view', 'cost'), formatUsd(o.totals.cost));
  assert.is(await stat(page, 'cost-overview-view', 'sessions'), formatInt(o.totals.sessions));
  assert.is(await page.locator('cost-overview-view cost-table tbody tr').count(), o.projects.length);
  await countOf(page, 'cost-overview-view cost-chart-series g.col', o.costSeries.points.length);

  const ins = await capp.api<Insights>('/api/insights?range=30');
  await page.goto(`${capp.base}/?view=insights&range=30`);
  await page.locator('cost-insights-view cost-stat-card[data-stat="run-rate"]').waitFor();
  await checkInsights(page, ins);

  const top = [...o.projects].sort((a, b) => b.cost - a.cost)[0];
  assert.ok(top);
  const ps = await capp.api<ProjectSessions>(`/api/projects/${top.id}/sessions?range=30`);
  await page.goto(`${capp.base}/?view=project&project=${top.id}&range=30`);
  await page.locator('cost-project-view cost-stat-card[data-stat="cost"]').waitFor();
  assert.is(await stat(page, 'cost-project-view', 'cost'), formatUsd(ps.totals.cost));
  assert.is(await page.locator('cost-project-view cost-table[view="project"] .count').textContent(), String(ps.sessions.length));

  const s = [...ps.sessions].sort((a, b) => b.cost - a.cost)[0];
  assert.ok(s);
  const d = await capp.api<SessionDetail>(`/api/sessions/${s.id}?range=30`);
  await page.goto(`${capp.base}/?view=detail&session=${s.id}&range=30`);
  await page.locator('cost-session-view cost-stat-card[data-stat="total"]').waitFor();
  assert.is(await stat(page, 'cost-session-view', 'total'), formatUsd(d.cost));
  assert.is(await page.locator('cost-session-view cost-table[view="detail"] .count').textContent(), String(d.messages.length));
  assert.equal(browser.problems, []);
  await page.close();
});

corpus.run();
