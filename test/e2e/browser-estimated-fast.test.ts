// The overview's estimated-fast note against the real server (issue 32 rule 4): a fast entry on a model with no known
// multiplier (Haiku) is priced at 2x and named beside the unpriced-models chip, with its cost in the tip; a fast entry
// of a model the catalogue knows (Opus 4.6) is not. Needs `npm run build`.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { Overview } from '../../src/shared/api-types.ts';
import { formatInt, formatUsd } from '../../ui/src/format.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { startAppServer, type AppServer } from '../helpers/app-server.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const HAIKU = 'claude-haiku-4-5';
const OPUS = 'claude-opus-4-6';

interface Ctx {
  server: AppServer;
  browser: Browser;
  page: Page;
}
const ctx = {} as Ctx;
const test = suite<Ctx>('estimated fast multipliers on the overview', ctx);

function line(session: string, n: number, model: string, at: number): string {
  return `${JSON.stringify({
    type: 'assistant', sessionId: session, cwd: '/home/dev/fast', uuid: randomUUID(), timestamp: new Date(at).toISOString(), requestId: `req_fast_${n}`,
    message: { id: `msg_fast_${n}`, role: 'assistant', model, usage: { input_tokens: 1000, output_tokens: 200, speed: 'fast' } },
  })}\n`;
}

async function overview(): Promise<Overview> {
  const res = await fetch(`${ctx.server.url}/api/overview?range=7`);
  if (!res.ok) throw new Error(`overview: ${res.status} ${await res.text()}`);
  return (await res.json()) as Overview;
}

test.before(async () => {
  const { dir } = tempDir('cost-ui-fast-');
  const session = randomUUID();
  const file = path.join(dir, 'projects', '-home-dev-fast', `${session}.jsonl`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const now = Date.now();
  fs.writeFileSync(file, [line(session, 1, HAIKU, now - 120_000), line(session, 2, HAIKU, now - 90_000), line(session, 3, OPUS, now - 60_000)].join(''));
  ctx.server = await startAppServer({ dir });
  await waitFor(async () => {
    const o = await overview();
    return o.indexing.done && o.totals.messages === 3;
  }, 'the config dir to be indexed', 20_000);
  ctx.browser = await launchBrowser({ viewport: { width: 1280, height: 800 } });
  ctx.page = await ctx.browser.page();
  await ctx.page.goto(`${ctx.server.url}/?view=overview&range=7`);
  await ctx.page.locator('cost-overview-view cost-stat-card[data-stat="cost"]').waitFor();
});

test.after(async () => {
  await ctx.browser?.close();
  await ctx.server?.close();
});

test('the note names the estimated model; hover and focus show its fast messages and cost', async ({ page }) => {
  const o = await overview();
  assert.equal(o.estimatedFastModels.map((m) => [m.model, m.messages, m.multiplier]), [[HAIKU, 2, 2]]);
  // 2 x (1000 x 1e-6 + 200 x 5e-6) x 2 = 0.008
  assert.ok(Math.abs(o.estimatedFastModels[0]!.cost - 0.008) < 1e-12, String(o.estimatedFastModels[0]!.cost));
  const chip = page.locator('cost-overview-view .estimated .chip');
  await chip.waitFor();
  assert.is(((await chip.textContent()) ?? '').replace(/\s+/g, ' ').trim(), `Estimated fast price: ${HAIKU}`);
  const tip = page.locator('cost-overview-view .estimated .tip');
  assert.not.ok(await tip.isVisible(), 'the tip is hidden until asked for');
  await chip.hover();
  await tip.waitFor({ state: 'visible' });
  const row = tip.locator(`.tip-row[data-model="${HAIKU}"]`);
  assert.is(((await row.textContent()) ?? '').replace(/\s+/g, ' ').trim(), `${HAIKU} ${formatUsd(0.008)} in ${formatInt(2)} fast messages at 2×`);
  await ctx.browser.screenshot(page, 'overview-estimated-fast-tip');
  await page.keyboard.press('Escape');
  await tip.waitFor({ state: 'hidden' });
  await page.mouse.move(5, 5);
  await chip.focus();
  await tip.waitFor({ state: 'visible' });
  assert.is(await chip.getAttribute('aria-describedby'), await tip.getAttribute('id'));
  assert.is(await page.locator('cost-overview-view .unpriced').count(), 0, 'every model has a price');
});

test('no console errors, page errors or failed requests', () => {
  assert.equal(ctx.browser.problems, []);
});

test.run();
