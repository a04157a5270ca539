// The empty states in real Chromium against the real server (dist/main.js): with no transcript at all, the overview
// names the config dir it reads and Insights says nothing is indexed yet (it said "pick a longer range", which cannot
// help); with history but none in the range, both say "Nothing in this range". Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { suiteBrowser } from '../helpers/browser.ts';
import { tempDir } from '../helpers/jsonl.ts';

const test = suite('empty states');
const browser = suiteBrowser(test);

/** The heading of the view's empty state. */
async function emptyHeading(page: Page, url: string, view: string): Promise<string> {
  await page.goto(url);
  const heading = page.locator(`${view} cost-empty .heading`).first();
  await heading.waitFor();
  return (await heading.innerText()).trim();
}

test('no transcript at all: the overview names the dir, Insights says nothing is indexed', async () => {
  const tmp = tempDir('cost-empty-');
  fs.mkdirSync(path.join(tmp.dir, 'projects'));
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ dir: tmp.dir });
    await untilIndexed(server, 20_000);
    const page = await browser.page();
    assert.match(await emptyHeading(page, `${server.url}/?view=overview&range=30`, 'cost-overview-view'), new RegExp(`No transcripts found in ${tmp.dir}`));
    const insights = await emptyHeading(page, `${server.url}/?view=insights&range=30`, 'cost-insights-view');
    assert.match(insights, /No usage indexed yet/);
    assert.not.match(insights, /longer range/);
    await page.close();
  } finally {
    await server?.close();
    tmp.cleanup();
  }
});

test('history, but none in the range: both views say so', async () => {
  const server = await startAppServer();
  try {
    await untilIndexed(server, 20_000);
    const page = await browser.page();
    // The fixtures' usage is years old: yesterday to today holds none of it.
    assert.match(await emptyHeading(page, `${server.url}/?view=overview&range=24h`, 'cost-overview-view'), /Nothing in this range/);
    assert.match(await emptyHeading(page, `${server.url}/?view=insights&range=24h`, 'cost-insights-view'), /Nothing in this range/);
    await page.close();
  } finally {
    await server.close();
  }
  assert.equal(browser.problems, []);
});

test.run();
