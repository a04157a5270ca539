// The machine filter and the per-machine table in real Chromium against the real server over two labelled folders
// (`laptop=<dir>,<dir>` with --machine ws): shown only with more than one machine, a row's filter scopes the overview
// and insights (the requests, the URL, the chip, a reload), the chip clears it; the projects table and its CSV list each
// project's machines; a one-machine server shows none of these.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Overview, ProjectRow } from '../../src/shared/api-types.ts';
import { formatUsd } from '../../ui/src/format.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { suiteBrowser } from '../helpers/browser.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { waitFor } from '../helpers/wait.ts';

const RANGE = '3650';
const at = (d: number) => new Date(Date.UTC(2026, 10, d, 10)).toISOString();
const { dir, cleanup } = tempDir('ui-machines-');
const wsDir = path.join(dir, 'ws');
const laptopDir = path.join(dir, 'laptop');
writeJsonl(path.join(wsDir, 'projects/-home-dev-app/s1.jsonl'), [
  usageLine({ sessionId: 's1', messageId: 'w1', requestId: 'rw1', timestamp: at(18), output: 900 }),
  usageLine({ sessionId: 's1', messageId: 'w2', requestId: 'rw2', timestamp: at(19), output: 300 }),
]);
writeJsonl(path.join(laptopDir, 'projects/-home-dev-app/s2.jsonl'), [
  usageLine({ sessionId: 's2', messageId: 'l1', requestId: 'rl1', timestamp: at(20), output: 5000, model: 'claude-opus-4-5-20251101' }),
]);

let both: AppServer;
let one: AppServer;
const Machines = suite('machines in the dashboard');
const browser = suiteBrowser(Machines, { viewport: { width: 1280, height: 900 } });

Machines.before(async () => {
  both = await startAppServer({ dir: `laptop=${laptopDir},${wsDir}`, args: ['--machine', 'ws'] });
  one = await startAppServer({ dir: wsDir, args: ['--machine', 'ws'] });
  await untilIndexed(both, 30_000);
  await untilIndexed(one, 30_000);
});
Machines.after(async () => {
  await both?.close();
  await one?.close();
  cleanup();
});

function track(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) seen.push(u.pathname + u.search);
  });
  return seen;
}
const text = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? '').trim();
const COST = 'cost-overview-view cost-stat-card[data-stat="cost"] .value';

Machines('the per-machine table, a machine filter from its rows, the chip clears it', async () => {
  const all = await getJson<Overview>(both, `/api/overview?range=${RANGE}`);
  const laptop = await getJson<Overview>(both, `/api/overview?range=${RANGE}&machine=laptop`);
  assert.equal(all.machines.map((m) => m.machine), ['laptop', 'ws']);
  const page = await browser.page();
  const requests = track(page);
  await page.goto(`${both.url}/?view=overview&range=${RANGE}`);
  const table = page.locator('cost-overview-view cost-table[view="machines"]');
  await table.locator('tbody tr').first().waitFor();
  assert.is(await table.locator('tbody tr').count(), 2);
  for (const m of all.machines) {
    assert.is(((await table.locator(`tbody tr[data-key="${m.machine}"] td:nth-child(3)`).textContent()) ?? '').trim(), formatUsd(m.cost));
  }
  assert.is(await text(page, COST), formatUsd(all.totals.cost));

  await table.locator('tbody tr[data-key="laptop"] button.icon').click();
  await page.locator('cost-scope-chip .chip[data-scope="machine"]').waitFor();
  assert.is(await text(page, 'cost-scope-chip .chip[data-scope="machine"] .chip-label'), 'laptop');
  assert.match(page.url(), 'machine=laptop');
  await waitFor(async () => (await text(page, COST)) === formatUsd(laptop.totals.cost), `the laptop's cost ${formatUsd(laptop.totals.cost)}`, 10_000);
  assert.ok(requests.includes(`/api/overview?machine=laptop&range=${RANGE}`), requests.join('\n'));
  assert.is(await table.count(), 0, 'one machine in the filtered answer: no table');

  await page.locator('cost-top-bar a.tab[data-view="insights"]').click();
  await page.locator('cost-insights-view cost-stat-card').first().waitFor();
  assert.ok(requests.includes(`/api/insights?machine=laptop&range=${RANGE}`), requests.join('\n'));
  assert.match(page.url(), 'machine=laptop');

  await page.reload();
  await page.locator('cost-scope-chip .chip[data-scope="machine"]').waitFor();
  await page.locator('cost-scope-chip .chip[data-scope="machine"] .chip-clear').click();
  assert.is(await page.locator('cost-scope-chip .chip[data-scope="machine"]').count(), 0);
  assert.not.match(page.url(), 'machine=');
  await waitFor(() => requests.at(-1) === `/api/insights?range=${RANGE}`, 'the unfiltered insights', 10_000);
  assert.equal(browser.problems, []);
  await page.close();
});

Machines('the projects table and its CSV list each project\'s machines', async () => {
  const rows = await getJson<ProjectRow[]>(both, `/api/projects?range=${RANGE}`);
  assert.equal(rows.map((r) => r.machines.map((m) => m.machine)), [['laptop', 'ws']]);
  const page = await browser.page();
  await page.goto(`${both.url}/?view=overview&range=${RANGE}`);
  const table = page.locator('cost-overview-view cost-table[view="overview"]');
  await table.locator('tbody tr').first().waitFor();
  assert.is(await text(page, 'cost-overview-view cost-table[view="overview"] tbody tr td:last-child'), 'laptop, ws');
  const [dl] = await Promise.all([page.waitForEvent('download'), table.locator('button.export').click()]);
  const csv = fs.readFileSync((await dl.path()) as string, 'utf8').trim().split('\r\n');
  assert.is(csv[0], 'Project,Cost,Sessions,Messages,Tokens,Last activity,Top model,Machines');
  assert.match(csv[1]!, /,"laptop, ws"$/);
  assert.equal(browser.problems, []);
  await page.close();
});

Machines('one machine: no machine table and no filter', async () => {
  assert.equal((await getJson<Overview>(one, `/api/overview?range=${RANGE}`)).machines, []);
  const page = await browser.page();
  await page.goto(`${one.url}/?view=overview&range=${RANGE}`);
  await page.locator('cost-overview-view cost-table[view="overview"] tbody tr').first().waitFor();
  assert.is(await page.locator('cost-overview-view cost-table[view="machines"]').count(), 0);
  assert.is(await page.locator('cost-scope-chip .chip').count(), 0);
  const header = page.locator('cost-overview-view cost-table[view="overview"] thead');
  assert.not.match((await header.textContent()) ?? '', 'Machines', 'one machine: no machines column');
  assert.equal(browser.problems, []);
  await page.close();
});

Machines.run();
