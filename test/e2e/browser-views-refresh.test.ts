// The overview against the real server on a config dir written here (41 projects, one of them on a model no
// catalogue prices): a refresh redraws new figures in place (scroll, selected row and focus kept, no skeleton),
// the unpriced-models chip and its tip, and a failed refresh keeps the last figures. Needs `npm run build`.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Overview } from '../../src/shared/api-types.ts';
import { formatInt, formatTokens, formatUsd } from '../../ui/src/format.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { startAppServer, type AppServer } from '../helpers/app-server.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const PRICED = 'claude-sonnet-4-5-20250929';
const UNKNOWN = 'claude-imaginary-9';
const PROJECTS = 40;
const RANGE = '7';

interface Ctx {
  dir: string;
  server: AppServer;
  browser: Browser;
  page: Page;
}
const ctx = {} as Ctx;
const test = suite<Ctx>('overview refresh and unpriced models', ctx);

let seq = 0;
/** One assistant response line as the agent writes it. */
function line(session: string, cwd: string, model: string, input: number, output: number, at: number): string {
  seq++;
  return `${JSON.stringify({
    type: 'assistant', sessionId: session, cwd, uuid: randomUUID(), timestamp: new Date(at).toISOString(), requestId: `req_ui_${seq}`,
    message: { id: `msg_ui_${seq}`, role: 'assistant', model, usage: { input_tokens: input, output_tokens: output } },
  })}\n`;
}

/** `proj-NN` costs grow with NN (so the table order is known); `mystery` used a model with no price. */
function writeConfig(dir: string): void {
  const now = Date.now();
  for (let n = 0; n < PROJECTS; n++) {
    const name = `proj-${String(n).padStart(2, '0')}`;
    const session = randomUUID();
    const file = path.join(dir, 'projects', `-home-dev-${name}`, `${session}.jsonl`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, [0, 1].map((i) => line(session, `/home/dev/${name}`, PRICED, 1000, 1000 * (n + 1), now - (n * 7 + i) * 60_000)).join(''));
  }
  const session = randomUUID();
  const file = path.join(dir, 'projects', '-home-dev-mystery', `${session}.jsonl`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, [0, 1].map((i) => line(session, '/home/dev/mystery', UNKNOWN, 1234, 5678, now - (30 + i) * 60_000)).join(''));
}

async function overview(): Promise<Overview> {
  const res = await fetch(`${ctx.server.url}/api/overview?range=${RANGE}`);
  if (!res.ok) throw new Error(`overview: ${res.status} ${await res.text()}`);
  return (await res.json()) as Overview;
}

const stat = async (page: Page, name: string) =>
  ((await page.locator(`cost-overview-view cost-stat-card[data-stat="${name}"] .value`).textContent()) ?? '').trim();

test.before(async () => {
  ctx.dir = tempDir('cost-ui-refresh-').dir;
  writeConfig(ctx.dir);
  ctx.server = await startAppServer({ dir: ctx.dir });
  await waitFor(async () => {
    const o = await overview();
    return o.indexing.done && o.projects.length === PROJECTS + 1;
  }, 'the config dir to be indexed', 20_000);
  await fetch(`${ctx.server.url}/api/refresh`, { method: 'POST' });
  ctx.browser = await launchBrowser({ viewport: { width: 1280, height: 800 } });
  ctx.page = await ctx.browser.page();
  await ctx.page.goto(`${ctx.server.url}/?view=overview&range=${RANGE}`);
  await ctx.page.locator('cost-overview-view cost-stat-card[data-stat="cost"]').waitFor();
});

test.after(async () => {
  await ctx.browser?.close();
  await ctx.server?.close();
});

test('a refresh shows new figures in place: scroll, selected row and focus kept, no skeleton', async ({ page, dir }) => {
  const before = await overview();
  assert.is(await stat(page, 'cost'), formatUsd(before.totals.cost));
  // Select (and focus) the 20th row, then scroll the page somewhere in the middle of the table.
  const rows = page.locator('cost-overview-view cost-table tbody tr');
  assert.is(await rows.count(), PROJECTS + 1);
  await rows.nth(19).focus();
  const key = await rows.nth(19).getAttribute('data-key');
  await page.evaluate(() => window.scrollTo(0, 700));
  const scrollY = await page.evaluate(() => window.scrollY);
  assert.ok(scrollY > 300, `the page scrolls (${scrollY})`);
  await page.evaluate(() => {
    const w = window as unknown as { seen: string[] };
    w.seen = [];
    const view = document.querySelector('cost-overview-view')!;
    new MutationObserver((muts) => {
      for (const m of muts) {
        for (const n of m.addedNodes) if (n instanceof Element && (n.matches('cost-skeleton, cost-empty') || n.querySelector('cost-skeleton, cost-empty'))) w.seen.push(n.nodeName);
        if (m.type === 'attributes' && (m.target as Element).matches('.body.stale')) w.seen.push('stale');
      }
    }).observe(view.shadowRoot!, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
    new MutationObserver(() => w.seen.push('view replaced')).observe(view.parentElement!, { childList: true });
  });

  // New usage in the most expensive project (it stays first, so the row order does not change).
  const top = before.projects.reduce((a, b) => (b.cost > a.cost ? b : a));
  const folder = path.join(dir, 'projects', top.id);
  const name = fs.readdirSync(folder).find((f) => f.endsWith('.jsonl'))!;
  fs.appendFileSync(path.join(folder, name), line(name.replace(/\.jsonl$/, ''), `/home/dev/${top.name}`, PRICED, 5000, 200_000, Date.now()));
  const after = await waitFor(async () => {
    await fetch(`${ctx.server.url}/api/refresh`, { method: 'POST' });
    const o = await overview();
    return o.totals.cost > before.totals.cost ? o : null;
  }, 'the appended line to be indexed', 10_000);
  assert.is((await stat(page, 'cost')), formatUsd(before.totals.cost), 'nothing changes before the refresh');

  await page.keyboard.press('r'); // the focused row leaves the key to the shell
  await waitFor(async () => (await stat(page, 'cost')) === formatUsd(after.totals.cost), `the new range cost ${formatUsd(after.totals.cost)}`);
  const state = await page.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return { scrollY: window.scrollY, focused: el?.getAttribute('data-key') ?? el?.nodeName, seen: (window as unknown as { seen: string[] }).seen };
  });
  assert.is(state.scrollY, scrollY);
  assert.equal(state.seen, []);
  assert.is(await page.locator('cost-overview-view cost-table tbody tr[aria-selected="true"]').getAttribute('data-key'), key);
  assert.is(state.focused, key);
  const first = page.locator('cost-overview-view cost-table tbody tr').first().locator('td:nth-child(3)');
  assert.is(((await first.textContent()) ?? '').trim(), formatUsd(after.projects.find((p) => p.id === top.id)!.cost));
  assert.is(await page.locator('cost-toast .toast').count(), 0);
});

test('the unpriced-models chip names the model; hover and focus show its tokens', async ({ page }) => {
  const o = await overview();
  const unpriced = o.unpricedModels.find((m) => m.model === UNKNOWN);
  assert.ok(unpriced, 'the API reports the model as unpriced');
  assert.is(unpriced.messages, 2);
  assert.is(unpriced.totalTokens, 2 * (1234 + 5678));
  assert.is(o.costByModel.find((m) => m.model === UNKNOWN)?.cost ?? 0, 0);
  assert.is(o.projects.find((p) => p.name === 'mystery')?.cost, 0);

  await page.evaluate(() => window.scrollTo(0, 0));
  const chip = page.locator('cost-overview-view .chip.warn');
  assert.is(((await chip.textContent()) ?? '').replace(/\s+/g, ' ').trim(), `1 unpriced model: ${UNKNOWN}`);
  const tip = page.locator('cost-overview-view .unpriced .tip');
  assert.not.ok(await tip.isVisible(), 'the tip is hidden until asked for');
  await chip.hover();
  await tip.waitFor({ state: 'visible' });
  const row = tip.locator(`.tip-row[data-model="${UNKNOWN}"]`);
  assert.is(((await row.textContent()) ?? '').replace(/\s+/g, ' ').trim(), `${UNKNOWN} ${formatTokens(unpriced.totalTokens)} tokens in ${formatInt(2)} messages`);
  await ctx.browser.screenshot(page, 'overview-unpriced-tip');
  // Escape dismisses it without moving the pointer; leaving and coming back shows it again.
  await page.keyboard.press('Escape');
  await tip.waitFor({ state: 'hidden' });
  await page.mouse.move(5, 5);
  await chip.hover();
  await tip.waitFor({ state: 'visible' });
  await page.mouse.move(5, 5);
  await tip.waitFor({ state: 'hidden' });
  // Keyboard: focusing the chip shows the tip, which describes it.
  await chip.focus();
  await tip.waitFor({ state: 'visible' });
  assert.is(await chip.getAttribute('aria-describedby'), await tip.getAttribute('id'));
});

test('no console errors, page errors or failed requests', () => {
  assert.equal(ctx.browser.problems, []);
});

test('a refresh that fails keeps the last figures on screen and says why once', async ({ page, server }) => {
  const shown = await stat(page, 'cost');
  await server.close();
  await page.keyboard.press('r');
  await page.locator('cost-toast .toast').first().waitFor();
  await page.waitForTimeout(500);
  assert.is(await stat(page, 'cost'), shown);
  assert.is(await page.locator('cost-overview-view cost-empty, cost-overview-view cost-skeleton').count(), 0);
  const toasts = (await page.locator('cost-toast .toast-msg').allTextContents()).map((t) => t.trim());
  // One toast: with no server to answer, the views do not ask again (each would have said the same).
  assert.equal(toasts.length, 1, toasts.join('\n'));
  assert.match(toasts[0]!, /^Refresh failed/);
  ctx.browser.problems.splice(0); // the refused connections are the point of this test
});

test.run();
