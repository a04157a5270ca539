// The session view in real Chromium against the real server (dist/main.js) over the workflow fixture
// (test/fixtures/workflows): a "Workflow runs" table with one row per run and the API's figures, the plain subagent
// alone in the Subagents table, every message in the Messages table, no console errors or failed requests.
// Needs `npm run build`. A screenshot goes to test-artifacts/.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SessionDetail } from '../../src/shared/api-types.ts';
import { formatInt, formatTokens, formatUsd } from '../../ui/src/format.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { ROOT } from '../helpers/paths.ts';
import { suiteBrowser } from '../helpers/browser.ts';

const SID = 'b7e2c1a4-6f3d-4c2e-9a1b-0d5e8f7c3a21';
const ALL = '3650';

const t = suite('session view: workflow runs');
const browser = suiteBrowser(t, { viewport: { width: 1280, height: 900 } });
let server: AppServer;

t.before(async () => {
  server = await startAppServer({ dir: path.join(ROOT, 'test/fixtures/workflows'), timeoutMs: 30_000 });
  await untilIndexed(server, 60_000);
});
t.after(async () => {
  await server?.close();
});

t('one row per run with the API\'s figures; the plain subagent alone in Subagents', async () => {
  const d = await getJson<SessionDetail>(server, `/api/sessions/${SID}?range=${ALL}`);
  assert.is(d.workflows.length, 2);
  const page = await browser.page();
  await page.goto(`${server.url}/?view=detail&session=${SID}&range=${ALL}`);
  const runs = page.locator('cost-session-view cost-table[view="detail-workflows"]');
  await runs.locator('tbody tr').first().waitFor();
  const rows = await runs.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));
  assert.equal(rows.map((r) => r.slice(0, 5)), d.workflows.map((w) => [w.runId, formatInt(w.agents), formatInt(w.messages), formatTokens(w.totalTokens), formatUsd(w.cost)]));
  assert.equal(rows.map((r) => r[0]), ['wf_7c1e4a', 'wf_9d0422'], 'earliest run first');
  const subs = page.locator('cost-session-view cost-table[view="detail-subagents"] tbody tr');
  assert.is(await subs.count(), 1);
  assert.match((await subs.first().textContent()) ?? '', 'Explore');
  assert.is(await page.locator('cost-session-view cost-table[view="detail"] .count').textContent(), String(d.messages.length));
  await browser.screenshot(page, 'session-workflows');
  assert.equal(browser.problems, []);
  await page.close();
});

t.run();
