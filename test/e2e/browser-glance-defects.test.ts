// The defects of issue 14 in Chromium against the real server (dist/main.js) over crafted transcripts, at 1440 px in
// a dark theme and at 800 px in a light one: the Insights block card's Plan usage button, model colours that do not
// follow the cost rank, session titles clamped to two lines, the project's sessions table without sideways scroll,
// the run rate over whole days and marked partial weeks, "<1%" shares and token composition by cost, CSV costs
// rounded, the table keys in the help, whole theme names, one form of y axis labels, and the "N more" bar no longer
// than the top one; stat card figures and help key caps shown whole. The server runs in UTC. Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Insights, ProjectSessions } from '../../src/shared/api-types.ts';
import { formatUsd } from '../../ui/src/format.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { FAKE_CLAUDE } from '../helpers/paths.ts';
import { launchThemed, type Browser } from '../helpers/browser.ts';
import { tempDir, usageLine, userLine, writeJsonl } from '../helpers/jsonl.ts';

const DAY = 86_400_000;
const now = Date.now();
const at = (ms: number) => new Date(ms).toISOString();
const OPUS = 'claude-opus-4-5-20251101';
const HAIKU = 'claude-haiku-4-5-20251001';
const SONNET = 'claude-sonnet-4-5-20250929';
const PROJECT = '-home-dev-alpha';
const PROMPT = `Refactor the ingest pipeline so that ${'every transcript line is read exactly once and '.repeat(14)}nothing is lost.`;
// 15 tools: Bash 40 calls, 14 others 10 each; the 6 beyond the 9 drawn sum to 60, more than Bash.
const TOOLS = ['Bash', ...Array.from({ length: 14 }, (_, i) => `Tool${String.fromCharCode(65 + i)}`)];

const work = tempDir('cost-glance-');
const dir = path.join(work.dir, 'projects', PROJECT);
let n = 0;
const line = (o: Parameters<typeof usageLine>[0]) => {
  n++;
  return usageLine({ cwd: '/home/dev/alpha', messageId: `m${n}`, requestId: `r${n}`, ...o });
};
writeJsonl(path.join(dir, 'sess-long.jsonl'), [
  userLine(PROMPT, { sessionId: 'sess-long', cwd: '/home/dev/alpha', timestamp: at(now - 20 * DAY) }),
  // 20 days ago: haiku, a lot of it (the most expensive model over 30 days), and every model of the session.
  ...Array.from({ length: 6 }, (_, i) => line({ sessionId: 'sess-long', timestamp: at(now - 20 * DAY + i * 60_000), model: HAIKU, input: 2_000_000, output: 600_000, cacheCreate: 3 })),
  line({ sessionId: 'sess-long', timestamp: at(now - 20 * DAY + 10 * 60_000), model: SONNET, input: 1000, output: 100 }),
  line({ sessionId: 'sess-long', timestamp: at(now - 20 * DAY + 11 * 60_000), model: 'claude-opus-4-1-20250805', input: 10, output: 10 }),
  line({ sessionId: 'sess-long', timestamp: at(now - 20 * DAY + 12 * 60_000), model: 'claude-sonnet-4-20250514', input: 10, output: 10 }),
  line({ sessionId: 'sess-long', timestamp: at(now - 20 * DAY + 13 * 60_000), model: 'claude-3-5-haiku-20241022', input: 10, output: 10 }),
  // Two days ago: opus (the most expensive model over 7 days), over $10 in a day; the tools; a tiny 1-hour cache write.
  line({ sessionId: 'sess-long', timestamp: at(now - 2 * DAY), model: OPUS, input: 1000, output: 700_000, cacheRead: 2_000_000, cacheCreate: 10, cache1h: 10, tools: TOOLS.slice(0, 1) }),
  ...Array.from({ length: 39 }, (_, i) => line({ sessionId: 'sess-long', timestamp: at(now - 2 * DAY + (i + 1) * 1000), model: OPUS, input: 10, output: 10, tools: i < 10 ? TOOLS.slice(1) : ['Bash'] })),
  // The active block: a few minutes ago.
  line({ sessionId: 'sess-long', timestamp: at(now - 5 * 60_000), model: SONNET, input: 5000, output: 2000 }),
]);

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

/** Background colours of the legend swatches of the series chart in `view`, by model title. */
async function legendColors(page: Page, view: string): Promise<Record<string, string>> {
  const items = page.locator(`${view} cost-chart-series .legend .item`);
  await items.first().waitFor();
  const out: Record<string, string> = {};
  for (const item of await items.all()) out[(await item.getAttribute('title')) ?? ''] = await item.locator('i').evaluate((i) => getComputedStyle(i).backgroundColor);
  return out;
}

for (const setup of SETUPS) {
  let browser: Browser;
  let page: Page;
  const test = suite(`issue 14 defects, ${setup.name}`);

  test.before(async () => {
    server ??= await startAppServer({ dir: work.dir, env: { TZ: 'UTC', AGENT_BIN: FAKE_CLAUDE, FAKE_CLAUDE_MODE: 'success' }, timeoutMs: 30_000 });
    await untilIndexed(server, 30_000);
    ({ browser, page } = await launchThemed(server.url, setup));
  });

  test.after(async () => {
    await browser?.close();
  });

  test('the Plan usage button of the Insights block card opens the dialog', async () => {
    await page.goto(`${server.url}/?view=insights&range=7`);
    assert.is(await page.evaluate(() => document.body.dataset.theme), setup.theme);
    await page.locator('cost-insights-view [data-block="active"] button.usage').click();
    await page.locator('cost-usage-dialog dialog').waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await page.locator('cost-usage-dialog dialog').waitFor({ state: 'hidden' });
  });

  test('a model keeps its colour across ranges and views, whatever its cost rank', async () => {
    const ranks = async (range: number) =>
      (await getJson<{ costByModel: { model: string; cost: number }[] }>(server, `/api/overview?range=${range}`)).costByModel
        .sort((a, b) => b.cost - a.cost).map((m) => m.model);
    assert.is((await ranks(7))[0], OPUS, 'opus leads the 7 days');
    assert.is((await ranks(30))[0], HAIKU, 'haiku leads the 30 days');
    await page.goto(`${server.url}/?view=overview&range=7`);
    const week = await legendColors(page, 'cost-overview-view');
    await page.goto(`${server.url}/?view=overview&range=30`);
    const month = await legendColors(page, 'cost-overview-view');
    await page.goto(`${server.url}/?view=project&project=${PROJECT}&range=30`);
    const project = await legendColors(page, 'cost-project-view');
    for (const m of [OPUS, SONNET]) {
      assert.ok(week[m] && month[m], `${m} in both legends`);
      assert.is(week[m], month[m], `${m}: 7 days vs 30 days`);
      assert.is(project[m], month[m], `${m}: project vs overview`);
    }
    assert.is(new Set(Object.values(month)).size, Object.keys(month).length, 'distinct colours in one chart');
  });

  test('a session title is two lines with an ellipsis, all of it in the tooltip and on the focused row', async () => {
    await page.goto(`${server.url}/?view=project&project=${PROJECT}&range=30`);
    const title = page.locator('cost-project-view cost-table[view="project"] tbody tr .clamp').first();
    await title.waitFor();
    const box = () => title.evaluate((e) => ({ h: e.clientHeight, full: e.scrollHeight, line: parseFloat(getComputedStyle(e).lineHeight) || 18 }));
    const before = await box();
    assert.ok(before.h <= before.line * 2 + 1, `two lines: ${before.h}px for a ${before.line}px line`);
    assert.ok(before.full > before.h + before.line, 'the prompt is longer than two lines');
    const full = (await getJson<ProjectSessions>(server, `/api/projects/${PROJECT}/sessions?range=30`)).sessions.find((x) => x.id === 'sess-long')!.title;
    assert.ok(full.length > 300 && PROMPT.startsWith(full.replace(/…$/, '')), 'the title is the (long) prompt');
    assert.ok((await title.getAttribute('title'))?.startsWith(full), 'the whole title in the tooltip');
    await page.locator('cost-project-view cost-table[view="project"] tbody tr').first().focus();
    const focused = await box();
    assert.ok(focused.h >= focused.full - 1, `focused: ${focused.h}px of ${focused.full}px shown`);
    // The session view's heading too.
    await page.goto(`${server.url}/?view=detail&session=sess-long&range=30`);
    const h2 = page.locator('cost-session-view h2');
    await h2.waitFor();
    const hb = await h2.evaluate((e) => ({ h: e.clientHeight, full: e.scrollHeight, line: parseFloat(getComputedStyle(e).lineHeight) || 24 }));
    assert.ok(hb.h <= hb.line * 2 + 1 && hb.full > hb.h, `heading clamped: ${hb.h}px of ${hb.full}px`);
    await h2.focus();
    assert.ok(await h2.evaluate((e) => e.clientHeight >= e.scrollHeight - 1), 'the focused heading shows it all');
  });

  if (setup.width === 1440) {
    test('at 1440 px the project\'s sessions table does not scroll sideways', async () => {
      await page.goto(`${server.url}/?view=project&project=${PROJECT}&range=30`);
      const scroll = page.locator('cost-project-view cost-table[view="project"] .scroll');
      await scroll.waitFor();
      const w = await scroll.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
      assert.ok(w.scroll <= w.client, `table ${w.scroll}px in ${w.client}px`);
      assert.ok((await page.locator('cost-project-view cost-table[view="project"] tbody tr').first().innerText()).includes('+'), 'the models past two are counted');
    });
  }

  test('the run rate counts whole elapsed days, or cannot project yet', async () => {
    const today = await getJson<Insights>(server, '/api/insights?range=today');
    assert.is(today.runRate.days, 0);
    await page.goto(`${server.url}/?view=insights&range=today`);
    const card = page.locator('cost-insights-view cost-stat-card[data-stat="run-rate"]');
    await card.waitFor();
    assert.is((await card.locator('.value').textContent())?.trim(), '—');
    assert.match((await card.locator('.sub').textContent()) ?? '', /Cannot project yet/);
    const week = await getJson<Insights>(server, '/api/insights?range=7');
    assert.is(week.runRate.days, 6, 'today left out');
    await page.goto(`${server.url}/?view=insights&range=7`);
    await page.locator('cost-insights-view cost-stat-card[data-stat="run-rate"]').waitFor();
    assert.is((await page.locator('cost-insights-view cost-stat-card[data-stat="run-rate"] .value').textContent())?.trim(), formatUsd(week.runRate.projectedMonthly));
  });

  test('weeks the range cuts are marked partial in the weekly chart', async () => {
    const month = await getJson<Insights>(server, '/api/insights?range=30');
    const add6 = (k: string) => new Date(Date.parse(`${k}T00:00:00Z`) + 6 * DAY).toISOString().slice(0, 10);
    const partial = month.weeklyCost.filter((w) => w.weekStart < month.range.from || add6(w.weekStart) > month.range.to).map((w) => w.weekStart);
    assert.ok(partial.length >= 1, '30 days cut at least one week');
    await page.goto(`${server.url}/?view=insights&range=30`);
    const chart = page.locator('cost-insights-view cost-chart-series[label="Weekly cost"]');
    await chart.locator('g.col').first().waitFor();
    assert.is(await chart.locator('g.col.partial').count(), partial.length);
    assert.match((await chart.locator('g.col.partial').first().getAttribute('aria-label')) ?? '', /\(partial week\)/);
  });

  test('a share that is not zero reads "<1%"', async () => {
    await page.goto(`${server.url}/?view=insights&range=7`);
    const bars = page.locator('cost-insights-view cost-chart-bars[label="Token composition"]');
    const row = bars.locator('.row', { hasText: 'Cache write 1h' });
    await row.waitFor();
    assert.is((await row.locator('.share').textContent())?.trim(), '<1%');
  });

  test('token composition by cost', async () => {
    await page.goto(`${server.url}/?view=insights&range=7`);
    const ins = await getJson<Insights>(server, '/api/insights?range=7');
    assert.ok(ins.costComposition.output > ins.costComposition.input, 'output costs more than input here');
    await page.locator('cost-insights-view button[data-by="cost"]').click();
    const byCost = page.locator('cost-insights-view cost-chart-bars[label="Token composition by cost"]');
    const out = byCost.locator('.row', { hasText: 'Output' });
    await out.waitFor();
    assert.is((await out.locator('.val').textContent())?.trim(), formatUsd(ins.costComposition.output));
    assert.is(await page.locator('cost-insights-view button[data-by="cost"]').getAttribute('aria-pressed'), 'true');
  });

  test('CSV costs are rounded to 6 decimals', async () => {
    const s = await getJson<ProjectSessions>(server, `/api/projects/${PROJECT}/sessions?range=30`);
    const cost = s.sessions.find((x) => x.id === 'sess-long')!.cost;
    assert.ok(String(cost).split('.')[1]!.length > 6, `the API's cost ${cost} has float noise to round`);
    await page.goto(`${server.url}/?view=project&project=${PROJECT}&range=30`);
    const table = page.locator('cost-project-view cost-table[view="project"]');
    await table.locator('tbody tr').first().waitFor();
    const [dl] = await Promise.all([page.waitForEvent('download'), table.locator('button.export').click()]);
    const rows = fs.readFileSync((await dl.path()) as string, 'utf8').trim().split('\r\n');
    const cells = rows[1]!.split(',');
    const at = rows[0]!.split(',').indexOf('Cost');
    assert.is(cells[at], String(Math.round(cost * 1e6) / 1e6));
    for (const c of rows.slice(1).flatMap((r) => r.split(','))) assert.not.match(c, /^\d+\.\d{7,}$/, c);
  });

  test('the help lists the table keys', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    await page.locator('cost-top-bar').waitFor();
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    await page.keyboard.press('?');
    const dialog = page.locator('cost-help-overlay dialog');
    await dialog.waitFor({ state: 'visible' });
    const text = await dialog.innerText();
    for (const k of ['j', 'k', 'Enter', '↑', '↓']) assert.ok(text.split(/\s+/).includes(k), `the help shows ${k}`);
    assert.match(text, /open the selected row/);
    // Each key cap whole and apart from the next: 'PageUp / PageDown / Home / End' is wider than the keys' column.
    const clashes = await dialog.evaluate((d) => {
      const out: string[] = [];
      for (const dt of d.querySelectorAll('dt')) {
        const caps = [...dt.querySelectorAll('kbd')];
        for (const k of caps) if (k.scrollWidth > k.clientWidth) out.push(`${k.textContent} cut`);
        const boxes = caps.map((k) => k.getBoundingClientRect());
        boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, j) => {
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) out.push(`${caps[i]!.textContent} over ${caps[i + 1 + j]!.textContent}`);
        }));
        const dd = dt.nextElementSibling?.getBoundingClientRect();
        if (dd && boxes.some((b) => b.right > dd.left + 0.5 && b.top < dd.bottom && b.bottom > dd.top)) out.push(`${dt.textContent} runs into its text`);
      }
      return out;
    });
    assert.equal(clashes, [], 'key caps clash');
    await page.keyboard.press('Escape');
  });

  test('every stat card shows its whole value, a five-figure cost included', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    await page.locator('cost-overview-view cost-stat-card[data-stat="cost"]').waitFor();
    await page.locator('cost-glance-strip cost-stat-card').first().waitFor();
    // A heavy month: the longest values the cards show. Set on every card of both rows, as the server would send them.
    const cut = await page.evaluate(async () => {
      type Card = HTMLElement & { value: string; updateComplete: Promise<boolean> };
      const cards: Card[] = [];
      const walk = (root: Document | ShadowRoot) => root.querySelectorAll('*').forEach((e) => {
        if (e.tagName === 'COST-STAT-CARD') cards.push(e as Card);
        if (e.shadowRoot) walk(e.shadowRoot);
      });
      walk(document);
      for (const [i, c] of cards.entries()) c.value = i % 2 ? '$12,345.67' : '4h 59m left';
      await Promise.all(cards.map((c) => c.updateComplete));
      const values = cards.map((c) => c.shadowRoot!.querySelector<HTMLElement>('.value')!);
      return values.filter((v) => v.scrollWidth > v.clientWidth).map((v) => v.textContent);
    });
    assert.equal(cut, [], 'no value is cut');
  });

  test('theme names are whole in the picker, the chosen one included', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    await page.locator('#theme-btn').click();
    await page.locator('#theme-pop').waitFor({ state: 'visible' });
    const name = page.locator('.theme-option[data-theme-id="synthwave"] .theme-name');
    await name.waitFor();
    assert.is(await name.innerText(), "Synthwave '84");
    const cut = await page.$$eval('.theme-name', (els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    assert.equal(cut, [], 'no theme name is cut');
    await page.keyboard.press('Escape');
  });

  test('y axis labels share one form', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    const ticks = page.locator('cost-overview-view cost-chart-series g.tick text');
    await ticks.first().waitFor();
    const labels = (await ticks.allTextContents()).map((t) => t.trim());
    assert.ok(labels.some((l) => /\d\d/.test(l)), `a day over $10: ${labels}`);
    const decimals = new Set(labels.map((l) => /\.(\d+)/.exec(l)?.[1]?.length ?? 0));
    assert.is(decimals.size, 1, `one form: ${labels.join(' ')}`);
  });

  test('the "N more" bar of Top tools is no longer than the top tool', async () => {
    await page.goto(`${server.url}/?view=insights&range=7`);
    const tools = page.locator('cost-insights-view cost-chart-bars[label="Top tools"]');
    const more = tools.locator('.row', { hasText: /\d+ more/ });
    await more.waitFor();
    const width = (loc: ReturnType<Page['locator']>) => loc.locator('.fill').evaluate((e) => e.getBoundingClientRect().width);
    const top = await width(tools.locator('.row').first());
    const rest = await width(more);
    assert.ok(rest <= top + 0.5, `"N more" ${rest}px, top tool ${top}px`);
    assert.match((await more.getAttribute('aria-label')) ?? '', /^6 more: 60/);
  });

  test('no console errors or failed requests', () => {
    assert.equal(browser.problems, []);
  });

  test.run();
}

// The server is shared by both setups; uvu runs suites in order, so this one closes it.
const done = suite('issue 14 defects: the server stops');
done('closes', async () => {
  await server?.close();
  work.cleanup();
});
done.run();
