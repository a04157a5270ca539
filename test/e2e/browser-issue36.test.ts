// Issue 36 in Chromium against the real server (dist/main.js) over crafted transcripts, at 1440 px dark and 800 px
// light: the blocks table lists a block's models the dearest first with what each cost; a project's sessions that are
// only Claude Code's Warmup side calls are folded into one line under its sessions table, not listed as rows; a session
// that began with /clear is titled by the prompt after it. Screenshots in test-artifacts/. Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { launchThemed, type Browser } from '../helpers/browser.ts';
import { tempDir, usageLine, userLine, writeJsonl } from '../helpers/jsonl.ts';

const now = Date.now();
const at = (ms: number) => new Date(ms).toISOString();
const HAIKU = 'claude-haiku-4-5-20251001';
const SONNET = 'claude-sonnet-4-5-20250929';
const PROJECT = '-home-dev-beta';

const work = tempDir('cost-issue36-');
const dir = path.join(work.dir, 'projects', PROJECT);
let n = 0;
const line = (o: Parameters<typeof usageLine>[0]) => {
  n++;
  return usageLine({ cwd: '/home/dev/beta', messageId: `m${n}`, requestId: `r${n}`, ...o });
};
// The active block: a lot of haiku lines that cost little, one sonnet line that costs the money.
writeJsonl(path.join(dir, 'sess-work.jsonl'), [
  userLine('<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>', { sessionId: 'sess-work', timestamp: at(now - 30 * 60_000) }),
  userLine('speed up the report query', { sessionId: 'sess-work', timestamp: at(now - 29 * 60_000) }),
  ...Array.from({ length: 5 }, (_, i) => line({ sessionId: 'sess-work', timestamp: at(now - 20 * 60_000 + i * 1000), model: HAIKU, input: 100, output: 100 })),
  line({ sessionId: 'sess-work', timestamp: at(now - 10 * 60_000), model: SONNET, input: 10_000, output: 50_000 }),
]);
// Another project's cheaper session.
writeJsonl(path.join(work.dir, 'projects', '-home-dev-gamma', 'sess-small.jsonl'), [
  userLine('fix a typo', { sessionId: 'sess-small', cwd: '/home/dev/gamma', timestamp: at(now - 50 * 60_000) }),
  line({ sessionId: 'sess-small', cwd: '/home/dev/gamma', timestamp: at(now - 50 * 60_000), model: HAIKU, input: 100, output: 2000 }),
]);
// Usage three calendar months back: the two months between have none.
const OLD = new Date(now);
const OLD_MONTH = Date.UTC(OLD.getUTCFullYear(), OLD.getUTCMonth() - 3, 15, 12);
writeJsonl(path.join(work.dir, 'projects', '-home-dev-gamma', 'sess-old.jsonl'), [
  userLine('an old question', { sessionId: 'sess-old', cwd: '/home/dev/gamma', timestamp: at(OLD_MONTH) }),
  line({ sessionId: 'sess-old', cwd: '/home/dev/gamma', timestamp: at(OLD_MONTH), model: HAIKU, input: 100, output: 100 }),
]);
// Two Warmup side calls: an empty session file beside the subagent file of its warm-up call (Claude Code 2.0.x).
for (const sid of ['warm-a', 'warm-b']) {
  fs.writeFileSync(path.join(dir, `${sid}.jsonl`), '');
  writeJsonl(path.join(dir, sid, 'subagents', `agent-${sid}.jsonl`), [
    userLine('Warmup', { sessionId: sid, isSidechain: true, agentId: sid, timestamp: at(now - 40 * 60_000) }),
    line({ sessionId: sid, timestamp: at(now - 40 * 60_000), model: HAIKU, input: 1000, output: 10, extra: { isSidechain: true, agentId: sid } }),
  ]);
}

interface Setup {
  name: string;
  width: number;
  theme: string;
  mode: 'dark' | 'light';
}
const SETUPS: Setup[] = [
  { name: '1440 px, synthwave dark', width: 1440, theme: 'synthwave', mode: 'dark' },
  { name: '800 px, solarized light', width: 800, theme: 'solarized', mode: 'light' },
];

let server: AppServer;

for (const setup of SETUPS) {
  let browser: Browser;
  let page: Page;
  const test = suite(`issue 36, ${setup.name}`);
  const shot = (view: string) => browser.screenshot(page, `issue36-${view}-${setup.width}-${setup.theme}-${setup.mode}`);

  test.before(async () => {
    server ??= await startAppServer({ dir: work.dir, env: { TZ: 'UTC' }, timeoutMs: 30_000 });
    await untilIndexed(server, 30_000);
    ({ browser, page } = await launchThemed(server.url, setup));
  });

  test.after(async () => {
    await browser?.close();
  });

  test('the blocks table lists the models the dearest first, with what each cost', async () => {
    await page.goto(`${server.url}/?view=insights&range=7`);
    const cell = page.locator('cost-insights-view cost-table[view="insights"] tbody tr').first().locator('.models');
    await cell.waitFor();
    const text = (await cell.textContent()) ?? '';
    assert.match(text, /^sonnet-4-5 \$[\d.]+, haiku-4-5 \$[\d.]+$/, text);
    const tip = (await cell.getAttribute('title')) ?? '';
    assert.ok(tip.startsWith(`${SONNET}: $`) && tip.includes(`\n${HAIKU}: $`), tip);
    await page.locator('cost-insights-view cost-table[view="insights"]').first().scrollIntoViewIfNeeded();
    await shot('insights-blocks');
  });

  test('a table wider than its box says that more columns lie to the right, until scrolled there', async () => {
    const table = page.locator('cost-insights-view cost-table[view="insights"]').first();
    const hint = table.locator('.more-hint');
    if (setup.width >= 1440) {
      assert.is(await hint.count(), 0, 'the whole table fits');
      return;
    }
    await hint.waitFor();
    assert.is(await hint.textContent(), 'More columns →');
    await table.locator('.scroll').evaluate((s) => s.scrollTo({ left: s.scrollWidth }));
    await hint.waitFor({ state: 'detached' });
  });

  test('Warmup side calls are folded into one line under the sessions table; /clear does not title a session', async () => {
    await page.goto(`${server.url}/?view=project&project=${PROJECT}&range=7`);
    const rows = page.locator('cost-project-view cost-table[view="project"] tbody tr');
    await rows.first().waitFor();
    const titles = await rows.locator('.primary').allTextContents();
    assert.equal(titles, ['speed up the report query'], 'one row: the real session, titled by the prompt after /clear');
    const folded = page.locator('cost-project-view .folded[data-folded="warmup"]');
    assert.match((await folded.textContent()) ?? '', /^\s*2 Warmup side calls folded here · \$[\d.]+\s*$/);
    await folded.scrollIntoViewIfNeeded();
    await shot('project-sessions');
  });

  test('the Sessions tab lists the sessions of every project, the dearest first, Warmup side calls folded', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    await page.locator('cost-top-bar a.tab[data-view="sessions"]').click();
    const rows = page.locator('cost-sessions-view cost-table tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.locator('.primary').allTextContents(), ['speed up the report query', 'fix a typo']);
    assert.equal(await rows.first().locator('td').nth(2).textContent(), 'beta');
    assert.match((await page.locator('cost-sessions-view [data-folded="warmup"]').textContent()) ?? '', /^2 Warmup side calls folded · \$/);
    assert.match(page.url(), /view=sessions/);
    await shot('sessions');
    // The filter box: a row stays when a column holds the text (the title here, the project name below).
    const filter = page.locator('cost-sessions-view cost-table input.filter');
    await filter.fill('TYPO');
    assert.equal(await rows.locator('.primary').allTextContents(), ['fix a typo']);
    assert.is(await page.locator('cost-sessions-view cost-table .count').textContent(), '1 of 2');
    await filter.fill('beta');
    assert.equal(await rows.locator('.primary').allTextContents(), ['speed up the report query']);
    await filter.fill('');
    assert.is(await rows.count(), 2);
    await rows.first().click();
    await page.locator('cost-session-view').waitFor();
    assert.match(page.url(), /view=detail/);
  });

  test('the overview\'s projects table and the project\'s sessions table have a filter box', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    const projects = page.locator('cost-overview-view cost-table[view="overview"]');
    await projects.locator('tbody tr').first().waitFor();
    assert.is(await projects.locator('tbody tr').count(), 2);
    await projects.locator('input.filter').fill('gam');
    assert.is(await projects.locator('tbody tr').count(), 1);
    assert.match((await projects.locator('tbody tr').first().textContent()) ?? '', /gamma/);
    await page.goto(`${server.url}/?view=project&project=${PROJECT}&range=7`);
    const sessions = page.locator('cost-project-view cost-table[view="project"]');
    await sessions.locator('tbody tr').first().waitFor();
    await sessions.locator('input.filter').fill('nothing like this');
    assert.is(await sessions.locator('tbody tr').count(), 0);
    assert.is(await sessions.locator('.count').textContent(), '0 of 1');
  });

  test('Every month shows the months without usage between, at $0 with no change', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    await page.locator('cost-overview-view details.months summary').click();
    const rows = page.locator('cost-monthly-table cost-table tbody tr');
    await rows.first().waitFor();
    assert.is(await rows.count(), 4, 'this month, two empty ones, the old one');
    const cells = async (i: number) => (await rows.nth(i).locator('td').allTextContents()).map((t) => t.trim());
    for (const i of [1, 2]) {
      const [, cost, , messages, top, change] = await cells(i);
      assert.equal([cost, messages, top], ['$0.00', '0', '—']);
      assert.is(change, i === 2 ? '−100%' : '—');
    }
    assert.is((await cells(0))[5], 'new');
    await page.locator('cost-monthly-table').scrollIntoViewIfNeeded();
    await shot('monthly');
  });

  test('the axis ticks of a range across a year end all carry their year', async () => {
    await page.goto(`${server.url}/?view=overview&range=365`);
    const ticks = page.locator('cost-overview-view cost-chart-series text.xl');
    await ticks.first().waitFor();
    const labels = await ticks.allTextContents();
    assert.ok(labels.length > 2, labels.join(' | '));
    for (const l of labels) assert.match(l, /\b\d{4}$/, labels.join(' | '));
    await shot('overview-year');
  });

  test('the repository view has the chart, cost by model and the sessions of its folders', async () => {
    const projects = await (await fetch(`${server.url}/api/projects?range=7`)).json() as { id: string; repository: { id: string } }[];
    const repo = projects.find((p) => p.id === PROJECT)!.repository.id;
    await page.goto(`${server.url}/?view=repository&repository=${encodeURIComponent(repo)}&range=7`);
    const view = page.locator('cost-repository-view');
    await view.locator('cost-chart-series').waitFor();
    const bars = view.locator('cost-chart-bars .row .name');
    await bars.first().waitFor();
    assert.equal(await bars.allTextContents(), ['sonnet-4-5', 'haiku-4-5']);
    const sessions = view.locator('cost-table[view="repository-sessions"] tbody tr');
    await sessions.first().waitFor();
    assert.equal(await sessions.locator('.primary').allTextContents(), ['speed up the report query']);
    await shot('repository');
  });

  test('g jumps to the first table row; Backspace goes up and back on the row you came from', async () => {
    const focusedKey = () => page.evaluate(() => {
      let a = document.activeElement;
      while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
      return a?.tagName === 'TR' ? a.getAttribute('data-key') : null;
    });
    await page.goto(`${server.url}/?view=sessions&range=7`);
    await page.locator('cost-sessions-view cost-table tbody tr').first().waitFor();
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    assert.is(await focusedKey(), null);
    await page.keyboard.press('g');
    assert.is(await focusedKey(), `${PROJECT}/sess-work`, 'the first row of the Sessions table');
    // down to the second row, open it, then up: the project of that session, on its row
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.locator('cost-session-view').waitFor();
    await page.keyboard.press('Backspace');
    await page.locator('cost-project-view').waitFor();
    await page.waitForFunction(() => {
      let a = document.activeElement;
      while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
      return a?.getAttribute('data-key') === 'sess-small';
    }, undefined, { timeout: 5000 });
    assert.match(page.url(), /project=-home-dev-gamma/);
    // and up again: the last tab, the Sessions view
    await page.keyboard.press('Backspace');
    await page.locator('cost-sessions-view').waitFor();
  });

  test('no console errors or failed requests', () => {
    assert.equal(browser.problems, []);
  });

  test.run();
}

// The server is shared by both setups; uvu runs suites in order, so this one closes it.
const done = suite('issue 36: the server stops');
done('closes', async () => {
  await server?.close();
  work.cleanup();
});
done.run();
