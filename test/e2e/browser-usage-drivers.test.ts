// The opt-in "What drives your usage" panel of Insights in Chromium against the built server, whose probe runs the
// fake `claude` (real schema): nothing runs until asked, the scan's progress shows and survives leaving Insights,
// the result (behaviors, recommendations, sources, both periods) comes from one skip_behaviors:false request and is
// kept; an API-key login says why there is no analysis; a failure shows in place. Needs `npm run build`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startAppServer } from '../helpers/app-server.ts';
import { FAKE_CLAUDE } from '../helpers/paths.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const test = suite('usage drivers panel');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'drivers-ui-'));

const requests = (log: string): Record<string, unknown>[] =>
  fs.existsSync(log)
    ? fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; request?: Record<string, unknown> }).flatMap((l) => (l.kind === 'request' && l.request ? [l.request] : []))
    : [];

test('opt-in: progress while the CLI scans (kept across views), then behaviors, recommendations and sources per period', async () => {
  const log = path.join(tmp, 'ok.jsonl');
  const server = await startAppServer({ env: { AGENT_BIN: FAKE_CLAUDE, FAKE_CLAUDE_MODE: 'success', FAKE_CLAUDE_LOG: log, FAKE_CLAUDE_BEHAVIORS_MS: '4000' } });
  const browser = await launchBrowser();
  try {
    const page = await browser.page();
    await page.goto(`${server.url}/?view=insights&range=365`);
    const panel = page.locator('cost-usage-drivers [data-panel="usage-drivers"]');
    await panel.waitFor();
    await page.waitForTimeout(300);
    assert.equal(requests(log), [], 'nothing runs until the user asks');
    assert.match(await panel.innerText(), /runs only when you ask/);

    await panel.locator('[data-action="analyse-drivers"]').click();
    const progress = panel.locator('[role="status"]');
    await progress.waitFor();
    assert.match(await progress.innerText(), /scanning the last 7 days/);
    assert.is(await panel.getAttribute('aria-busy'), 'true');
    await waitFor(async () => /^[1-9]\d* s$/.test((await progress.locator('[data-elapsed]').textContent()) ?? ''), 'the elapsed time counts');
    // Leave Insights and come back: the same scan is still running, not a new one.
    await page.locator('cost-top-bar [data-view="overview"]').click();
    await page.locator('cost-overview-view').waitFor();
    assert.is(await page.locator('cost-usage-drivers').count(), 0, 'the panel is gone with Insights');
    await page.locator('cost-top-bar [data-view="insights"]').click();
    await progress.waitFor();
    await panel.locator('.behaviors').waitFor({ timeout: 15_000 });
    assert.equal(requests(log), [{ subtype: 'get_usage', skip_behaviors: false }], 'one scan, with behaviors asked for');
    assert.is(await panel.getAttribute('aria-busy'), 'false');

    const rows = () =>
      panel.locator('.behaviors li').evaluateAll((els) =>
        els.map((el) => [el.querySelector('.label')?.textContent?.trim(), el.querySelector('[role="meter"]')?.getAttribute('aria-valuenow'), el.querySelector('.count')?.textContent?.trim()]),
      );
    assert.equal(await rows(), [
      ['Cache misses', '38', '246 requests'],
      ['Long context', '22', '102 requests'],
      ['Subagent-heavy sessions', '15', '6 requests'],
      ['Many sessions at once', '9', '72 requests'],
    ]);
    assert.match(await panel.locator('.summary').innerText(), '1,080 requests in 24 sessions');
    const recs = await panel.locator('.recs li').allInnerTexts();
    assert.is(recs.length, 3);
    assert.match(recs[0]!, 'Compact before you step away');
    assert.match(recs[2]!, /Run fewer sessions at once · up to 5 at once/);
    const sources = await panel.locator('.sources').allInnerTexts();
    assert.equal(sources.map((t) => t.trim()), ['Subagents: code-reviewer 12%', 'Skills: pdf 4%', 'MCP servers: github 7%']);
    await panel.locator('[data-period="day"]').click();
    assert.match(await panel.locator('.summary').innerText(), '180 requests in 4 sessions');
    assert.equal((await rows())[0], ['Cache misses', '38', '41 requests']);
    await browser.screenshot(page, 'usage-drivers');

    // The shell's refresh keeps the result (no new scan); "Analyse again" asks the server to rescan.
    await page.locator('cost-top-bar [aria-label="Refresh now"]').click();
    await page.waitForTimeout(300);
    assert.is(requests(log).length, 1);
    await panel.locator('[data-action="refresh-drivers"]').click();
    await waitFor(() => requests(log).length === 2, 'a second scan');
    await panel.locator('[data-action="refresh-drivers"]:not([disabled])').waitFor({ timeout: 15_000 });
    assert.equal(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('an API-key login: the panel says the CLI makes no analysis for it', async () => {
  const server = await startAppServer({ env: { AGENT_BIN: FAKE_CLAUDE, FAKE_CLAUDE_MODE: 'api-key' } });
  const browser = await launchBrowser();
  try {
    const page = await browser.page();
    await page.goto(`${server.url}/?view=insights&range=365`);
    const panel = page.locator('cost-usage-drivers [data-panel="usage-drivers"]');
    await panel.locator('[data-action="analyse-drivers"]').click();
    const na = panel.locator('[role="note"]');
    await na.waitFor({ timeout: 15_000 });
    assert.match(await na.innerText(), 'only for claude.ai subscriptions');
    assert.is(await panel.locator('.behaviors').count(), 0);
    assert.equal(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a failing CLI: the error shows in the panel, no toast; trying again works once the CLI answers', async () => {
  const server = await startAppServer({ env: { AGENT_BIN: FAKE_CLAUDE, FAKE_CLAUDE_MODE: 'error' } });
  const browser = await launchBrowser();
  try {
    const page = await browser.page();
    await page.goto(`${server.url}/?view=insights&range=365`);
    const panel = page.locator('cost-usage-drivers [data-panel="usage-drivers"]');
    await panel.locator('[data-action="analyse-drivers"]').click();
    const error = panel.locator('[role="alert"]');
    await error.waitFor({ timeout: 15_000 });
    assert.match(await error.innerText(), 'Usage is only available for subscription plans');
    assert.is(await page.locator('cost-toast .toast').count(), 0);
    assert.ok(browser.problems.every((p) => /503|Service Unavailable/.test(p)), browser.problems.join('\n'));
  } finally {
    await browser.close();
    await server.close();
  }
});

test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
test.run();
