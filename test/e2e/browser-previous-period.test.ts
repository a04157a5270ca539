// Issue 36, defect 8: while the first build runs, the overview shows no change against a previous period that is not
// read in full yet (it would read "new" or "+900%"); once it is, the changes show. Real Chromium against a real
// server whose indexing state the test sets (the range is final, its previous period not). Needs `npm run build`.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { IndexingState } from '../../src/shared/api-types.ts';
import { suiteBrowser } from '../helpers/browser.ts';
import { ROOT } from '../helpers/paths.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const DAY = 86_400_000;
// Every file with an entry since 10 days ago is read: the 7-day range is final, the 7 days before it are not.
const PARTIAL: IndexingState = { done: false, filesTotal: 12, filesDone: 5, bytesTotal: 4 << 20, bytesDone: 1 << 20, finalSince: new Date(Date.now() - 10 * DAY).toISOString() };
const DONE: IndexingState = { done: true, filesTotal: 12, filesDone: 12, bytesTotal: 4 << 20, bytesDone: 4 << 20, finalSince: new Date(0).toISOString() };

let server: TestServer;
let state = PARTIAL;

const test = suite('no change against a previous period not read yet');
const browser = suiteBrowser(test);
test.before(async () => {
  server = await startServer({ uiDir: path.join(ROOT, 'dist/ui'), indexing: () => state });
  const file = path.join(server.dir, 'config', 'projects', '-home-dev-a', 's1.jsonl');
  writeJsonl(file, [
    usageLine({ sessionId: 's1', messageId: 'a', requestId: 'ra', timestamp: new Date(Date.now() - 9 * DAY).toISOString() }),
    usageLine({ sessionId: 's1', messageId: 'b', requestId: 'rb', timestamp: new Date(Date.now() - 3_600_000).toISOString() }),
  ]);
  ingestFile(server.index, file, sessionRole('-home-dev-a', 's1'));
});
test.after(async () => {
  await server?.close();
});

test('while the previous period is being read: no change; once it is: the changes', async () => {
  const page = await browser.page();
  const previous: string[] = [];
  page.on('request', (r) => void (/\/api\/overview\?.*from=/.test(r.url()) && previous.push(r.url())));
  await page.goto(`http://127.0.0.1:${server.port}/?view=overview&range=7`);
  const cost = page.locator('cost-overview-view cost-stat-card[data-stat="cost"]');
  await cost.waitFor();
  // the previous period was asked for and answered (not final): still no change line
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/api\/overview\?.*from=/.test(e.name)), undefined, { timeout: 10_000 });
  await page.waitForTimeout(300);
  assert.ok(previous.length >= 1, 'the previous period was asked for');
  assert.is(await page.locator('cost-overview-view .change').count(), 0);
  state = DONE;
  await page.locator('cost-overview-view .change').first().waitFor({ timeout: 15_000 });
  assert.match((await page.locator('cost-overview-view .change').first().textContent()) ?? '', /vs previous 7 days/);
});

test('no console errors or failed requests', () => {
  assert.equal(browser.problems, []);
});

test.run();
