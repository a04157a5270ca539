// The overview's quiet notes in real Chromium against the real server (dist/main.js): a clock behind the data
// says so (otherwise the newest usage just shows $0), and skipped lines are counted by reason. Needs `npm run build`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { Overview } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { suiteBrowser } from '../helpers/browser.ts';
import { tempDir, usageLine } from '../helpers/jsonl.ts';

function configDir(dir: string, lines: string[]): void {
  const file = path.join(dir, 'projects', '-home-dev-alpha', 's1.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

const at = (ms: number, id: string, input = 1000) =>
  JSON.stringify(usageLine({ sessionId: 's1', timestamp: new Date(ms).toISOString(), messageId: id, requestId: id, input }));

const Notes = suite('overview notes');
const browser = suiteBrowser(Notes);

async function overviewPage(server: AppServer) {
  await untilIndexed(server, 20_000);
  const page = await browser.page();
  await page.goto(`${server.url}/?view=overview&range=3`);
  await page.locator('cost-overview-view header h2').waitFor();
  await page.locator('cost-overview-view cost-stat-card, cost-overview-view cost-empty').first().waitFor();
  return page;
}

Notes('data newer than the clock, and skipped lines, each get a short note', async () => {
  const tmp = tempDir('cost-notes-');
  const now = Date.now();
  const future = now + 3 * 3_600_000;
  configDir(tmp.dir, [
    at(now - 3_600_000, 'past'),
    at(future, 'future'),
    '{"message":{"usage":{"input_tokens":1}}}', // no timestamp
    'not json but says "usage"',
    at(now - 60_000, 'huge', 5e18),
  ]);
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ dir: tmp.dir });
    const page = await overviewPage(server);
    const o = await getJson<Overview>(server, '/api/overview?range=3');
    assert.is(o.health.dataInFuture, true);
    const clock = page.locator('cost-overview-view .note.clock');
    await clock.waitFor();
    const clockText = (await clock.textContent()) ?? '';
    assert.match(clockText, /newest usage entry .* is later than this computer's clock/s);
    assert.match(clockText, /Check the system clock/);
    const skipped = (await page.locator('cost-overview-view .skipped').textContent())?.trim();
    assert.is(skipped, '3 transcript lines skipped (2 malformed, 1 with impossible numbers)');
    await browser.screenshot(page, 'overview-notes');
    assert.equal(browser.problems, []);
  } finally {
    await server?.close();
    tmp.cleanup();
  }
});

Notes('no note when the data is in the past and nothing was skipped', async () => {
  const tmp = tempDir('cost-notes-clean-');
  configDir(tmp.dir, [at(Date.now() - 3_600_000, 'a'), at(Date.now() - 60_000, 'b')]);
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ dir: tmp.dir });
    const page = await overviewPage(server);
    await page.locator('cost-overview-view cost-stat-card[data-stat="cost"]').waitFor();
    assert.is(await page.locator('cost-overview-view .note.clock').count(), 0);
    assert.is(await page.locator('cost-overview-view .skipped').count(), 0);
  } finally {
    await server?.close();
    tmp.cleanup();
  }
});

Notes.run();
