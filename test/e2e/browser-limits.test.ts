// Plan limits in Chromium against the real server (dist/main.js, TZ=UTC): the readings the statusline left in the side
// file and the hits of the transcripts, shown as the strip's limits card, one banner line per alert (75 % passed, 100 %
// forecast before the reset) with a desktop notification once, and the Insights section's chart per window with its
// resets, hits and forecast, the blocks table's mark on the block a hit stopped, and the overview's real-money block
// with programmatic use apart. At 1440 and 800 px, light and dark; screenshots in test-artifacts/. Needs the build.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { LimitsData, Overview } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { launchThemed, type Browser } from '../helpers/browser.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { hitLine, throttleLine } from '../helpers/limit-lines.ts';

const H = 3_600_000;
const now = Date.now();
const work = tempDir('cost-limits-ui-');
const indexFile = path.join(work.dir, 'index.db');
writeJsonl(path.join(work.dir, 'projects', '-home-dev-limits', 's1.jsonl'), [
  // What started each entry: none (an older line), the terminal, then the Agent SDK and print mode (programmatic use).
  ...[30, 20, 10, 4, 3, 2].map((hAgo, i) => usageLine({ sessionId: 's1', messageId: `m${i}`, requestId: `r${i}`, timestamp: new Date(now - hAgo * H).toISOString(),
    extra: { costUSD: 2 + i, ...(i > 0 ? { entrypoint: ['cli', 'cli', 'cli', 'sdk-ts', 'sdk-cli'][i - 1] } : {}) } })),
  hitLine("You've hit your session limit · resets 11pm (UTC)", now - 27 * H, { sessionId: 's1' }),
  throttleLine(now - 26 * H),
]);
// The statusline's readings: an ended 5-hour window yesterday, the current one climbing to 80 %, a week at 30 %.
const reset5 = now + H;
const earlier5 = now - 25 * H;
const week = now + 3 * 24 * H;
const side = [
  ...[[-29, 20], [-28, 60], [-27, 100]].map(([h, u]) => ({ w: 'five_hour', u, r: earlier5, o: now + h! * H })),
  ...[[-3.5, 20], [-2, 45], [-0.5, 80]].map(([h, u]) => ({ w: 'five_hour', u, r: reset5, o: now + h! * H })),
  ...[[-48, 20], [-1, 30]].map(([h, u]) => ({ w: 'seven_day', u, r: week, o: now + h! * H })),
].map((r) => `${JSON.stringify({ ...r, m: 'desk' })}\n`).join('');
fs.writeFileSync(`${indexFile}.limits`, side);

const SETUPS = [
  { name: '1440 px, nord dark', width: 1440, theme: 'nord', mode: 'dark' as const },
  { name: '1440 px, github light', width: 1440, theme: 'github', mode: 'light' as const },
  { name: '800 px, github light', width: 800, theme: 'github', mode: 'light' as const },
  { name: '800 px, nord dark', width: 800, theme: 'nord', mode: 'dark' as const },
];

const FAKE_NOTIFICATION = `
  window.__notes = [];
  window.Notification = class {
    static permission = 'default';
    static async requestPermission() { window.Notification.permission = 'granted'; return 'granted'; }
    constructor(title, options) { window.__notes.push({ title, ...options }); }
  };`;

let server: AppServer;
const noOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

for (const setup of SETUPS) {
  let browser: Browser;
  let page: Page;
  const test = suite(`plan limits, ${setup.name}`);

  test.before(async () => {
    server ??= await startAppServer({ dir: work.dir, indexFile, env: { TZ: 'UTC' }, timeoutMs: 30_000 });
    await untilIndexed(server, 30_000);
    const data = await getJson<LimitsData>(server, '/api/limits');
    assert.is(data.readings.length, 8, 'the side file was taken in');
    ({ browser, page } = await launchThemed(server.url, setup, FAKE_NOTIFICATION));
  });

  test.after(async () => {
    await browser?.close();
  });

  test('the strip\'s limits card and one banner line per alert, notified once', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    const card = page.locator('cost-glance-strip cost-limits-card cost-stat-card[data-stat="glance-limits"]');
    await card.locator('.value').waitFor();
    assert.is((await card.locator('.value').textContent())?.trim(), '80%');
    assert.is(await card.getAttribute('tone'), 'critical');
    assert.match((await card.locator('.sub').textContent()) ?? '', /^→ \d+% at \d\d:\d\d · weekly 30%$/);
    const banner = page.locator('cost-limit-alerts section[role="alert"]');
    await banner.waitFor();
    const lines = (await banner.locator('li .text').allTextContents()).map((s) => s.trim());
    assert.is(lines.filter((l) => /^5-hour limit at 80% \(passed 75%\)/.test(l)).length, 1, lines.join('\n'));
    assert.is(lines.filter((l) => /^5-hour limit reaches 100% at \d\d:\d\d at this pace/.test(l)).length, 1, lines.join('\n'));
    assert.is(lines.length, 2, lines.join('\n'));
    assert.ok(await noOverflow(page), 'no horizontal scroll');
    await browser.screenshot(page, `limits-overview-${setup.width}-${setup.mode}`);
    await banner.locator('button.notify').click();
    await page.waitForFunction(() => (window as unknown as { __notes: unknown[] }).__notes.length === 2);
    // A refresh of the views does not notify again.
    await page.reload();
    await banner.waitFor();
    await page.waitForTimeout(300);
    assert.is(await page.evaluate(() => (window as unknown as { __notes: unknown[] }).__notes.length), 0, 'a new page starts over');
    await banner.locator('li').first().locator('button.dismiss').click();
    assert.is(await banner.locator('li').count(), 1);
  });

  test('Insights: a chart per window with its resets, hits and forecast', async () => {
    await page.goto(`${server.url}/?view=insights&range=7`);
    const section = page.locator('cost-insights-view cost-limits-section');
    const five = section.locator('figure[data-window="five_hour"]');
    await five.locator('svg').waitFor();
    assert.is(await five.locator('polyline.reading').count(), 2, 'two 5-hour periods');
    assert.ok((await five.locator('line.reset').count()) >= 1);
    assert.is(await five.locator('line.forecast').count(), 1);
    assert.is(await five.locator('path.hit').count(), 1);
    assert.match((await five.locator('svg').getAttribute('aria-label')) ?? '', /^5-hour: 6 readings since .*, last 80%, \d+% projected at the reset .*, 1 limit hits$/);
    assert.match((await five.locator('figcaption').textContent()) ?? '', /pace [\d.]+×/);
    assert.is(await section.locator('figure[data-window="seven_day"] polyline.reading').count(), 1);
    assert.match((await section.locator('p.hits').textContent()) ?? '', /Limit hits in the transcripts: 5-hour 1/);
    // The blocks table marks the block the session limit stopped (30 h to 25 h ago), and that one only.
    const hitTags = page.locator('cost-insights-view cost-table tbody .tag.hit');
    assert.is(await hitTags.count(), 1);
    assert.is((await hitTags.textContent())?.trim(), '5-hour limit hit');
    assert.match((await hitTags.getAttribute('title')) ?? '', /^5-hour limit hit at .*, resets /);
    await section.scrollIntoViewIfNeeded();
    assert.ok(await noOverflow(page), 'no horizontal scroll');
    await browser.screenshot(page, `limits-insights-${setup.width}-${setup.mode}`);
    assert.equal(browser.problems, []);
  });

  test('the plan and the thresholds in the budgets dialog; the overview shows the plan beside the API-equivalent month', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    assert.is(await page.locator('cost-plan-money cost-stat-card').count(), 0, 'nothing without a plan');
    await page.locator('cost-glance-strip button.budgets').click();
    const form = page.locator('cost-glance-strip cost-budget-dialog cost-limit-settings form');
    await form.waitFor();
    await form.locator('select[name="plan"]').selectOption('max5');
    assert.is(await form.locator('input[name="price"]').inputValue(), '100');
    await form.locator('input[name="price"]').fill('90');
    await form.locator('input[name="thresholds"]').fill('70, 95');
    await form.locator('button.save-plan').click();
    await form.locator('.status').filter({ hasText: 'Saved' }).waitFor();
    const saved = await getJson<LimitsData>(server, '/api/limits');
    assert.equal(saved.plan, { plan: 'max5', monthlyPrice: 90 });
    assert.equal(saved.thresholds, [70, 95]);
    await browser.screenshot(page, `limits-dialog-${setup.width}-${setup.mode}`);
    await page.keyboard.press('Escape');
    const price = page.locator('cost-plan-money cost-stat-card[data-stat="plan-price"]');
    await price.locator('.value').waitFor();
    assert.is((await price.locator('.value').textContent())?.trim(), '$90.00/mo');
    const month = (await getJson<{ totals: { cost: number } }>(server, '/api/overview?range=month')).totals.cost;
    const apiCard = page.locator('cost-plan-money cost-stat-card[data-stat="plan-api-equivalent"]');
    assert.match((await apiCard.locator('.sub').textContent()) ?? '', new RegExp(`^${(month / 90).toFixed(1).replace('.', '\\.')}× the plan's price$`));
    // Programmatic use (SDK, claude -p) apart from interactive, with their cost: this month's byEntrypoint split.
    const { byEntrypoint } = await getJson<Overview>(server, '/api/overview?range=month');
    const split = (programmatic: boolean) => byEntrypoint.filter((e) => e.programmatic === programmatic);
    assert.equal(split(true).map((e) => e.entrypoint).sort(), ['sdk-cli', 'sdk-ts'], 'the SDK and print-mode entries of the month');
    for (const [stat, rows, tail] of [['plan-programmatic', split(true), 'at API prices'], ['plan-interactive', split(false), 'API-equivalent']] as const) {
      const card = page.locator(`cost-plan-money cost-stat-card[data-stat="${stat}"]`);
      const cost = rows.reduce((sum, e) => sum + e.cost, 0);
      assert.ok(cost > 0, stat);
      assert.is((await card.locator('.value').textContent())?.trim(), `$${cost.toFixed(2)}`, stat);
      assert.is((await card.locator('.sub').textContent())?.trim(), `${rows.map((e) => e.entrypoint ?? 'unknown').join(', ')} · ${tail}`, stat);
    }
    await browser.screenshot(page, `limits-money-${setup.width}-${setup.mode}`);
    assert.ok(await noOverflow(page), 'no horizontal scroll');
    // Back to no plan and the default thresholds for the next setup.
    await fetch(`${server.url}/api/limits/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ plan: null, thresholds: [75, 90] }) });
  });

  if (setup === SETUPS[SETUPS.length - 1]) {
    test.after(async () => {
      await server?.close();
      work.cleanup();
    });
  }
  test.run();
}
