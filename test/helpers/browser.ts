// Debian's Chromium through playwright-core, headless, with a fresh profile per launch. Collects console errors,
// page errors and failed requests per page, so a suite can assert a clean run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './app-server.ts';

export const ARTIFACTS = path.join(ROOT, 'test-artifacts');

export interface Browser {
  context: BrowserContext;
  /** A new page that records its problems in `problems`. */
  page(): Promise<Page>;
  /** Console errors, uncaught page errors and failed requests (aborted fetches excluded), in order. */
  problems: string[];
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export interface BrowserOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
}

export async function launchBrowser(opts: BrowserOptions = {}): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
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
    viewport: opts.viewport ?? { width: 1280, height: 860 },
    colorScheme: opts.colorScheme ?? 'dark',
  });
  // tsx compiles the test files with keepNames, so functions passed to page.evaluate may call esbuild's __name helper.
  await context.addInitScript('globalThis.__name = globalThis.__name || ((f) => f);');
  const problems: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 500) problems.push(`http ${r.status()}: ${r.url()}`);
    });
    page.on('requestfailed', (r) => {
      const why = r.failure()?.errorText ?? '';
      if (!/ERR_ABORTED/.test(why)) problems.push(`requestfailed: ${r.url()} ${why}`);
    });
  };
  context.on('page', watch);
  for (const p of context.pages()) watch(p);
  return {
    context,
    problems,
    page: async () => {
      const existing = context.pages().find((p) => p.url() === 'about:blank');
      return existing ?? (await context.newPage());
    },
    async screenshot(page, name) {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      const file = path.join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: false });
      return file;
    },
    async close() {
      await context.close().catch(() => {});
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
