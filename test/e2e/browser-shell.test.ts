// The dashboard shell in Chromium against the real built server on the fixture transcripts: storage keys written and
// honoured, range and scope in the requests, URL / cost:nav / history navigation, keys, and a clean console.
// Needs `npm run build`. Screenshots go to test-artifacts/.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { SessionRow } from '../../src/shared/api-types.ts';
import { startAppServer, type AppServer } from '../helpers/app-server.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const PROJECT = 'sample-project';
const LOCAL_KEYS = new Set(['cost:range', 'cost:scope', 'cost:view', 'theme', 'color-theme']);

interface Ctx {
  server: AppServer;
  browser: Browser;
  page: Page;
  /** Path + query of every /api/ request the page made, in order. */
  requests: string[];
  session: string;
}

const ctx = {} as Ctx;
const test = suite<Ctx>('shell', ctx);

test.before(async () => {
  ctx.server = await startAppServer();
  ctx.browser = await launchBrowser();
  ctx.page = await ctx.browser.page();
  ctx.requests = [];
  ctx.page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) ctx.requests.push(u.pathname + u.search);
  });
  // A session of the fixture project, from the server itself (all time: no range).
  const res = await waitFor(async () => {
    const r = await fetch(`${ctx.server.url}/api/projects/${PROJECT}/sessions`);
    const body = (await r.json()) as { sessions?: SessionRow[] };
    return r.ok && body.sessions?.length ? body : null;
  }, 'the fixture project to be indexed', 15_000);
  ctx.session = (res.sessions as SessionRow[])[0]!.id;
});

test.after(async () => {
  await ctx.browser?.close();
  await ctx.server?.close();
});

/** Waits for an /api/ request made after `since` whose path starts with `path` and whose query has `want`. */
async function request(path: string, want: Record<string, string | null>, since = 0): Promise<URLSearchParams> {
  return waitFor(
    () => {
      for (const r of ctx.requests.slice(since)) {
        const u = new URL(r, 'http://x');
        if (u.pathname !== path) continue;
        if (Object.entries(want).every(([k, v]) => u.searchParams.get(k) === v)) return u.searchParams;
      }
      return null;
    },
    `a request to ${path} with ${JSON.stringify(want)}; saw:\n  ${ctx.requests.slice(since).join('\n  ')}`,
    8000,
  );
}

async function storage(page: Page): Promise<{ local: Record<string, string>; session: Record<string, string> }> {
  return page.evaluate(() => {
    const dump = (s: Storage) => Object.fromEntries(Object.keys(s).map((k) => [k, s.getItem(k) ?? '']));
    return { local: dump(localStorage), session: dump(sessionStorage) };
  });
}

function query(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

async function fire(page: Page, type: string, detail: unknown): Promise<void> {
  await page.evaluate(
    ([t, d]) => {
      const view = document.querySelector('main')?.lastElementChild ?? document.querySelector('main');
      view?.dispatchEvent(new CustomEvent(t as string, { detail: d, bubbles: true, composed: true }));
    },
    [type, detail] as const,
  );
}

async function bodyMode(page: Page): Promise<string> {
  return page.evaluate(() => (document.body.classList.contains('light') ? 'light' : document.body.classList.contains('dark') ? 'dark' : 'none'));
}

test('first load: overview on 3 days, URL and storage written, only allowed keys', async ({ page, server }) => {
  await page.goto(server.url);
  await request('/api/overview', { range: '3', project: null });
  await page.locator('cost-top-bar .tab[aria-current="page"]').waitFor();
  assert.is(query(page).get('view'), 'overview');
  assert.is(query(page).get('range'), '3');
  const s = await storage(page);
  assert.equal(JSON.parse(s.session['cost:nav'] ?? 'null'), { view: 'overview', project: null, session: null });
  assert.is(s.local['cost:view'], 'overview');
  await ctx.browser.screenshot(page, 'shell-overview-dark');
});

test('every range preset sends its query, is stored in cost:range and the URL', async ({ page }) => {
  const presets: [string, string][] = [['Today', 'today'], ['24h', '24h'], ['7d', '7'], ['30d', '30'], ['90d', '90'], ['1y', '365']];
  for (const [label, value] of presets) {
    const since = ctx.requests.length;
    await page.locator(`cost-range-picker button[data-range="${label}"]`).click();
    await request('/api/overview', { range: value }, since);
    // The previous period of the same length loads after the figures (all but 24h have one): wait for it, so that it
    // is not taken for a request of the next click.
    if (value !== '24h') await request('/api/overview', { range: null }, since);
    assert.is(await page.locator(`cost-range-picker button[data-range="${label}"]`).getAttribute('aria-pressed'), 'true');
    assert.is((await storage(page)).local['cost:range'], value);
    assert.is(query(page).get('range'), value);
  }
  // Back to 3 days: the first load's answer is still in the 5-minute memory cache, so no request goes out.
  const since = ctx.requests.length;
  await page.locator('cost-range-picker button[data-range="3d"]').click();
  await page.locator('cost-range-picker button[data-range="3d"][aria-pressed="true"]').waitFor();
  await page.waitForTimeout(400);
  assert.equal(ctx.requests.slice(since).filter((r) => r.startsWith('/api/overview')), []);
  assert.is((await storage(page)).local['cost:range'], '3');
  assert.is(query(page).get('range'), '3');
});

test('custom range: from/to inputs send from and to (swapped into order), no range param', async ({ page }) => {
  await page.locator('#range-custom-btn').click();
  await page.locator('#range-custom').waitFor({ state: 'visible' });
  await page.locator('#range-from').fill('2026-02-10');
  await page.locator('#range-to').fill('2026-01-20');
  const since = ctx.requests.length;
  await page.locator('#range-custom button[type="submit"]').click();
  const q = await request('/api/overview', { from: '2026-01-20', to: '2026-02-10' }, since);
  assert.is(q.get('range'), null);
  assert.is((await storage(page)).local['cost:range'], '2026-01-20..2026-02-10');
  assert.is(query(page).get('range'), '2026-01-20..2026-02-10');
  assert.ok(await page.locator('#range-custom').isHidden());
  // Reload keeps it (URL), and a bare URL in a new tab gets it from cost:range.
  const other = await ctx.browser.context.newPage();
  const seen: string[] = [];
  other.on('request', (r) => seen.push(r.url()));
  await other.goto(ctx.server.url);
  await waitFor(() => seen.some((u) => u.includes('/api/overview') && u.includes('from=2026-01-20') && u.includes('to=2026-02-10')), 'custom range from cost:range');
  await other.close();
  await page.locator('cost-range-picker button[data-range="1y"]').click();
});

test('scope: a view\'s scope event sets the project param and cost:scope; the chip clears both', async ({ page }) => {
  let since = ctx.requests.length;
  await fire(page, 'scope', { project: PROJECT, name: 'Sample project' });
  await request('/api/overview', { range: '365', project: PROJECT }, since);
  const chip = page.locator('cost-scope-chip .chip');
  await chip.waitFor();
  assert.match(await chip.innerText(), 'Sample project');
  assert.is((await storage(page)).local['cost:scope'], PROJECT);
  await ctx.browser.screenshot(page, 'shell-scoped');

  // Reload: the scope comes back from storage, and its display name from /api/projects.
  since = ctx.requests.length;
  await page.goto(`${ctx.server.url}/?view=insights`);
  await request('/api/insights', { project: PROJECT }, since);
  await page.locator('cost-scope-chip .chip').waitFor();

  since = ctx.requests.length;
  await page.locator('cost-scope-chip .chip-clear').click();
  await request('/api/insights', { project: null }, since);
  assert.is((await storage(page)).local['cost:scope'], undefined);
  assert.is(await page.locator('cost-scope-chip .chip').count(), 0);
});

test('navigate events: project and session views, URL, cost:nav, back/forward and reload', async ({ page, session }) => {
  await page.locator('cost-top-bar .tab[data-view="overview"]').click();
  let since = ctx.requests.length;
  await fire(page, 'navigate', { view: 'project', project: PROJECT });
  await request(`/api/projects/${PROJECT}/sessions`, {}, since);
  assert.is(query(page).get('view'), 'project');
  assert.is(query(page).get('project'), PROJECT);
  assert.equal(JSON.parse((await storage(page)).session['cost:nav'] ?? ''), { view: 'project', project: PROJECT, session: null });

  since = ctx.requests.length;
  await fire(page, 'navigate', { view: 'detail', project: PROJECT, session });
  await request(`/api/sessions/${session}`, {}, since);
  assert.is(query(page).get('session'), session);
  await ctx.browser.screenshot(page, 'shell-session');

  await page.goBack();
  await page.locator('cost-project-view').waitFor();
  assert.is(query(page).get('view'), 'project');
  assert.is(JSON.parse((await storage(page)).session['cost:nav'] ?? '').view, 'project');
  await page.goForward();
  await page.locator('cost-session-view').waitFor();
  assert.is(query(page).get('view'), 'detail');

  // Reload restores the session view (URL); a bare URL in the same tab restores it from cost:nav.
  await page.reload();
  await page.locator('cost-session-view').waitFor();
  since = ctx.requests.length;
  await page.goto(ctx.server.url);
  await request(`/api/sessions/${session}`, {}, since);
  assert.is(query(page).get('view'), 'detail');
});

test('Backspace and Escape go up: detail -> project -> overview', async ({ page }) => {
  await page.locator('cost-session-view').waitFor();
  await page.locator('body').click({ position: { x: 5, y: 700 } });
  await page.keyboard.press('Backspace');
  await page.locator('cost-project-view').waitFor();
  await page.keyboard.press('Escape');
  await page.locator('cost-overview-view').waitFor();
  assert.is(query(page).get('view'), 'overview');
});

test('?view=detail&session=<id> opens that session directly', async ({ page, session }) => {
  const since = ctx.requests.length;
  await page.goto(`${ctx.server.url}/?view=detail&session=${session}`);
  await request(`/api/sessions/${session}`, {}, since);
  await page.locator('cost-session-view').waitFor();
  assert.is(query(page).get('view'), 'detail');
  assert.is(query(page).get('session'), session);
  assert.is(JSON.parse((await storage(page)).session['cost:nav'] ?? '').session, session);
  // No project known: up goes to the overview, not to a project view.
  const beforeUp = ctx.requests.length;
  await page.keyboard.press('Escape');
  await page.locator('cost-overview-view').waitFor();
  assert.is(query(page).get('view'), 'overview');
  assert.is(query(page).get('session'), null);
  assert.is(await page.locator('cost-project-view').count(), 0);
  assert.not.ok(ctx.requests.slice(beforeUp).some((r) => r.startsWith('/api/projects/') && r.includes('/sessions')), 'no project view was loaded');
});

test('tabs: Insights is remembered in cost:view and restored in a new tab', async ({ page }) => {
  let since = ctx.requests.length;
  await page.locator('cost-top-bar .tab[data-view="insights"]').click();
  await request('/api/insights', { range: '365' }, since);
  assert.is((await storage(page)).local['cost:view'], 'insights');
  await ctx.browser.screenshot(page, 'shell-insights');
  const other = await ctx.browser.context.newPage();
  since = ctx.requests.length;
  const seen: string[] = [];
  other.on('request', (r) => seen.push(r.url()));
  await other.goto(ctx.server.url);
  await waitFor(() => seen.some((u) => u.includes('/api/insights?') && u.includes('range=365')), 'insights from cost:view');
  assert.is(new URL(other.url()).searchParams.get('view'), 'insights');
  await other.close();
  await page.keyboard.press('1');
  await page.locator('cost-overview-view').waitFor();
});

test('t toggles light/dark, is stored, honoured on reload, and ignored while typing', async ({ page }) => {
  const before = await bodyMode(page);
  await page.keyboard.press('t');
  const after = await bodyMode(page);
  assert.is.not(after, before);
  assert.is((await storage(page)).local.theme, after);
  await page.keyboard.press('Shift+T');
  assert.is(await bodyMode(page), after, 'Shift+T does nothing');

  await page.evaluate(() => {
    const input = document.createElement('input');
    input.id = 'typing-probe';
    document.body.append(input);
  });
  await page.locator('#typing-probe').focus();
  await page.keyboard.press('t');
  assert.is(await bodyMode(page), after, 't typed into an input does not toggle');
  assert.is(await page.locator('#typing-probe').inputValue(), 't');

  await page.reload();
  await page.locator('cost-top-bar').waitFor();
  assert.is(await bodyMode(page), after);
  await ctx.browser.screenshot(page, `shell-overview-${after}`);
  await page.locator('cost-top-bar [data-action="mode"]').click();
  assert.is(await bodyMode(page), before);
});

test('? opens the shortcut help; Escape closes it without navigating', async ({ page }) => {
  await page.keyboard.press('?');
  const dialog = page.locator('cost-help-overlay dialog');
  await dialog.waitFor({ state: 'visible' });
  assert.ok((await dialog.innerText()).includes('Plan usage'));
  await ctx.browser.screenshot(page, 'shell-help');
  const url = page.url();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.is(page.url(), url);
});

test('table sort is kept under cost:sort:<view>', async ({ page }) => {
  const header = page.locator('cost-overview-view cost-table th button').first();
  await header.waitFor({ timeout: 8000 });
  await header.click();
  const keys = Object.keys((await storage(page)).local).filter((k) => k.startsWith('cost:sort:'));
  assert.ok(keys.length >= 1, 'a cost:sort:<view> key');
  const sort = JSON.parse((await storage(page)).local[keys[0]!] ?? '') as { key: string; dir: string };
  assert.ok(typeof sort.key === 'string' && (sort.dir === 'asc' || sort.dir === 'desc'));
});

test('narrow windows (700, 560 and 400 px, a thin hub pane) still fit the bar: presets and tools wrap', async ({ page }) => {
  for (const width of [700, 560, 400]) {
    await page.setViewportSize({ width, height: 800 });
    // Charts take their new width from a ResizeObserver, a frame or two after the resize: wait (bounded) for it.
    const overflow = await page.evaluate(async () => {
      const over = () => document.documentElement.scrollWidth - document.documentElement.clientWidth;
      const until = performance.now() + 2000;
      while (over() > 0 && performance.now() < until) await new Promise((r) => requestAnimationFrame(r));
      return over();
    });
    assert.ok(overflow <= 0, `${width} px: no horizontal scroll (overflow ${overflow}px)`);
    // Every preset and every tool button in sight, none scrolled away inside its own row.
    const outside = await page.evaluate(() => {
      const bar = document.querySelector('cost-top-bar')!;
      const root = bar.shadowRoot ?? bar;
      return [...root.querySelectorAll('button')].filter((b) => {
        const r = b.getBoundingClientRect();
        return r.width > 0 && (r.left < 0 || r.right > document.documentElement.clientWidth);
      }).map((b) => b.textContent?.trim() || b.getAttribute('aria-label'));
    });
    assert.equal(outside, [], `${width} px: buttons out of sight`);
    await ctx.browser.screenshot(page, `shell-narrow-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 860 });
});

test('storage holds only the documented keys, and no API payloads', async ({ page }) => {
  const s = await storage(page);
  for (const [k, v] of Object.entries(s.local)) {
    assert.ok(LOCAL_KEYS.has(k) || k.startsWith('cost:sort:'), `unexpected localStorage key ${k}`);
    assert.ok(v.length < 200, `${k} holds a payload-sized value`);
  }
  assert.equal(Object.keys(s.session), ['cost:nav']);
});

test('no console errors, page errors or failed requests', () => {
  assert.equal(ctx.browser.problems, []);
});

test.run();
