// "How is this computed?" in Chromium against the real server (dist/main.js, TZ=UTC) over the receipt history (fast,
// US-only, advisor, 1-hour writes, long context, web search and fetch, costUSD lines, an unpriced model): opened by keyboard from the range cost
// card, from a session's card and from a session's row (Sessions view, project view), its total is the figure it was
// opened from; Escape closes it and the focus goes back to the button; its text is readable (contrast >= 4.5) at
// 1440 px dark and 800 px light. Screenshots in test-artifacts/. Needs `npm run build`.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Locator, Page } from 'playwright-core';
import type { Overview, Receipt } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { launchThemed, type Browser } from '../helpers/browser.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { RECEIPT_PROJECT, writeReceiptHistory } from '../helpers/receipt-history.ts';

const work = tempDir('cost-receipt-ui-');
writeReceiptHistory(path.join(work.dir, 'projects'), Date.now());

const SETUPS = [
  { name: '1440 px, nord dark', width: 1440, theme: 'nord', mode: 'dark' as const },
  { name: '800 px, github light', width: 800, theme: 'github', mode: 'light' as const },
];
let server: AppServer;

const dialog = (page: Page): Locator => page.locator('cost-receipt-dialog dialog');

/** The deepest focused element's class and text, through shadow roots. */
const focused = (page: Page): Promise<string> => page.evaluate(() => {
  let a: Element | null = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a ? `${a.className}|${a.getAttribute('aria-label') ?? ''}` : '';
});

/** WCAG contrast of each text element of the open dialog against the dialog's background; the lowest. */
const lowestContrast = (page: Page): Promise<{ ratio: number; what: string }> => dialog(page).evaluate((d) => {
  // rgb(r, g, b) in 0-255, or color(srgb r g b) in 0-1 (what a color-mix() computes to).
  const rgb = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v) * (c.startsWith('color(') ? 255 : 1));
  const lum = (c: number[]): number => {
    const [r, g, b] = c.map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const bg = lum(rgb(getComputedStyle(d).backgroundColor));
  let worst = { ratio: Infinity, what: '' };
  for (const el of d.querySelectorAll('h2, h3, p, th, td, li, .tag')) {
    if (!el.textContent?.trim()) continue;
    const fg = lum(rgb(getComputedStyle(el).color));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    if (ratio < worst.ratio) worst = { ratio, what: `${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 30)}"` };
  }
  return worst;
});

/** Opens the dialog with the keyboard from `button`, checks its total against `figure`, closes it with Escape. */
async function openAndCheck(page: Page, button: Locator, figure: string, shot: string, b: Browser): Promise<void> {
  await button.focus();
  const opener = await focused(page);
  await page.keyboard.press('Enter');
  const total = dialog(page).locator('td.total');
  await total.waitFor({ timeout: 10_000 });
  assert.is(await dialog(page).evaluate((d: HTMLDialogElement) => d.open), true);
  assert.is((await total.textContent())?.trim(), figure, `${shot}: the receipt's total is the figure`);
  await b.screenshot(page, shot);
  const contrast = await lowestContrast(page);
  assert.ok(contrast.ratio >= 4.5, `${shot}: contrast ${contrast.ratio.toFixed(2)} of ${contrast.what}`);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('cost-receipt-dialog')?.shadowRoot?.querySelector('dialog')?.open);
  assert.is(await focused(page), opener, `${shot}: the focus goes back to the button`);
}

for (const setup of SETUPS) {
  let browser: Browser;
  let page: Page;
  const test = suite(`receipt, ${setup.name}`);
  const slug = `receipt-${setup.width}-${setup.mode}`;

  test.before(async () => {
    server ??= await startAppServer({ dir: work.dir, env: { TZ: 'UTC' }, timeoutMs: 30_000 });
    await untilIndexed(server, 30_000);
    ({ browser, page } = await launchThemed(server.url, setup));
  });
  test.after(async () => {
    assert.equal(browser.problems, []);
    await browser.close();
  });

  test('from the range cost card: every line, the multipliers and the card\'s total', async () => {
    await page.goto(`${server.url}/?view=overview&range=30`);
    const card = page.locator('cost-overview-view cost-stat-card[data-stat="cost"]');
    await card.waitFor();
    const figure = (await card.getAttribute('value'))!;
    const api = await getJson<Overview>(server, '/api/overview?range=30');
    const receipt = await getJson<Receipt>(server, '/api/receipt?range=30');
    assert.is(receipt.total.toFixed(2), api.totals.cost.toFixed(2));
    await card.locator('button.receipt').focus();
    await page.keyboard.press('Enter');
    await dialog(page).locator('td.total').waitFor();
    // One group per line of the answer; the fast line shows its factor, the unpriced model its $0.
    assert.is(await dialog(page).locator('tbody').count(), receipt.lines.length);
    assert.match((await dialog(page).locator('tbody[data-model="claude-opus-4-6"] tr.mult').first().textContent()) ?? '', /× 6/);
    assert.match((await dialog(page).locator('tbody[data-pricing="unpriced"]').textContent()) ?? '', /not in the catalogue/);
    assert.ok(await dialog(page).locator('li[data-rule="webSearch"]').count(), 'the web search rule is listed');
    assert.match((await dialog(page).locator('tr.mult[data-rule="usOnly"]').first().textContent()) ?? '', /US-only inference\s*× 1\.1/);
    assert.match((await dialog(page).locator('tbody', { hasText: 'advisor' }).first().textContent()) ?? '', /opus-4-6/);
    assert.match((await dialog(page).locator('tr[data-kind="webFetch"]').first().textContent()) ?? '', /no fee/);
    await page.keyboard.press('Escape');
    await openAndCheck(page, card.locator('button.receipt'), figure, `${slug}-range`, browser);
  });

  test('all time: the estimated fast multiplier is marked', async () => {
    await page.goto(`${server.url}/?view=overview&range=all`);
    const card = page.locator('cost-overview-view cost-stat-card[data-stat="cost"]');
    await card.waitFor();
    await card.locator('button.receipt').click();
    await dialog(page).locator('td.total').waitFor();
    assert.is((await dialog(page).locator('td.total').textContent())?.trim(), await card.getAttribute('value'));
    const fast = await dialog(page).locator('tr.mult[data-rule="fast"]').allTextContents();
    assert.ok(fast.some((x) => /× 2 \(estimate\)/.test(x)), fast.join(' | '));
    assert.ok(fast.some((x) => /× 6(?! \()/.test(x)), fast.join(' | '));
    await page.keyboard.press('Escape');
  });

  test("from a session's card and from its row in the Sessions view and its project's", async () => {
    await page.goto(`${server.url}/?view=detail&session=rcpt-a&range=30`);
    const card = page.locator('cost-session-view cost-stat-card[data-stat="total"]');
    await card.waitFor();
    await openAndCheck(page, card.locator('button.receipt'), (await card.getAttribute('value'))!, `${slug}-session`, browser);

    await page.goto(`${server.url}/?view=sessions&range=30`);
    const row = page.locator('cost-sessions-view cost-table tbody tr', { hasText: 'rcpt-b' });
    await row.waitFor();
    const cost = (await row.locator('b').first().textContent())!.trim();
    await openAndCheck(page, row.locator('button.receipt'), cost, `${slug}-session-row`, browser);

    await page.goto(`${server.url}/?view=project&project=${RECEIPT_PROJECT}&range=30`);
    const projectRow = page.locator('cost-project-view cost-table tbody tr', { hasText: 'rcpt-a' });
    await projectRow.waitFor();
    await openAndCheck(page, projectRow.locator('button.receipt'), (await projectRow.locator('b').first().textContent())!.trim(), `${slug}-project-row`, browser);
  });

  test.run();
}

const last = suite('the server');
last('stops', async () => {
  await server?.close();
  work.cleanup();
});
last.run();
