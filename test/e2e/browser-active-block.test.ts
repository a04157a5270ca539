// The Insights view's active 5-hour block is the real one, whatever range is picked: real Chromium
// against the real server (dist/main.js) over crafted transcripts. The server runs in a fixed-offset
// zone chosen so that it is between 01:00 and 02:00 there now: the block began about 2 h ago, before
// local midnight, so `today` starts inside it. Needs `npm run build`.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Insights } from '../../src/shared/api-types.ts';
import { formatTokens, formatUsd } from '../../ui/src/format.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { suiteBrowser } from '../helpers/browser.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';

const HOUR = 3_600_000;
const now = Date.now();
// Etc/GMT-N is N hours ahead of UTC (POSIX sign): pick the N that puts now at 01:xx local.
const ahead = (((1 - new Date(now).getUTCHours()) % 24) + 24 + 12) % 24 - 12 || 0;
const zone = ahead === 0 ? 'UTC' : `Etc/GMT${ahead > 0 ? '-' : '+'}${Math.abs(ahead)}`;
const localDay = (ms: number): string => new Date(ms + ahead * HOUR).toISOString().slice(0, 10);

const work = tempDir('cost-active-block-');
const HAIKU = 'claude-haiku-4-5-20251001'; // $1 in, $5 out per M
writeJsonl(path.join(work.dir, 'projects', '-home-dev-proj', 'sess-1.jsonl'), [
  // The block's first entry, before local midnight, then one a few minutes ago.
  usageLine({ timestamp: new Date(now - 2 * HOUR).toISOString(), model: HAIKU, messageId: 'm1', requestId: 'r1', input: 1000, output: 1000 }),
  usageLine({ timestamp: new Date(now - 10 * 60_000).toISOString(), model: HAIKU, messageId: 'm2', requestId: 'r2', input: 2000, output: 2000 }),
]);
const BLOCK_COST = 0.006 + 0.012;

let server: AppServer;
const Active = suite('the active 5-hour block in the UI');
const browser = suiteBrowser(Active, { viewport: { width: 1280, height: 900 } });

Active.before(async () => {
  server = await startAppServer({ dir: work.dir, env: { TZ: zone }, timeoutMs: 30_000 });
  await untilIndexed(server, 30_000);
});

Active.after(async () => {
  await server?.close();
  work.cleanup();
});

const stat = async (page: Page, name: string): Promise<string> =>
  ((await page.locator(`cost-insights-view cost-stat-card[data-stat="${name}"] .value`).first().textContent()) ?? '').trim();

// Two days ago: a range with no usage at all, before the block.
const past = localDay(now - 48 * HOUR);
for (const [label, query] of [['today', 'range=today'], ['24 h', 'range=24h'], ['a past day', `from=${past}&to=${past}`]] as const) {
  Active(`${label}: the real active block, begun 2 h ago with both its entries`, async () => {
    const ins = await getJson<Insights>(server, `/api/insights?${query}`);
    const b = ins.activeBlock;
    assert.ok(b, 'an active block');
    assert.is(b!.start, new Date(Math.floor((now - 2 * HOUR) / HOUR) * HOUR).toISOString());
    assert.is(b!.messages, 2);
    assert.ok(Math.abs(b!.cost - BLOCK_COST) < 1e-12, `block cost ${b!.cost}`);
    const page = await browser.page();
    await page.goto(`${server.url}/?view=insights&${query}`);
    await page.locator('cost-insights-view [data-block="active"]').waitFor();
    assert.is(await stat(page, 'block-cost'), formatUsd(BLOCK_COST));
    assert.is(await stat(page, 'block-tokens'), formatTokens(6000));
    await page.close();
  });
}

Active('no console errors or failed requests', () => {
  assert.equal(browser.problems, []);
});

Active.run();
