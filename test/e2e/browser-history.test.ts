// Real histories in real Chromium against the real server on the worktrees fixture (PROVENANCE.md), in a dark and a
// light theme: worktrees grouped under their repository (expandable, a switch to list folders flat), the branch
// table of a project, and a year drawn by week. Screenshots go to test-artifacts/.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Overview, ProjectSessions } from '../../src/shared/api-types.ts';
import { formatUsd } from '../../ui/src/format.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { SHARED } from '../helpers/paths.ts';
import { ARTIFACTS, suiteBrowser } from '../helpers/browser.ts';

const DIR = path.join(SHARED, 'fixtures/transcripts/worktrees');
const RANGE = '365'; // the fixture's three days of February 2026 inside a year: drawn by week
const WORKTREES = '/home/USER/projects/spotter';
const MAIN = '-home-marco-projects-spotter';
const THEMES = [
  { mode: 'dark', colorTheme: 'ember' },
  { mode: 'light', colorTheme: 'nord' },
] as const;

let server: AppServer;
const History = suite('real histories in the dashboard');
const browser = suiteBrowser(History, { viewport: { width: 1280, height: 900 } });

History.before(async () => {
  server = await startAppServer({ dir: DIR, timeoutMs: 30_000 });
  await untilIndexed(server, 60_000);
});
History.after(async () => {
  await server?.close();
});

async function open(page: Page, theme: (typeof THEMES)[number], query: string): Promise<void> {
  await page.goto(`${server.url}/?view=overview&range=${RANGE}`);
  await page.evaluate((t) => {
    localStorage.setItem('theme', t.mode);
    localStorage.setItem('color-theme', t.colorTheme);
    localStorage.removeItem('cost:sort:overview');
  }, theme);
  await page.goto(`${server.url}/${query}`);
  assert.equal(await page.evaluate(() => [document.body.dataset.theme, document.body.classList.contains('light') ? 'light' : 'dark']), [theme.colorTheme, theme.mode]);
}

const shoot = async (page: Page, name: string) => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
};

for (const theme of THEMES) {
  History(`${theme.mode}: worktrees grouped under their repository, expandable, and listed flat on demand`, async () => {
    const o = await getJson<Overview>(server, `/api/overview?range=${RANGE}`);
    const folders = o.projects.filter((p) => p.repository.id === WORKTREES);
    assert.is(folders.length, 7);
    const page = await browser.page();
    await open(page, theme, `?view=overview&range=${RANGE}`);
    const table = page.locator('cost-overview-view cost-table');
    const rows = table.locator('tbody tr');
    await rows.first().waitFor();
    assert.is(await rows.count(), 2, 'the six worktrees and the orphan in one row, the main checkout (another path) in its own');
    const group = table.locator(`tbody tr[data-key="repo:${WORKTREES}"]`);
    assert.match((await group.textContent()) ?? '', '7 worktrees');
    assert.is(((await group.locator('td:nth-child(3)').textContent()) ?? '').trim(), formatUsd(folders.reduce((a, p) => a + p.cost, 0)));

    await group.locator('button.disclose').click();
    assert.is(await rows.count(), 9);
    assert.is(await table.locator('tbody tr.child').count(), 7);
    const children = (await table.locator('tbody tr.child td:nth-child(3)').allTextContents()).map((t) => t.trim());
    assert.equal(children, [...folders].sort((a, b) => b.cost - a.cost).map((p) => formatUsd(p.cost)), 'children sorted like the table');
    await shoot(page, `history-grouped-${theme.mode}`);
    // ArrowLeft on the selected repository row folds it again
    await group.focus();
    await page.keyboard.press('ArrowLeft');
    assert.is(await rows.count(), 2);

    const toggle = page.locator('cost-overview-view button.group');
    assert.is(await toggle.getAttribute('aria-pressed'), 'true');
    await toggle.click();
    assert.is(await toggle.getAttribute('aria-pressed'), 'false');
    assert.is(await rows.count(), o.projects.length, 'every folder in its own row');
    // a child row opens its project
    await toggle.click();
    await group.locator('button.disclose').click();
    await table.locator('tbody tr.child').first().click();
    await page.locator('cost-project-view cost-stat-card[data-stat="cost"]').waitFor();
    assert.match(page.url(), 'project=-home-marco-projects-spotter-worktrees-spotter-');

    // a repository row opens the repository: its folders summed, each folder, the branches of all
    await page.goto(`${server.url}/?view=overview&range=${RANGE}`);
    await group.click();
    await page.locator('cost-repository-view cost-stat-card[data-stat="cost"]').waitFor();
    assert.match(decodeURIComponent(page.url()), `repository=${WORKTREES}`);
    assert.is(((await page.locator('cost-repository-view cost-stat-card[data-stat="cost"] .value').textContent()) ?? '').trim(), formatUsd(folders.reduce((a, p) => a + p.cost, 0)));
    assert.is(await page.locator('cost-repository-view cost-table[view="repository"] tbody tr').count(), 7);
    const branchNames = (await page.locator('cost-repository-view cost-table[view="repository-branches"] tbody tr td:nth-child(1)').allTextContents()).map((t) => t.trim());
    assert.equal(branchNames.sort(), folders.map((p) => p.name).sort(), 'each worktree on its own branch, named after it');
    await shoot(page, `history-repository-${theme.mode}`);
    await page.reload();
    await page.locator('cost-repository-view cost-table[view="repository"] tbody tr').first().waitFor();
    await page.locator('cost-repository-view cost-table[view="repository"] tbody tr').first().click();
    await page.locator('cost-project-view cost-stat-card[data-stat="cost"]').waitFor();
    assert.match(page.url(), 'project=-home-marco-projects-spotter-worktrees-spotter-gqc', 'the most expensive folder first');
    assert.equal(browser.problems, []);
    await page.close();
  });

  History(`${theme.mode}: the project's branch table and each session's branch`, async () => {
    const ps = await getJson<ProjectSessions>(server, `/api/projects/${MAIN}/sessions?range=${RANGE}`);
    const page = await browser.page();
    await open(page, theme, `?view=project&project=${MAIN}&range=${RANGE}`);
    const branches = page.locator('cost-project-view cost-table[view="project-branches"]');
    await branches.locator('tbody tr').first().waitFor();
    assert.equal((await branches.locator('tbody tr td:nth-child(1)').allTextContents()).map((t) => t.trim()), ['master']);
    assert.is(((await branches.locator('tbody tr td:nth-child(2)').textContent()) ?? '').trim(), formatUsd(ps.branches[0]!.cost));
    assert.is(((await branches.locator('tbody tr td:nth-child(3)').textContent()) ?? '').trim(), '3', 'sessions on master');
    const sessionBranches = await page.locator('cost-project-view cost-table[view="project"] tbody tr td .branch').allTextContents();
    assert.equal(sessionBranches, ['master', 'master', 'master']);
    await shoot(page, `history-branches-${theme.mode}`);
    assert.equal(browser.problems, []);
    await page.close();
  });

  History(`${theme.mode}: a year is drawn by week, with week tooltips and a week table`, async () => {
    const o = await getJson<Overview>(server, `/api/overview?range=${RANGE}`);
    const weeks = o.costSeries;
    assert.is(weeks.bucket, 'week', 'the server sums a year by week');
    const page = await browser.page();
    await open(page, theme, `?view=overview&range=${RANGE}`);
    const chart = page.locator('cost-overview-view cost-chart-series');
    await chart.locator('g.col').first().waitFor();
    assert.is(((await page.locator('cost-overview-view h3').first().textContent()) ?? '').trim(), 'Cost per week');
    assert.is(await chart.locator('g.col').count(), weeks.points.length);
    assert.ok(weeks.points.length >= 52 && weeks.points.length <= 54, `${weeks.points.length} weeks`);
    const busy = weeks.points.findIndex((p) => p.cost > 0);
    assert.is(weeks.points[busy]!.key, '2026-02-09', 'Feb 10-12 fall in the week of Monday Feb 9');
    await chart.locator(`g.col[data-i="${busy}"]`).hover();
    const tip = chart.locator('.tip');
    assert.match((await tip.locator('.tl').textContent()) ?? '', /^Week of Feb 9/);
    assert.is(((await tip.locator('.tv').textContent()) ?? '').trim(), formatUsd(o.totals.cost));
    assert.is(await chart.locator('.sr thead th').first().textContent(), 'Week');
    const ticks = await chart.locator('.tick text').allTextContents();
    assert.is(new Set(ticks).size, ticks.length, `axis labels repeat: ${ticks.join(' ')}`);
    await shoot(page, `history-weeks-${theme.mode}`);
    assert.equal(browser.problems, []);
    await page.close();
  });
}

History.run();
