// Themes in Chromium against the real server: the palette switches to each of the 17 themes (and stores it), and in
// all 34 theme/mode pairs the text of the shell and of the four views keeps >= 4.5:1 against the backgrounds it sits
// on (the worktrees fixture for grouped folders, the repository view and branch tables). Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Overview, ProjectSessions } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { ROOT } from '../helpers/paths.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';

interface ThemeFile {
  default: string;
  themes: { id: string; label: string; vars: Record<'dark' | 'light', Record<string, string>> }[];
}
const THEMES = JSON.parse(fs.readFileSync(path.join(ROOT, 'ui/src/themes.json'), 'utf8')) as ThemeFile;

interface Ctx {
  server: AppServer;
  browser: Browser;
  page: Page;
}
const ctx = {} as Ctx;
const test = suite<Ctx>('shell themes', ctx);

test.before(async () => {
  ctx.server = await startAppServer();
  ctx.browser = await launchBrowser();
  ctx.page = await ctx.browser.page();
  await ctx.page.goto(`${ctx.server.url}/?view=overview&range=365`);
  await ctx.page.locator('cost-top-bar').waitFor();
});

test.after(async () => {
  await ctx.browser?.close();
  await ctx.server?.close();
});

type Mode = 'dark' | 'light';
const SHELL_ROOTS = 'cost-top-bar, dialog[open], :popover-open, cost-toast';
/** Every theme/mode pair, applied in the page the way theme.ts applyTheme does. */
const ALL_PAIRS: [string, Mode][] = THEMES.themes.flatMap((t) => [[t.id, 'dark'], [t.id, 'light']] as [string, Mode][]);

interface MeasureArgs {
  /** Elements whose visible text (shadow trees included) is measured. */
  roots: string;
  /** Also measure the text-token x surface-token matrix. */
  tokens: boolean;
  /** Pairs to switch through by body class and data-theme; null measures the theme on screen. */
  pairs: [string, Mode][] | null;
}

/**
 * In the page: text colors against the backgrounds they sit on, as contrast ratios, labelled "<theme>/<mode>: what".
 * Colors are resolved by the browser (color-mix included) and read back through a canvas, so any CSS color syntax works.
 */
function measureInPage({ roots, tokens, pairs }: MeasureArgs): { pair: string; ratio: number }[] {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const g = canvas.getContext('2d', { willReadFrequently: true })!;
  const rgba = (css: string): [number, number, number, number] => {
    g.clearRect(0, 0, 1, 1);
    g.fillStyle = '#000';
    g.fillStyle = css;
    g.fillRect(0, 0, 1, 1);
    const d = g.getImageData(0, 0, 1, 1).data;
    return [d[0]!, d[1]!, d[2]!, d[3]! / 255];
  };
  const over = (top: [number, number, number, number], under: [number, number, number]): [number, number, number] => [
    top[0] * top[3] + under[0] * (1 - top[3]),
    top[1] * top[3] + under[1] * (1 - top[3]),
    top[2] * top[3] + under[2] * (1 - top[3]),
  ];
  const lum = ([r, gr, b]: [number, number, number]) => {
    const f = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(r) + 0.7152 * f(gr) + 0.0722 * f(b);
  };
  const ratio = (a: [number, number, number], b: [number, number, number]) => {
    const [x, y] = [lum(a), lum(b)];
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  };
  const out: { pair: string; ratio: number }[] = [];

  // 1. The token matrix: text tokens x surface tokens.
  const measureTokens = (theme: string) => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const resolve = (prop: 'color' | 'background-color', value: string) => {
      probe.style.setProperty(prop, value);
      return getComputedStyle(probe).getPropertyValue(prop);
    };
    const deep = rgba(resolve('background-color', 'var(--bg-deep)'));
    const base: [number, number, number] = [deep[0], deep[1], deep[2]];
    const inks = ['--ink-1', '--ink-2', '--ink-3', '--ink-accent', '--success', '--warning', '--error'];
    const surfaces = ['--bg-deep', '--bg-surface', '--bg-elevated', '--selected-bg'];
    for (const bgVar of surfaces) {
      const bg = over(rgba(resolve('background-color', `var(${bgVar})`)), base);
      for (const ink of inks) out.push({ pair: `${theme}${ink} on ${bgVar}`, ratio: ratio(over(rgba(resolve('color', `var(${ink})`)), bg), bg) });
    }
    const hover = over(rgba(resolve('background-color', 'var(--bg-hover)')), base);
    out.push({ pair: `${theme}--ink-1 on --bg-hover`, ratio: ratio(over(rgba(resolve('color', 'var(--ink-1)')), hover), hover) });
    probe.remove();
  };

  // 2. What is on screen: each element under `roots` (shadow trees included) that holds text, against its composited
  // background. SVG text is painted with `fill`. Screen-reader-only copies (.sr, .visually-hidden) are not seen.
  const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host ?? null);
  let painted = new Map<Element, [number, number, number]>(); // per theme: an element's composited background
  const backgroundOf = (el: Element): [number, number, number] => {
    const known = painted.get(el);
    if (known) return known;
    const parent = parentOf(el);
    const bg = over(rgba(getComputedStyle(el).backgroundColor), parent ? backgroundOf(parent) : [255, 255, 255]);
    painted.set(el, bg);
    return bg;
  };
  const deepElements = (root: Element): Element[] => {
    const all: Element[] = [];
    const visit = (el: Element) => {
      all.push(el);
      if (el.shadowRoot) for (const c of el.shadowRoot.children) visit(c);
      for (const c of el.children) visit(c);
    };
    visit(root);
    return all;
  };
  const measureText = (theme: string) => {
    painted = new Map();
    for (const root of document.querySelectorAll(roots)) {
      for (const el of deepElements(root)) {
        const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
        if (!own || el.closest('.visually-hidden, .sr, style, title')) continue;
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (box.width < 2 || box.height < 2 || style.visibility === 'hidden') continue;
        const bg = backgroundOf(el);
        const fg = over(rgba(el instanceof SVGElement ? style.fill : style.color), bg);
        const host = (el.getRootNode() as ShadowRoot).host;
        const label = `${host ? `${host.tagName.toLowerCase()} ` : ''}${el.tagName.toLowerCase()}${
          el.classList.length ? `.${el.classList[0]}` : ''} "${el.textContent!.trim().slice(0, 20)}"`;
        out.push({ pair: `${theme}${label}`, ratio: ratio(fg, bg) });
      }
    }
  };

  if (!pairs) {
    if (tokens) measureTokens('');
    measureText('');
    return out;
  }
  const body = document.body;
  const before = { cls: body.className, theme: body.dataset.theme ?? '', scheme: document.documentElement.style.colorScheme };
  for (const [id, mode] of pairs) {
    body.classList.toggle('dark', mode === 'dark');
    body.classList.toggle('light', mode === 'light');
    body.dataset.theme = id;
    document.documentElement.style.colorScheme = mode;
    if (tokens) measureTokens(`${id}/${mode}: `);
    measureText(`${id}/${mode}: `);
  }
  body.className = before.cls;
  body.dataset.theme = before.theme;
  document.documentElement.style.colorScheme = before.scheme;
  return out;
}

/**
 * In the page: each budget meter's fill against its track (a graphical object: WCAG 1.4.11 asks 3:1), in each pair,
 * labelled "<theme>/<mode>: <state>".
 */
function meterFills(pairs: [string, Mode][]): { pair: string; ratio: number }[] {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const g = canvas.getContext('2d', { willReadFrequently: true })!;
  const rgba = (css: string): number[] => {
    g.clearRect(0, 0, 1, 1);
    g.fillStyle = '#000';
    g.fillStyle = css;
    g.fillRect(0, 0, 1, 1);
    const d = g.getImageData(0, 0, 1, 1).data;
    return [d[0]!, d[1]!, d[2]!, d[3]! / 255];
  };
  const over = (top: number[], under: number[]) => [0, 1, 2].map((i) => top[i]! * top[3]! + under[i]! * (1 - top[3]!));
  const lum = (c: number[]) => c.reduce((s, v, i) => {
    const x = v / 255;
    return s + [0.2126, 0.7152, 0.0722][i]! * (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
  }, 0);
  const ratio = (a: number[], b: number[]) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const meters: Element[] = [];
  const visit = (el: Element) => {
    if (el.tagName === 'COST-BUDGET-METER') meters.push(el);
    if (el.shadowRoot) for (const c of el.shadowRoot.children) visit(c);
    for (const c of el.children) visit(c);
  };
  visit(document.body);
  const out: { pair: string; ratio: number }[] = [];
  const body = document.body;
  const before = { cls: body.className, theme: body.dataset.theme ?? '' };
  for (const [id, mode] of pairs) {
    body.classList.toggle('dark', mode === 'dark');
    body.classList.toggle('light', mode === 'light');
    body.dataset.theme = id;
    for (const m of meters) {
      const track = m.shadowRoot!.querySelector('.track')!;
      const card = rgba(getComputedStyle(document.body).getPropertyValue('--bg-elevated'));
      const under = over(rgba(getComputedStyle(track).backgroundColor), card);
      const fill = over(rgba(getComputedStyle(m.shadowRoot!.querySelector('.fill')!).backgroundColor), under);
      out.push({ pair: `${id}/${mode}: ${m.getAttribute('data-state')}`, ratio: ratio(fill, under) });
    }
  }
  body.className = before.cls;
  body.dataset.theme = before.theme;
  return out;
}

async function openPalette(page: Page): Promise<void> {
  if (await page.locator('#theme-pop').isVisible()) return;
  await page.locator('#theme-btn').click();
  await page.locator('#theme-pop').waitFor({ state: 'visible' });
}

test('the palette lists the 17 themes and switches to each; the choice is stored and painted', async ({ page }) => {
  await openPalette(page);
  assert.is(await page.locator('.theme-option').count(), 17);
  assert.is(THEMES.themes.length, 17);
  for (const t of THEMES.themes) {
    await openPalette(page);
    await page.locator(`.theme-option[data-theme-id="${t.id}"]`).click();
    const got = await page.evaluate(() => ({
      id: document.body.dataset.theme,
      mode: document.body.classList.contains('light') ? 'light' : 'dark',
      stored: localStorage.getItem('color-theme'),
      bg: getComputedStyle(document.body).getPropertyValue('--bg-deep').trim(),
    }));
    assert.is(got.id, t.id);
    assert.is(got.stored, t.id === THEMES.default ? null : t.id, 'the default theme is stored as unset');
    assert.is(got.bg, t.vars[got.mode as 'dark' | 'light']['--bg-deep']);
    assert.is(await page.locator(`.theme-option[data-theme-id="${t.id}"]`).getAttribute('aria-pressed'), 'true');
  }
  await ctx.browser.screenshot(page, 'shell-theme-picker');
  // Reload honours the stored theme.
  await page.reload();
  await page.locator('cost-top-bar').waitFor();
  const last = THEMES.themes[THEMES.themes.length - 1]!.id;
  assert.is(await page.evaluate(() => document.body.dataset.theme), last);
});

test('text contrast >= 4.5:1 in all 34 theme/mode pairs (tokens and the rendered bar, picker and help)', async ({ page }) => {
  const failures: string[] = [];
  let pairs = 0;
  for (const t of THEMES.themes) {
    for (const mode of ['dark', 'light'] as const) {
      await page.evaluate(
        ([id, m]) => {
          localStorage.setItem('theme', m);
          localStorage.setItem('color-theme', id);
        },
        [t.id, mode] as const,
      );
      await page.reload();
      await page.locator('cost-top-bar').waitFor();
      assert.is(await page.evaluate(() => document.body.dataset.theme), t.id);
      const shell: MeasureArgs = { roots: SHELL_ROOTS, tokens: true, pairs: null };
      const results = [...(await page.evaluate(measureInPage, shell))];
      await openPalette(page);
      results.push(...(await page.evaluate(measureInPage, shell)));
      await page.keyboard.press('Escape');
      await page.keyboard.press('?');
      await page.locator('cost-help-overlay dialog').waitFor({ state: 'visible' });
      results.push(...(await page.evaluate(measureInPage, shell)));
      await page.keyboard.press('Escape');
      pairs++;
      assert.ok(results.length > 40, `measured ${results.length} pairs`);
      for (const r of results) if (r.ratio < 4.5) failures.push(`${t.id}/${mode}: ${r.pair} = ${r.ratio.toFixed(2)}`);
    }
    if (t.id === 'solarized') await ctx.browser.screenshot(page, 'shell-solarized-light');
  }
  assert.is(pairs, 34);
  const unique = [...new Set(failures)];
  assert.equal(unique, [], unique.join('\n'));
});

/**
 * Each view in one state that shows most of its text (a selected table row, a chart tooltip, a pressed button, an
 * open disclosure), then measured in all 34 pairs by switching the body's class and data-theme in place.
 */
test('text contrast >= 4.5:1 in the overview, insights, project and session views in all 34 pairs', async ({ page, server }) => {
  const ALL = '3650';
  const api = <T>(p: string): Promise<T> => getJson<T>(server, p);
  await untilIndexed(server, 20_000);
  const overview = await api<Overview>(`/api/overview?range=${ALL}`);
  const project = [...overview.projects].sort((a, b) => b.cost - a.cost)[0];
  assert.ok(project, 'the fixture has projects');
  const sessions = await api<ProjectSessions>(`/api/projects/${project.id}/sessions?range=${ALL}`);
  const session = sessions.sessions.find((s) => s.subagentCost > 0) ?? sessions.sessions[0];
  assert.ok(session);
  await page.evaluate(() => {
    localStorage.removeItem('color-theme');
    localStorage.setItem('theme', 'dark');
  });

  const views: { name: string; url: string; ready: string; prepare?: () => Promise<void> }[] = [
    {
      name: 'cost-overview-view', url: `?view=overview&range=${ALL}`, ready: 'cost-stat-card[data-stat="cost"]',
      prepare: async () => {
        await page.locator('cost-overview-view cost-glance-strip cost-stat-card[data-stat="glance-block"]').waitFor();
        await page.locator('cost-overview-view cost-stat-card[data-stat="cost"] .change').waitFor();
        await page.locator('cost-overview-view details.months summary').click();
        await page.locator('cost-overview-view cost-monthly-table cost-table tbody tr').first().waitFor();
        await page.locator('cost-overview-view cost-table tbody tr').first().focus();
        // The previous period overlaid (its legend entry and tooltip line); focus shows a bucket's tooltip; the table row stays selected.
        await page.locator('cost-overview-view cost-chart-series button.compare').click();
        await page.locator('cost-overview-view cost-chart-series .legend .item.prev').waitFor();
        await page.locator('cost-overview-view cost-chart-series g.col[tabindex="0"]').focus();
        await page.locator('cost-overview-view cost-chart-series .tip .tp').waitFor();
        await page.locator('cost-overview-view cost-chart-series .tip').waitFor();
        await page.locator('cost-overview-view cost-table tbody tr').nth(1).hover();
      },
    },
    {
      name: 'cost-insights-view', url: `?view=insights&range=${ALL}`, ready: 'cost-stat-card[data-stat="run-rate"]',
      prepare: async () => {
        // Token composition by cost: the pressed toggle and the cost bars.
        await page.locator('cost-insights-view button[data-by="cost"]').click();
        await page.locator('cost-insights-view cost-chart-bars[label="Token composition by cost"]').waitFor();
        await page.locator('cost-insights-view cost-heatmap rect[tabindex="0"]').focus();
      },
    },
    {
      name: 'cost-project-view', url: `?view=project&project=${project.id}&range=${ALL}`, ready: 'cost-stat-card[data-stat="cost"]',
      prepare: async () => {
        await page.locator('cost-project-view button.scope').click();
        await page.locator('cost-project-view button.scope[aria-pressed="true"]').waitFor();
        await page.locator('cost-project-view cost-table[view="project"] tbody tr').first().focus();
      },
    },
    {
      name: 'cost-session-view', url: `?view=detail&session=${session.id}&range=${ALL}`, ready: 'cost-stat-card[data-stat="total"]',
      prepare: async () => {
        if (await page.locator('cost-session-view details').count()) await page.locator('cost-session-view summary').click();
        await page.locator('cost-session-view cost-cumulative-chart svg').focus();
        await page.keyboard.press('End');
        // Hover a subagent row (its dimmer text) when the session has one.
        const sub = page.locator('cost-session-view cost-table[view="detail"] tbody tr.sub');
        const any = page.locator('cost-session-view cost-table[view="detail"] tbody tr');
        await ((await sub.count()) ? sub : any).first().hover();
      },
    },
  ];
  const failures: string[] = [];
  for (const v of views) {
    await page.goto(`${server.url}/${v.url}`);
    await page.locator(`${v.name} ${v.ready}`).waitFor();
    await v.prepare?.();
    const results = await page.evaluate(measureInPage, { roots: v.name, tokens: false, pairs: ALL_PAIRS });
    const perPair = results.length / ALL_PAIRS.length;
    assert.ok(perPair > 25, `${v.name}: measured only ${perPair} text elements per pair`);
    for (const r of results) if (r.ratio < 4.5) failures.push(`${v.name} ${r.pair} = ${r.ratio.toFixed(2)}`);
  }
  await page.evaluate(() => localStorage.removeItem('cost:scope'));
  const unique = [...new Set(failures)];
  assert.equal(unique, [], unique.join('\n'));
});

test('text contrast >= 4.5:1 of grouped worktrees, the repository view and the branch table in all 34 pairs', async ({ page }) => {
  // The worktrees fixture: one repository of seven folders, branches on every line (PROVENANCE.md).
  const other = await startAppServer({ dir: path.join(ROOT, '../shared/fixtures/transcripts/worktrees') });
  try {
    await untilIndexed(other, 20_000);
    const repo = '/home/USER/projects/spotter';
    const views: { name: string; url: string; ready: string; prepare?: () => Promise<void> }[] = [
      {
        name: 'cost-overview-view', url: '?view=overview&range=3650', ready: `cost-table tbody tr[data-key="repo:${repo}"]`,
        prepare: async () => {
          await page.locator(`cost-overview-view cost-table tbody tr[data-key="repo:${repo}"] button.disclose`).click();
          await page.locator('cost-overview-view cost-table tbody tr.child').nth(1).hover();
        },
      },
      {
        name: 'cost-repository-view', url: `?view=repository&repository=${encodeURIComponent(repo)}&range=3650`,
        ready: 'cost-table[view="repository-branches"] tbody tr',
      },
      { name: 'cost-project-view', url: '?view=project&project=-home-marco-projects-spotter&range=3650', ready: 'cost-table[view="project-branches"] tbody tr' },
    ];
    const failures: string[] = [];
    for (const v of views) {
      await page.goto(`${other.url}/${v.url}`);
      await page.locator(`${v.name} ${v.ready}`).first().waitFor();
      await v.prepare?.();
      const results = await page.evaluate(measureInPage, { roots: v.name, tokens: false, pairs: ALL_PAIRS });
      assert.ok(results.length / ALL_PAIRS.length > 20, `${v.name}: measured only ${results.length / ALL_PAIRS.length} text elements per pair`);
      for (const r of results) if (r.ratio < 4.5) failures.push(`${v.name} ${r.pair} = ${r.ratio.toFixed(2)}`);
    }
    const unique = [...new Set(failures)];
    assert.equal(unique, [], unique.join('\n'));
  } finally {
    await other.close();
  }
});

test('text contrast >= 4.5:1 of the budget meters, the alert banner and the budgets dialog in all 34 pairs; fills 3:1', async ({ page }) => {
  const work = tempDir('cost-theme-budgets-');
  const DAY = 86_400_000;
  const at = Math.max(Math.floor(Date.now() / DAY) * DAY, Date.now() - 5 * 60_000);
  writeJsonl(path.join(work.dir, 'projects', '-home-dev-meter', 's1.jsonl'), [
    usageLine({ sessionId: 's1', messageId: 'm1', requestId: 'r1', timestamp: new Date(at).toISOString(), extra: { costUSD: 6 } }),
  ]);
  const other = await startAppServer({ dir: work.dir, env: { TZ: 'UTC' } });
  const set = async (period: string, amount: number) => {
    const r = await fetch(`${other.url}/api/budgets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ period, amount }) });
    const text = await r.text();
    assert.is(r.status, 200, text);
    return (JSON.parse(text) as { budgets: { period: string; projected: number }[] }).budgets;
  };
  try {
    await untilIndexed(other, 20_000);
    // One meter in each state: the month on track, today near the limit (91 % projected), the week passed.
    const projected = (await set('daily', 1_000_000)).find((b) => b.period === 'daily')!.projected;
    await set('daily', projected * 1.1);
    await set('monthly', projected * 100);
    await set('weekly', 5);
    await page.goto(`${other.url}/?view=overview&range=7`);
    for (const state of ['ok', 'warn', 'over']) await page.locator(`cost-budget-meter[data-state="${state}"] .line`).waitFor();
    await page.locator('cost-budget-alerts button.budgets').click();
    await page.locator('cost-budget-alerts cost-budget-dialog tbody tr').nth(2).waitFor();
    const results = await page.evaluate(measureInPage, { roots: 'cost-overview-view, cost-budget-alerts', tokens: false, pairs: ALL_PAIRS });
    assert.ok(results.length / ALL_PAIRS.length > 30, `measured only ${results.length / ALL_PAIRS.length} text elements per pair`);
    const failures = results.filter((r) => r.ratio < 4.5).map((r) => `${r.pair} = ${r.ratio.toFixed(2)}`);
    const fills = await page.evaluate(meterFills, ALL_PAIRS);
    assert.is(fills.length, 3 * ALL_PAIRS.length);
    failures.push(...fills.filter((r) => r.ratio < 3).map((r) => `meter fill ${r.pair} = ${r.ratio.toFixed(2)}`));
    await page.keyboard.press('Escape');
    const unique = [...new Set(failures)];
    assert.equal(unique, [], unique.join('\n'));
  } finally {
    await other.close();
    work.cleanup();
  }
});

test('no console errors, page errors or failed requests', () => {
  assert.equal(ctx.browser.problems, []);
});

test.run();
