// A repository scoped like a project, in real Chromium against the real server on the worktrees fixture: from the
// grouped row's scope button and from the repository view, the chip (after a reload too), the requests, cost:scope,
// the overview and insights figures of the repository's folders alone, and clearing it again.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Insights, Overview } from '../../src/shared/api-types.ts';
import { formatUsd } from '../../ui/src/format.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { SHARED } from '../helpers/paths.ts';
import { suiteBrowser } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const DIR = path.join(SHARED, 'fixtures/transcripts/worktrees');
const RANGE = '365';
const WORKTREES = '/home/USER/projects/spotter';
const SCOPE = `repo:${WORKTREES}`;

let server: AppServer;
const Scope = suite('repository scope in the dashboard');
const browser = suiteBrowser(Scope, { viewport: { width: 1280, height: 900 } });

Scope.before(async () => {
  server = await startAppServer({ dir: DIR, timeoutMs: 30_000 });
  await untilIndexed(server, 60_000);
});
Scope.after(async () => {
  await server?.close();
});

/** The /api/ requests the page makes, path and query. */
function track(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) seen.push(decodeURIComponent(u.pathname + u.search));
  });
  return seen;
}

const text = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();
const storedScope = (page: Page) => page.evaluate(() => localStorage.getItem('cost:scope'));

Scope('the grouped row scopes the overview and insights to the repository\'s folders; the chip clears it', async () => {
  const all = await getJson<Overview>(server, `/api/overview?range=${RANGE}`);
  const repo = await getJson<Overview>(server, `/api/overview?range=${RANGE}&repository=${encodeURIComponent(WORKTREES)}`);
  const insights = await getJson<Insights>(server, `/api/insights?range=${RANGE}&repository=${encodeURIComponent(WORKTREES)}`);
  assert.ok(repo.totals.cost > 0 && repo.totals.cost < all.totals.cost);
  const page = await browser.page();
  const requests = track(page);
  await page.goto(`${server.url}/?view=overview&range=${RANGE}`);
  await page.evaluate(() => localStorage.removeItem('cost:scope'));
  await page.reload();
  const row = page.locator(`cost-overview-view cost-table tbody tr[data-key="${SCOPE}"]`);
  await row.waitFor();
  assert.is(await text(page, 'cost-overview-view cost-stat-card[data-stat="cost"] .value'), formatUsd(all.totals.cost));

  await row.locator('button.icon').click();
  const chip = page.locator('cost-scope-chip .chip[data-scope="repository"]');
  await chip.waitFor();
  assert.is(await text(page, 'cost-scope-chip .chip-label'), 'spotter');
  assert.is(await storedScope(page), SCOPE);
  const cost = 'cost-overview-view cost-stat-card[data-stat="cost"] .value';
  await waitFor(async () => (await text(page, cost)) === formatUsd(repo.totals.cost), `the repository's cost ${formatUsd(repo.totals.cost)}`, 10_000);
  assert.ok(requests.includes(`/api/overview?range=${RANGE}&repository=${WORKTREES}`), requests.join('\n'));
  assert.is(await row.locator('button.icon').getAttribute('aria-pressed'), 'true');

  // Insights reads the same scope.
  await page.locator('cost-top-bar a.tab[data-view="insights"]').click();
  await page.locator('cost-insights-view cost-stat-card[data-stat="run-rate"]').waitFor();
  assert.is(await text(page, 'cost-insights-view cost-stat-card[data-stat="run-rate"] .value'), formatUsd(insights.runRate.projectedMonthly));
  assert.ok(requests.includes(`/api/insights?range=${RANGE}&repository=${WORKTREES}`), requests.join('\n'));

  // A reload keeps it (cost:scope), and names it from /api/projects.
  await page.reload();
  await chip.waitFor();
  assert.is(await text(page, 'cost-scope-chip .chip-label'), 'spotter');
  assert.match((await chip.getAttribute('title')) ?? '', `repository spotter (${WORKTREES})`);

  await page.locator('cost-scope-chip .chip-clear').click();
  assert.is(await page.locator('cost-scope-chip .chip').count(), 0);
  assert.is(await storedScope(page), null);
  assert.ok(requests.at(-1)?.startsWith('/api/insights') && !requests.at(-1)!.includes('repository='), requests.at(-1));
  assert.equal(browser.problems, []);
  await page.close();
});

Scope('the repository view scopes its repository and clears it again', async () => {
  const page = await browser.page();
  await page.goto(`${server.url}/?view=overview&range=${RANGE}`);
  await page.evaluate(() => localStorage.removeItem('cost:scope'));
  await page.goto(`${server.url}/?view=repository&repository=${encodeURIComponent(WORKTREES)}&range=${RANGE}`);
  const button = page.locator('cost-repository-view button.scope');
  await button.waitFor();
  assert.equal([await button.getAttribute('aria-pressed'), await text(page, 'cost-repository-view button.scope')], ['false', 'Scope to repository']);
  await button.click();
  await page.locator('cost-repository-view button.scope[aria-pressed="true"]').waitFor();
  assert.is(await text(page, 'cost-repository-view button.scope'), 'Clear scope');
  assert.is(await storedScope(page), SCOPE);
  // Back on the overview: the chip, and the repository row's button pressed.
  await page.locator('cost-repository-view button.back').click();
  await page.locator('cost-scope-chip .chip[data-scope="repository"]').waitFor();
  await page.locator(`cost-overview-view cost-table tbody tr[data-key="${SCOPE}"] button.icon[aria-pressed="true"]`).waitFor();
  await page.goBack();
  await page.locator('cost-repository-view button.scope[aria-pressed="true"]').click();
  await page.locator('cost-repository-view button.scope[aria-pressed="false"]').waitFor();
  assert.is(await storedScope(page), null);
  assert.equal(browser.problems, []);
  await page.close();
});

Scope.run();
