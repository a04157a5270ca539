// Themes in Chromium against the real server: the palette switches to each of the 17 themes (and stores it), and in
// all 34 theme/mode pairs the shell's text colors keep >= 4.5:1 against the backgrounds they sit on. Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { ROOT, startAppServer, type AppServer } from '../helpers/app-server.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';

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

/**
 * In the page: every text color the shell uses against every background it puts text on, as contrast ratios.
 * Colors are resolved by the browser (color-mix included) and read back through a canvas, so any CSS color syntax works.
 */
function measureInPage(): { pair: string; ratio: number }[] {
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
  const probe = document.createElement('span');
  document.body.append(probe);
  const resolve = (prop: 'color' | 'background-color', value: string) => {
    probe.style.setProperty(prop, value);
    return getComputedStyle(probe).getPropertyValue(prop);
  };
  const deep = rgba(resolve('background-color', 'var(--bg-deep)'));
  const base: [number, number, number] = [deep[0], deep[1], deep[2]];
  const out: { pair: string; ratio: number }[] = [];

  // 1. The token matrix: text tokens x surface tokens.
  const inks = ['--ink-1', '--ink-2', '--ink-3', '--ink-accent', '--success', '--warning', '--error'];
  const surfaces = ['--bg-deep', '--bg-surface', '--bg-elevated', '--selected-bg'];
  for (const bgVar of surfaces) {
    const bg = over(rgba(resolve('background-color', `var(${bgVar})`)), base);
    for (const ink of inks) out.push({ pair: `${ink} on ${bgVar}`, ratio: ratio(over(rgba(resolve('color', `var(${ink})`)), bg), bg) });
  }
  const hover = over(rgba(resolve('background-color', 'var(--bg-hover)')), base);
  out.push({ pair: '--ink-1 on --bg-hover', ratio: ratio(over(rgba(resolve('color', 'var(--ink-1)')), hover), hover) });
  probe.remove();

  // 2. What is on screen: each shell element that holds text, against its composited background.
  const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host ?? null);
  const backgroundOf = (el: Element): [number, number, number] => {
    const chain: Element[] = [];
    for (let e: Element | null = el; e; e = parentOf(e)) chain.push(e);
    let bg: [number, number, number] = [255, 255, 255];
    for (const e of chain.reverse()) bg = over(rgba(getComputedStyle(e).backgroundColor), bg);
    return bg;
  };
  const roots = [...document.querySelectorAll('cost-top-bar, dialog[open], :popover-open, cost-toast')];
  for (const root of roots) {
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
      if (!own) continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width < 2 || box.height < 2 || style.visibility === 'hidden' || el.closest('.visually-hidden')) continue;
      const bg = backgroundOf(el);
      const fg = over(rgba(style.color), bg);
      const label = `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''} "${el.textContent!.trim().slice(0, 20)}"`;
      out.push({ pair: label, ratio: ratio(fg, bg) });
    }
  }
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
      const results = [...(await page.evaluate(measureInPage))];
      await openPalette(page);
      results.push(...(await page.evaluate(measureInPage)));
      await page.keyboard.press('Escape');
      await page.keyboard.press('?');
      await page.locator('cost-help-overlay dialog').waitFor({ state: 'visible' });
      results.push(...(await page.evaluate(measureInPage)));
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

test('no console errors, page errors or failed requests', () => {
  assert.equal(ctx.browser.problems, []);
});

test.run();
