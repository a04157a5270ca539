// Budgets in Chromium against the real server (dist/main.js, TZ=UTC) over a transcript with usage today: the dialog
// set by keyboard only, the server's 400 shown in it, a meter on each strip card coloured by state (green, amber, red:
// the theme's --success, --warning, --error), the banner with its dismiss and the opt-in desktop notification (once per
// budget and period, nothing kept in storage), and a second server on the same index, which only reads it, saying
// so. At 1440 px dark and 800 px light, in two themes. Needs `npm run build`.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Budgets } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { launchBrowser, launchThemed, type Browser } from '../helpers/browser.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';

const DAY = 86_400_000;
const now = Date.now();
const PROJECT = '-home-dev-meter';
const work = tempDir('cost-budgets-ui-');
const indexFile = path.join(work.dir, 'index.db');
writeJsonl(path.join(work.dir, 'projects', PROJECT, 's1.jsonl'), [
  // $6 today (a few minutes ago, or at midnight when the day is younger), $10 three weeks ago.
  usageLine({ sessionId: 's1', messageId: 'm1', requestId: 'r1', timestamp: new Date(Math.max(Math.floor(now / DAY) * DAY, now - 5 * 60_000)).toISOString(), cwd: '/home/dev/meter', extra: { costUSD: 6 } }),
  usageLine({ sessionId: 's1', messageId: 'm2', requestId: 'r2', timestamp: new Date(now - 21 * DAY).toISOString(), cwd: '/home/dev/meter', extra: { costUSD: 10 } }),
]);

const SETUPS = [
  { name: '1440 px, nord dark', width: 1440, theme: 'nord', mode: 'dark' as const },
  { name: '800 px, github light', width: 800, theme: 'github', mode: 'light' as const },
];
let server: AppServer;

const budgets = () => getJson<Budgets>(server, '/api/budgets');
const setBudget = async (period: string, amount: number, project: string | null = null) => {
  const r = await fetch(`${server.url}/api/budgets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ period, project, amount }) });
  assert.is(r.status, 200, await r.text());
};
const clearBudgets = async () => {
  for (const b of (await budgets()).budgets) {
    const q = new URLSearchParams({ period: b.period, ...(b.project ? { project: b.project } : {}) });
    await fetch(`${server.url}/api/budgets?${q}`, { method: 'DELETE' });
  }
};
const meter = (page: Page, stat: string) => page.locator(`cost-glance-strip cost-stat-card[data-stat="${stat}"] cost-budget-meter`);

/** The fill's colour and the theme's colour of the state, resolved by the page. */
async function fillColours(page: Page, stat: string): Promise<{ fill: string; want: string }> {
  return meter(page, stat).evaluate((el) => {
    const fill = getComputedStyle(el.shadowRoot!.querySelector('.fill')!).backgroundColor;
    const probe = document.createElement('span');
    const state = el.getAttribute('data-state');
    probe.style.color = `var(--${state === 'ok' ? 'success' : state === 'warn' ? 'warning' : 'error'})`;
    document.body.append(probe);
    const want = getComputedStyle(probe).color;
    probe.remove();
    return { fill, want };
  });
}

/** A stand-in for the browser's Notification API that records what the page asks (headless Chromium denies it). */
const FAKE_NOTIFICATION = `
  window.__notes = [];
  window.Notification = class {
    static permission = 'default';
    static async requestPermission() { window.Notification.permission = 'granted'; return 'granted'; }
    constructor(title, options) { window.__notes.push({ title, ...options }); }
  };`;

for (const setup of SETUPS) {
  let browser: Browser;
  let page: Page;
  const test = suite(`budgets, ${setup.name}`);

  test.before(async () => {
    server ??= await startAppServer({ dir: work.dir, indexFile, env: { TZ: 'UTC' }, timeoutMs: 30_000 });
    await untilIndexed(server, 30_000);
    await clearBudgets();
    ({ browser, page } = await launchThemed(server.url, setup, FAKE_NOTIFICATION));
  });

  test.after(async () => {
    await browser?.close();
  });

  test('Today is on the strip only, with its sessions and tokens', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    const today = page.locator('cost-glance-strip cost-stat-card[data-stat="glance-today"]');
    await today.locator('.value').waitFor();
    assert.is((await today.locator('.value').textContent())?.trim(), '$6.00');
    assert.match((await today.locator('.sub').textContent()) ?? '', /^1 session · [\d.]+[KM]? tokens$/);
    assert.is(await page.locator('cost-overview-view cost-stat-card[data-stat="today"]').count(), 0);
    assert.is(await page.locator('cost-overview-view cost-stat-card[label="Today"]').count(), 1);
  });

  test('the dialog, by keyboard only: the server\'s 400 is shown; a saved budget is a meter on its card', async () => {
    await page.goto(`${server.url}/?view=overview&range=7`);
    const open = page.locator('cost-glance-strip button.budgets');
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('cost-glance-strip cost-budget-dialog dialog');
    await dialog.waitFor({ state: 'visible' });
    await dialog.locator('select[name="period"]').waitFor();
    await dialog.locator('select[name="period"]').focus();
    await page.keyboard.press('ArrowDown'); // Weekly
    await page.keyboard.press('Tab'); // Projects: Every project
    await page.keyboard.press('Tab');
    await page.keyboard.type('-5');
    await page.keyboard.press('Enter');
    await dialog.locator('.error').filter({ hasText: 'Invalid budget amount' }).waitFor();
    assert.is((await budgets()).budgets.length, 0, 'nothing saved');
    await dialog.locator('input[name="amount"]').fill('');
    await page.keyboard.type('1000000');
    await page.keyboard.press('Enter');
    await dialog.locator('tr[data-period="weekly"]').waitFor();
    assert.is(await dialog.locator('.error').textContent(), '');
    // Issue 36: after Save (the button, disabled while saving) the focus stays in the dialog, and Escape closes it
    // instead of going up behind it.
    await dialog.locator('input[name="amount"]').fill('1000000');
    await dialog.locator('button.save').click();
    const focusIn = await page.waitForFunction(() => {
      const host = document.querySelector('cost-overview-view')?.shadowRoot?.querySelector('cost-glance-strip')?.shadowRoot?.querySelector('cost-budget-dialog');
      const save = host?.shadowRoot?.querySelector('button.save');
      return save && !save.hasAttribute('disabled') && document.activeElement !== document.body && !!host?.shadowRoot?.activeElement;
    }, null, { timeout: 3_000 }).then(() => true, () => false);
    assert.ok(focusIn, 'the focus stayed in the dialog after Save');
    const url = page.url();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.is(page.url(), url, 'Escape closed the dialog and did not navigate');
    const saved = (await budgets()).budgets;
    assert.equal(saved.map((b) => [b.period, b.project, b.amount, b.state]), [['weekly', null, 1_000_000, 'ok']]);
    // The shell refreshed: the week's card has its meter, the others none.
    await meter(page, 'glance-week').locator('.line').waitFor();
    assert.is(await meter(page, 'glance-today').count(), 0);
    assert.is(await meter(page, 'glance-week').getAttribute('data-state'), 'ok');
    const b = saved[0]!;
    const line = (await meter(page, 'glance-week').locator('.line').textContent())?.replace(/\s+/g, ' ').trim();
    assert.match(line ?? '', /^On track \$[\d,.]+ of \$1,000,000\.00 · \$[\d,.]+ projected$/);
    assert.is(await meter(page, 'glance-week').locator('[role="meter"]').getAttribute('aria-valuemax'), String(b.amount));
    // Removed from the dialog: gone from the server and from the card.
    await open.focus();
    await page.keyboard.press('Enter');
    const remove = dialog.locator('tr[data-period="weekly"] button.remove');
    await remove.focus();
    await page.keyboard.press('Enter');
    await dialog.locator('tr[data-period="weekly"]').waitFor({ state: 'detached' });
    assert.equal((await budgets()).budgets, []);
    await page.keyboard.press('Escape');
    await meter(page, 'glance-week').waitFor({ state: 'detached' });
  });

  test('green, amber and red meters in the theme\'s colours; the banner and a notification once per alert', async () => {
    await clearBudgets();
    await setBudget('daily', 1_000_000);
    await setBudget('monthly', 1_000_000);
    // Each amount from its own period's projection: how a day's projection compares with a month's depends on the
    // hour and the days left in the month (ten days' worth went amber after 14:24 on Nov 24).
    const projected = async (period: string) => (await budgets()).budgets.find((b) => b.period === period)!.projected;
    // Amber: 91 % projected. Green: half. Red, the week's: passed already ($6 of $5).
    await setBudget('daily', (await projected('daily')) * 1.1);
    await setBudget('monthly', (await projected('monthly')) * 2);
    await setBudget('weekly', 5);
    await page.goto(`${server.url}/?view=overview&range=7`);
    await meter(page, 'glance-week').locator('.line').waitFor();
    assert.is(await meter(page, 'glance-today').getAttribute('data-state'), 'warn');
    assert.is(await meter(page, 'glance-month').getAttribute('data-state'), 'ok');
    assert.is(await meter(page, 'glance-week').getAttribute('data-state'), 'over');
    for (const stat of ['glance-today', 'glance-week', 'glance-month']) {
      const c = await fillColours(page, stat);
      assert.is(c.fill, c.want, stat);
    }
    // Issue 36: red and "Over" only for money spent, and by how much; a projection past the amount is amber "On pace for".
    assert.match((await meter(page, 'glance-week').locator('.state').textContent()) ?? '', /^Over by \$1\.00$/);
    assert.match((await meter(page, 'glance-today').locator('.state').textContent()) ?? '', /^Near the limit$/);

    const banner = page.locator('cost-budget-alerts .banner');
    await banner.waitFor();
    assert.equal((await banner.locator('li .text').allTextContents()).map((t) => t.trim()), ['Weekly budget for every project passed: $6.00 of $5.00']);
    // The opt-in is a user action; the notification says what the banner says, once, and nothing is stored.
    const keys = await page.evaluate(() => Object.keys(localStorage).sort());
    assert.equal(await page.evaluate(() => (window as unknown as { __notes: unknown[] }).__notes), []);
    await banner.locator('button.notify').click();
    await banner.locator('button.notify').waitFor({ state: 'detached' });
    const notes = () => page.evaluate(() => (window as unknown as { __notes: { title: string; body: string; tag: string }[] }).__notes);
    assert.equal(await notes(), [{ title: 'Cost: budget alert', body: 'Weekly budget for every project passed: $6.00 of $5.00', tag: `cost-budget:weekly:*:${(await budgets()).budgets.find((b) => b.period === 'weekly')!.from}` }]);
    // A new alert (the daily budget lowered below the projection) is notified too; the old one is not again.
    await setBudget('daily', (await projected('daily')) / 2);
    await page.locator('cost-top-bar button[aria-label="Refresh now"]').click();
    await banner.locator('li').nth(1).waitFor();
    assert.equal((await notes()).map((n) => n.tag.split(':')[1]), ['weekly', 'daily']);
    assert.equal(await page.evaluate(() => Object.keys(localStorage).sort()), keys, 'no storage beyond the spec\'s keys');
    // The banner links to the budgets; a snoozed line stays hidden until its period ends, across reloads (issue 36).
    await banner.locator('button.budgets').click();
    const dialog = page.locator('cost-budget-alerts cost-budget-dialog dialog');
    await dialog.locator('tr[data-period="daily"]').waitFor();
    await page.keyboard.press('Escape');
    await banner.locator('li').first().locator('button.snooze').click();
    await page.waitForFunction(() => document.querySelector('cost-budget-alerts')?.shadowRoot?.querySelectorAll('.banner li').length === 1);
    assert.is((await budgets()).budgets.find((b) => b.period === 'daily')!.snoozed, true);
    assert.is(await page.evaluate(() => document.activeElement === document.body), false, 'focus stays in the banner');
    await page.reload();
    await banner.locator('li').first().waitFor();
    await page.locator('cost-glance-strip cost-stat-card').first().waitFor();
    assert.is(await banner.locator('li').count(), 1);
    // The banner is on every view.
    await page.goto(`${server.url}/?view=insights&range=7`);
    await page.locator('cost-budget-alerts .banner li').first().waitFor();
    const size = await page.evaluate(() => ({ w: document.documentElement.scrollWidth, vw: innerWidth }));
    assert.ok(size.w <= size.vw, `page is ${size.w} px wide in a ${size.vw} px window`);
    await browser.screenshot(page, `budgets-${setup.width}-${setup.theme}-${setup.mode}`);
  });

  test('a project budget shows on the cards only when that project is the scope', async () => {
    await clearBudgets();
    await setBudget('monthly', 1000, PROJECT);
    await page.goto(`${server.url}/?view=overview&range=7`);
    await page.locator('cost-glance-strip cost-stat-card[data-stat="glance-month"] .value').waitFor();
    assert.is(await meter(page, 'glance-month').count(), 0);
    await page.evaluate((p) => localStorage.setItem('cost:scope', p), PROJECT);
    await page.goto(`${server.url}/?view=overview&range=7`);
    await meter(page, 'glance-month').locator('.line').waitFor();
    const use = (await budgets()).budgets[0]!.use;
    assert.match((await meter(page, 'glance-month').locator('.line').textContent()) ?? '', `$${use.toFixed(2)} of $1,000.00`);
    await page.evaluate(() => localStorage.removeItem('cost:scope'));
  });

  test.run();
}

const reader = suite('budgets on a server that only reads the index');
reader('the dialog lists the budgets and says where to change them', async () => {
  const second = await startAppServer({ dir: work.dir, indexFile, env: { TZ: 'UTC' }, timeoutMs: 30_000 });
  const browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await browser.page();
    await page.goto(`${second.url}/?view=overview&range=7`);
    await page.locator('cost-glance-strip button.budgets').click();
    const dialog = page.locator('cost-glance-strip cost-budget-dialog dialog');
    await dialog.locator('.note').waitFor();
    assert.match((await dialog.locator('.note').textContent()) ?? '', /reads an index that another process writes/);
    assert.is(await dialog.locator('form').count(), 0);
    assert.is(await dialog.locator('button.remove').count(), 0);
    assert.is(await dialog.locator('tbody tr').count(), (await budgets()).budgets.length);
  } finally {
    await browser.close();
    await second.close();
    await server.close();
    work.cleanup();
  }
});

reader.run();
