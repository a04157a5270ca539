// Cost by what caused it (issue 32) in Chromium against the real server (dist/main.js) over the hand-made history of
// test/fixtures/causes, at 1440 px dark and 800 px light: Insights and the project view show a table per kind of cause
// (skill, MCP server with its tools, subagent type, effort), each row with its share of the range's cost, the dearest
// first, as /api/insights answers; nothing spills out of the page. Screenshots in test-artifacts/. Needs `npm run build`.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Locator, Page } from 'playwright-core';
import type { CauseCost, Insights } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { launchThemed, type Browser } from '../helpers/browser.ts';
import { CAUSES_PROJECTS } from '../helpers/paths.ts';
import { formatPercent, formatUsd } from '../../ui/src/format.ts';

const DOCS = '-home-dev-docs';
const SETUPS = [
  { name: '1440 px, synthwave dark', width: 1440, theme: 'synthwave', mode: 'dark' as const },
  { name: '800 px, solarized light', width: 800, theme: 'solarized', mode: 'light' as const },
];
const KINDS = { skill: 'bySkill', mcp: 'byMcpServer', agent: 'byAgent', effort: 'byEffort' } as const;

/** What a row of a cause table must read: its label, its cost and its share of the range's cost. */
const expectedRows = (rows: readonly CauseCost[], none: string, total: number): string[][] =>
  rows.map((r) => [r.name ?? none, formatUsd(r.cost), formatPercent(r.cost / total)]);

async function tableRows(table: Locator): Promise<string[][]> {
  const rows = table.locator('tbody tr');
  const out: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const cells = (await rows.nth(i).locator('td').allTextContents()).map((t) => t.trim());
    // the first cell also holds a server's disclosure button
    const label = (await rows.nth(i).locator('td').first().locator('.name, .none').textContent())!.trim();
    out.push([label, cells[1]!, cells[2]!]);
  }
  return out;
}

/** Each table of `host`'s cause section against the answer's breakdowns. */
async function checkTables(host: Locator, d: Insights): Promise<void> {
  const total = d.bySkill.reduce((s, r) => s + r.cost, 0);
  for (const [id, field] of Object.entries(KINDS)) {
    const table = host.locator(`cost-cause-tables [data-cause="${id}"] cost-table`);
    await table.locator('tbody tr').first().waitFor();
    assert.equal(await tableRows(table), expectedRows(d[field], id === 'effort' ? 'not given' : 'direct', total), id);
  }
}

let server: AppServer;

for (const setup of SETUPS) {
  let browser: Browser;
  let page: Page;
  const test = suite(`cost by cause, ${setup.name}`);
  const shot = (view: string) => browser.screenshot(page, `causes-${view}-${setup.width}-${setup.theme}-${setup.mode}`);
  const fitsThePage = async (what: string) => {
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(over <= 0, `${what}: the page is ${over} px wider than the window`);
  };

  test.before(async () => {
    server ??= await startAppServer({ dir: path.dirname(CAUSES_PROJECTS), env: { TZ: 'UTC' }, timeoutMs: 30_000 });
    await untilIndexed(server, 30_000);
    ({ browser, page } = await launchThemed(server.url, setup));
  });

  test.after(async () => {
    await browser?.close();
  });

  test('Insights: a table per cause, the dearest first, each row\'s share of the range; an MCP server opens into its tools', async () => {
    const d = await getJson<Insights>(server, '/api/insights?range=all');
    assert.ok(d.bySkill.length > 2 && d.byMcpServer.length > 2, 'the fixture was indexed');
    await page.goto(`${server.url}/?view=insights&range=all`);
    const view = page.locator('cost-insights-view');
    await checkTables(view, d);
    const mcp = view.locator('cost-cause-tables [data-cause="mcp"] cost-table');
    const github = d.byMcpServer.find((s) => s.name === 'github')!;
    const row = mcp.locator('tbody tr', { hasText: 'github' });
    await row.locator('button.disclose').click();
    const total = d.bySkill.reduce((s, r) => s + r.cost, 0);
    const opened = await tableRows(mcp);
    const at = opened.findIndex((r) => r[0] === 'github');
    assert.equal(opened.slice(at + 1, at + 1 + github.tools.length), expectedRows(github.tools, '(server only)', total), 'its tools under it');
    await view.locator('cost-cause-tables').scrollIntoViewIfNeeded();
    await fitsThePage('insights');
    await shot('insights');
  });

  test('the project view: the causes of its own usage', async () => {
    const d = await getJson<Insights>(server, `/api/insights?range=all&project=${DOCS}`);
    assert.equal(d.bySkill.map((r) => r.name), ['pdf', null]);
    await page.goto(`${server.url}/?view=project&project=${DOCS}&range=all`);
    const view = page.locator('cost-project-view');
    await checkTables(view, d);
    await view.locator('cost-cause-tables').scrollIntoViewIfNeeded();
    await fitsThePage('project');
    await shot('project');
  });

  test('a kind whose only row is direct is named in one line instead of a table', async () => {
    // 18 Nov: one response, effort "low" and nothing attributed.
    const d = await getJson<Insights>(server, '/api/insights?from=2026-11-18&to=2026-11-18');
    assert.equal([d.bySkill, d.byMcpServer, d.byAgent].map((rows) => rows.map((r) => r.name)), [[null], [null], [null]]);
    assert.equal(d.byEffort.map((r) => r.name), ['low']);
    await page.goto(`${server.url}/?view=insights&from=2026-11-18&to=2026-11-18`);
    const causes = page.locator('cost-insights-view cost-cause-tables');
    await causes.locator('.all-direct').waitFor();
    assert.equal(await causes.locator('[data-cause]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cause'))), ['effort']);
    assert.is(await causes.locator('.all-direct').getAttribute('data-direct'), 'skill mcp agent');
    assert.match((await causes.locator('.all-direct').textContent())!.replace(/\s+/g, ' ').trim(), /^All direct by skill, MCP server and subagent type: no response in this range names one\.$/);
    const total = d.byEffort.reduce((s, r) => s + r.cost, 0);
    assert.equal(await tableRows(causes.locator('[data-cause="effort"] cost-table')), expectedRows(d.byEffort, 'not given', total));
  });

  test('no console errors or failed requests', () => {
    assert.equal(browser.problems, []);
  });

  test.run();
}

// The server is shared by both setups; uvu runs suites in order, so this one closes it.
const done = suite('cost by cause: the server stops');
done('closes', async () => {
  await server?.close();
});
done.run();
