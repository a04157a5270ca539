// Debian's Chromium (or CHROMIUM_PATH) through playwright-core, headless: one browser per launch with a default context
// that collects console errors, page errors and failed requests, so a suite can assert a clean run; more contexts
// (the hub tests open one per case) come from newContext. `suiteBrowser` gives a suite one browser for all its tests.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser as Chromium, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import type { Test } from 'uvu';
import { ROOT } from './paths.ts';

export const ARTIFACTS = path.join(ROOT, 'test-artifacts');

export interface Browser {
  /** The default context, with the viewport and colour scheme of the launch. */
  context: BrowserContext;
  /** A page of the default context that records its problems in `problems`. */
  page(): Promise<Page>;
  /** Console errors, uncaught page errors and failed requests (aborted fetches excluded) of the default context, in order. */
  problems: string[];
  screenshot(page: Page, name: string): Promise<string>;
  /** Another context, isolated from the default one. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * The page's live feed (GET /api/events) retrying a server the test has stopped: the browser reconnects an event
 * stream by itself, and a refused connection is what a stopped server gives. Not a problem of the page.
 */
function liveFeedRetry(url: string, why: string): boolean {
  return /\/api\/events(?:\?|$)/.test(url) && /ERR_CONNECTION_REFUSED/.test(why);
}

export interface BrowserOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
}

export async function launchBrowser(opts: BrowserOptions = {}): Promise<Browser> {
  const chromiumBrowser: Chromium = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const newContext = async (options: BrowserContextOptions = {}): Promise<BrowserContext> => {
    const context = await chromiumBrowser.newContext(options);
    // tsx compiles the test files with keepNames, so functions passed to page.evaluate may call esbuild's __name helper.
    await context.addInitScript('globalThis.__name = globalThis.__name || ((f) => f);');
    return context;
  };
  const context = await newContext({ viewport: opts.viewport ?? { width: 1280, height: 860 }, colorScheme: opts.colorScheme ?? 'dark' });
  const problems: string[] = [];
  context.on('page', (page) => {
    page.on('console', (m) => {
      if (m.type() === 'error' && !liveFeedRetry(m.location().url, m.text())) problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 500) problems.push(`http ${r.status()}: ${r.url()}`);
    });
    page.on('requestfailed', (r) => {
      const why = r.failure()?.errorText ?? '';
      if (!/ERR_ABORTED/.test(why) && !liveFeedRetry(r.url(), why)) problems.push(`requestfailed: ${r.url()} ${why}`);
    });
  });
  return {
    context,
    problems,
    page: async () => context.pages().find((p) => p.url() === 'about:blank') ?? (await context.newPage()),
    async screenshot(page, name) {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      const file = path.join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: false });
      return file;
    },
    newContext,
    close: () => chromiumBrowser.close().catch(() => {}),
  };
}

/**
 * One browser for a whole suite: launched by a `before` hook of the suite (registered now, so it runs before the hooks
 * the suite adds after this call) and closed by an `after` hook. The Browser returned stands for it from the first
 * test on.
 */
export function suiteBrowser<T>(test: Test<T>, opts: BrowserOptions = {}): Browser {
  let launched: Browser | null = null;
  const it = (): Browser => {
    if (!launched) throw new Error("the suite's browser is launched by its before hook");
    return launched;
  };
  const close = async (): Promise<void> => {
    await launched?.close();
    launched = null;
  };
  test.before(async () => {
    launched = await launchBrowser(opts);
  });
  test.after(close);
  return {
    get context() {
      return it().context;
    },
    get problems() {
      return it().problems;
    },
    page: () => it().page(),
    screenshot: (page, name) => it().screenshot(page, name),
    newContext: (options) => it().newContext(options),
    close,
  };
}

export interface ThemedSetup {
  width: number;
  mode: 'light' | 'dark';
  /** A color theme id of themes.json. */
  theme: string;
}

/**
 * A browser at the setup's width and mode whose dashboard at `baseUrl` has the setup's theme stored (the spec's
 * `color-theme` and `theme` keys), so the next navigation renders in it. `initScript` runs in every page first.
 */
export async function launchThemed(baseUrl: string, setup: ThemedSetup, initScript?: string): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser({ viewport: { width: setup.width, height: 900 }, colorScheme: setup.mode });
  if (initScript) await browser.context.addInitScript(initScript);
  const page = await browser.page();
  await page.goto(`${baseUrl}/`);
  await page.evaluate(([t, m]) => {
    localStorage.setItem('color-theme', t);
    localStorage.setItem('theme', m);
  }, [setup.theme, setup.mode] as const);
  return { browser, page };
}
