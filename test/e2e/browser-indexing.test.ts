// The indexing state in real Chromium against a real server whose indexing state the test sets: while the start-up
// scan has found nothing to read yet the overview says it is checking (never "0 of 0 files"), and the page asks again
// within about a second, so a restart's check does not leave the note up for the 5 s of a build's refreshes; while
// files are read it counts them; once done the note goes. Needs `npm run build` (dist/ui).
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { IndexingState } from '../../src/shared/api-types.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { ROOT } from '../helpers/paths.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const CHECKING: IndexingState = { done: false, filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0 };
const READING: IndexingState = { done: false, filesTotal: 12, filesDone: 5, bytesTotal: 4 << 20, bytesDone: 1 << 20 };
const DONE: IndexingState = { done: true, filesTotal: 12, filesDone: 12, bytesTotal: 4 << 20, bytesDone: 4 << 20 };

let browser: Browser;
let server: TestServer;
let state = CHECKING;

const test = suite('indexing state on the overview');
test.before(async () => {
  server = await startServer({ uiDir: path.join(ROOT, 'dist/ui'), indexing: () => state });
  browser = await launchBrowser();
});
test.after(async () => {
  await browser?.close();
  await server?.close();
});

/** The server forgets its cached answers, as after a commit; the page must ask again on its own. */
async function clearServerCache(): Promise<void> {
  const r = await server.request('/api/refresh', { method: 'POST' });
  assert.is(r.status, 200, r.text);
}

test('checking, then reading, then done: the note follows the server without a click', async () => {
  const page = await browser.page();
  await page.goto(`http://localhost:${server.port}/?view=overview&range=3`);
  const note = page.locator('cost-overview-view .indexing');
  await note.waitFor();
  assert.match((await note.textContent()) ?? '', /Checking transcripts for changes/);
  assert.is(await note.locator('progress').getAttribute('value'), null, 'an indeterminate bar: there is no count yet');
  assert.match((await page.locator('cost-indexing .indexing').textContent()) ?? '', /Checking…/);
  assert.not.match((await page.locator('body').innerText()) ?? '', /0 of 0 files/);

  state = READING;
  await clearServerCache();
  const flipped = Date.now();
  await page.waitForFunction(() => /5 of 12 files/.test(document.querySelector('cost-overview-view')?.shadowRoot?.querySelector('.indexing')?.textContent ?? ''), null, { timeout: 10_000 });
  // The 1 s refresh of the checking state, not the 5 s of a build's.
  assert.ok(Date.now() - flipped < 4_000, `counted after ${Date.now() - flipped} ms`);
  assert.match((await page.locator('cost-indexing .indexing').textContent()) ?? '', /Indexing 25%/);

  state = DONE;
  await clearServerCache();
  await page.waitForFunction(() => !document.querySelector('cost-overview-view')?.shadowRoot?.querySelector('.indexing'), null, { timeout: 15_000 });
  assert.is(await page.locator('cost-indexing .indexing').count(), 0);
  assert.equal(browser.problems, []);
});

test.run();
