// Browser figures for `npm run bench`: the overview's first meaningful render and a range switch, in headless Chromium
// against a running server. Each run gets a fresh browser context (empty HTTP and memory caches) and a cold server
// cache (POST /api/refresh), and waits for the range-cost card to show the figure the API gives for that range.
import type { BrowserContext, Page } from 'playwright-core';
import type { Overview } from '../src/shared/api-types.ts';
import { formatUsd } from '../ui/src/format.ts';
import { launchBrowser } from '../test/helpers/browser.ts';
import { clearServerCache, percentile } from './common.ts';

const RUNS = 5; // odd, so the median is one run's figure
const FIRST_RANGE = '30';
/** The preset clicked for the switch, and the query it sends: a year is the heaviest preset to answer. */
const SWITCH = { preset: '1y', range: '365' };
const TIMEOUT_MS = 60_000;

/** Installed in every page: reads the range-cost card's figure through the shadow roots; '' until it is rendered. */
const READER = `globalThis.costFigure = () => document.querySelector('cost-overview-view')?.shadowRoot
  ?.querySelector('cost-stat-card[data-stat="cost"]')?.shadowRoot?.querySelector('.value')?.textContent?.trim() ?? '';`;
type WithReader = typeof globalThis & { costFigure(): string };

async function expectedFigure(base: string, range: string): Promise<string> {
  const res = await fetch(`${base}/api/overview?range=${range}`);
  if (!res.ok) throw new Error(`overview ${range}: ${res.status} ${await res.text()}`);
  return formatUsd(((await res.json()) as Overview).totals.cost);
}

/** Navigation start (the page's time origin) until the figure is painted, checked once per animation frame. */
async function firstRender(page: Page, base: string, figure: string): Promise<number> {
  await page.goto(`${base}/?view=overview&range=${FIRST_RANGE}`, { waitUntil: 'commit' });
  const at = await page.waitForFunction((want) => ((globalThis as WithReader).costFigure() === want ? performance.now() : 0), figure, {
    polling: 'raf',
    timeout: TIMEOUT_MS,
  });
  return (await at.jsonValue()) as number;
}

/** Click on a range preset until the new figure is painted, timed inside the page. */
async function rangeSwitch(page: Page, figure: string): Promise<number> {
  return page.evaluate(
    async ([preset, want, timeout]) => {
      const button = document.querySelector<HTMLButtonElement>(`cost-range-picker button[data-range="${preset}"]`);
      if (!button) throw new Error(`no ${preset} preset button`);
      const t0 = performance.now();
      button.click();
      return new Promise<number>((resolve, reject) => {
        const check = () => {
          const now = performance.now();
          if ((globalThis as WithReader).costFigure() === want) resolve(now - t0);
          else if (now - t0 > (timeout as number)) reject(new Error(`the ${preset} figure ${want} never showed`));
          else requestAnimationFrame(check);
        };
        check();
      });
    },
    [SWITCH.preset, figure, TIMEOUT_MS] as const,
  );
}

/** Median over a few runs of the overview's first render and of a range switch, both with a cold server cache. */
export async function browserBench(port: number): Promise<{ firstRenderMs: number; rangeSwitchMs: number }> {
  const base = `http://127.0.0.1:${port}`;
  const firstFigure = await expectedFigure(base, FIRST_RANGE);
  const switchFigure = await expectedFigure(base, SWITCH.range);
  if (firstFigure === switchFigure) throw new Error(`ranges ${FIRST_RANGE} and ${SWITCH.range} cost the same: the switch cannot be seen`);
  // The tests' launch (CHROMIUM_PATH, the same flags); each run gets a context of its own below.
  const browser = await launchBrowser();
  const first: number[] = [];
  const switches: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      let context: BrowserContext | null = null;
      try {
        context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'dark' });
        await context.addInitScript(READER);
        const page = await context.newPage();
        await clearServerCache(base);
        first.push(await firstRender(page, base, firstFigure));
        await clearServerCache(base);
        switches.push(await rangeSwitch(page, switchFigure));
      } finally {
        await context?.close();
      }
    }
  } finally {
    await browser.close();
  }
  return { firstRenderMs: percentile(first, 50), rangeSwitchMs: percentile(switches, 50) };
}
