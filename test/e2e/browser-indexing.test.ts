// The indexing state in real Chromium against a real server whose indexing state the test sets: while the start-up
// scan has found nothing to read yet the overview says it is checking (never "0 of 0 files"), and the page asks again
// within about a second, so a restart's check does not leave the note up for the 5 s of a build's refreshes; while
// files are read it counts them, and the pill follows every second; once done the note goes. And once any answer
// says done (on a restart the scan often ends between the page's first answers), the views ask again at once: the
// next refresh would be 30 s away, and the overview kept "checking" (before: "0 of 0 files") up for that long.
// What is asserted is the page's refresh schedule, on its own clock (held still by Playwright's setFixedTime): after a change, the
// requests it makes while that clock moves by a second (or not at all), not how long a busy machine took to show them.
// Needs `npm run build` (dist/ui).
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { IndexingState } from '../../src/shared/api-types.ts';
import { suiteBrowser } from '../helpers/browser.ts';
import { ROOT } from '../helpers/paths.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const CHECKING: IndexingState = { done: false, filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0, finalSince: null };
const READING: IndexingState = { done: false, filesTotal: 12, filesDone: 5, bytesTotal: 4 << 20, bytesDone: 1 << 20, finalSince: null };
const DONE: IndexingState = { done: true, filesTotal: 12, filesDone: 12, bytesTotal: 4 << 20, bytesDone: 4 << 20, finalSince: new Date(0).toISOString() };

let server: TestServer;
let state = CHECKING;

const test = suite('indexing state on the overview');
const browser = suiteBrowser(test);
test.before(async () => {
  server = await startServer({ uiDir: path.join(ROOT, 'dist/ui'), indexing: () => state });
  // An hour ago, so the overview and the glance strip have figures to show.
  const file = path.join(server.dir, 'config', 'projects', '-home-dev-a', 's1.jsonl');
  writeJsonl(file, [usageLine({ sessionId: 's1', timestamp: new Date(Date.now() - 3_600_000).toISOString() })]);
  ingestFile(server.index, file, sessionRole('-home-dev-a', 's1'));
});
test.after(async () => {
  await server?.close();
});

/** The server forgets its cached answers, as after a commit; the page must ask again on its own. */
async function clearServerCache(): Promise<void> {
  const r = await server.request('/api/refresh', { method: 'POST' });
  assert.is(r.status, 200, r.text);
}

const inFlight = new WeakMap<Page, Set<unknown>>();
/** Counts the page's API requests in flight (the event stream, always open, aside). */
function trackRequests(page: Page): void {
  const open = new Set<unknown>();
  inFlight.set(page, open);
  page.on('request', (r) => void (/\/api\/(?!events)/.test(r.url()) && open.add(r)));
  page.on('requestfinished', (r) => void open.delete(r));
  page.on('requestfailed', (r) => void open.delete(r));
}
async function settled(page: Page): Promise<void> {
  const open = inFlight.get(page)!;
  for (let i = 0; open.size && i < 500; i++) await new Promise((r) => setTimeout(r, 20));
}

/**
 * Whether, after `change`, the page asks for a URL matching `pattern` once its clock has moved by `ms`. The page's
 * clock (Date) is held still meanwhile, so no refresh of its schedule falls due in between, however long the change
 * and the answers take in real time; its timers keep running.
 */
async function asksWithin(page: Page, change: () => Promise<void>, ms: number, pattern: RegExp): Promise<boolean> {
  const t = (await page.evaluate(() => Date.now())) + 1;
  await page.clock.setFixedTime(t);
  // What fell due before the clock stood still is answered first: the requests wanted are the change's.
  await settled(page);
  const asked = page.waitForRequest((r) => pattern.test(r.url()), { timeout: 5_000 }).then(() => true, () => false);
  await change();
  await page.clock.setFixedTime(t + ms);
  return asked;
}

const noteGone = () => !document.querySelector('cost-overview-view')?.shadowRoot?.querySelector('.indexing');

test('checking, then reading, then done: the note follows the server without a click', async () => {
  state = CHECKING;
  await clearServerCache();
  const page = await browser.page();
  trackRequests(page);
  await page.goto(`http://localhost:${server.port}/?view=overview&range=3`);
  const note = page.locator('cost-overview-view .indexing');
  await note.waitFor();
  assert.match((await note.textContent()) ?? '', /Checking transcripts for changes/);
  assert.is(await note.locator('progress').getAttribute('value'), null, 'an indeterminate bar: there is no count yet');
  assert.match((await page.locator('cost-indexing .indexing').textContent()) ?? '', /Checking…/);
  assert.not.match((await page.locator('body').innerText()) ?? '', /0 of 0 files/);

  // The 1 s refresh of the checking state, not the 5 s of a build's.
  const reading = async () => {
    state = READING;
    await clearServerCache();
  };
  assert.ok(await asksWithin(page, reading, 1_000, /\/api\/overview\?range=3$/), 'the views ask again within a second of the page clock');
  await page.waitForFunction(() => /5 of 12 files/.test(document.querySelector('cost-overview-view')?.shadowRoot?.querySelector('.indexing')?.textContent ?? ''), null, { timeout: 10_000 });
  assert.match((await page.locator('cost-indexing .indexing').textContent()) ?? '', /Indexing 25%/);

  // Between a build's 5 s refreshes the progress is asked for every second.
  const further = async () => {
    state = { ...READING, filesDone: 9, bytesDone: 3 << 20 };
    await clearServerCache();
  };
  assert.ok(await asksWithin(page, further, 1_000, /\/api\/overview\?range=today$/), 'the progress is asked for within a second of the page clock');
  await page.locator('cost-indexing .indexing', { hasText: 'Indexing 75%' }).waitFor({ timeout: 10_000 });

  state = DONE;
  await clearServerCache();
  await page.waitForFunction(noteGone, null, { timeout: 15_000 });
  assert.is(await page.locator('cost-indexing .indexing').count(), 0);
  assert.equal(browser.problems, []);
  await page.close();
});

test('done in one answer: every view asks again at once', async () => {
  state = CHECKING;
  await clearServerCache();
  const page = await browser.page();
  await page.clock.install();
  trackRequests(page);
  // The glance strip's month is answered late, after the scan ended, as on a restart.
  const held: Route[] = [];
  await page.route(/\/api\/overview\?range=month/, (route) => void (held.length ? route.continue() : held.push(route)));
  await page.goto(`http://localhost:${server.port}/?view=overview&range=3`);
  await page.locator('cost-overview-view .indexing').waitFor();
  while (!held.length) await new Promise((r) => setTimeout(r, 20));
  // Done: the held answer is the first to say so (a 1 s tick in between would find it too; without the held answer
  // the clock, told done, would next refresh in 30 s).
  state = DONE;
  await clearServerCache();
  const again = page.waitForRequest((r) => /\/api\/overview\?range=3$/.test(r.url()), { timeout: 5_000 }).then(() => true, () => false);
  await held[0]!.continue();
  assert.ok(await again, 'the views asked again at once, with no refresh due on the page clock');
  await page.waitForFunction(noteGone, null, { timeout: 10_000 });
  // The refresh aborted loads in flight; their views load again (a new call must not join an aborted request).
  await page.locator('cost-glance-strip cost-stat-card').first().waitFor({ timeout: 5_000 });
  // Today, this week, this month and the block: no plan limits card without a reading.
  assert.is(await page.locator('cost-glance-strip cost-stat-card').count(), 4);
  assert.ok(await page.locator('cost-glance-strip cost-limits-card').isHidden(), 'no limits card before a reading');
  assert.equal(browser.problems, []);
  await page.close();
});

test('figures read "so far" until the answer for their range says final', async () => {
  const page = await browser.page();
  const label = (stat: string) => page.locator(`cost-stat-card[data-stat="${stat}"]`).getAttribute('label');
  const labelled = (stat: string, text: string) =>
    page.waitForFunction(
      ([s, t]) => {
        const strip = document.querySelector('cost-overview-view')?.shadowRoot?.querySelector('cost-glance-strip')?.shadowRoot;
        const view = document.querySelector('cost-overview-view')?.shadowRoot;
        return (strip?.querySelector(`[data-stat="${s}"]`) ?? view?.querySelector(`[data-stat="${s}"]`))?.getAttribute('label') === t;
      },
      [stat, text] as const,
      { timeout: 15_000 },
    );
  // Nothing read yet: nothing final.
  state = READING;
  await clearServerCache();
  await page.goto(`http://localhost:${server.port}/?view=overview&range=3`);
  await labelled('glance-today', 'Today so far');
  assert.is(await label('glance-week'), 'This week so far');
  assert.is(await label('glance-month'), 'This month so far');
  assert.is(await label('cost'), 'Range cost so far');

  // Every transcript modified since local midnight read: today is final, the 3 days of the range are not.
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  state = { ...READING, filesDone: 9, bytesDone: 3 << 20, finalSince: midnight.toISOString() };
  await clearServerCache();
  await labelled('glance-today', 'Today');
  assert.is(await label('cost'), 'Range cost so far');

  state = DONE;
  await clearServerCache();
  await labelled('cost', 'Range cost');
  assert.is(await label('glance-week'), 'This week');
  assert.is(await label('glance-month'), 'This month');
  assert.equal(browser.problems, []);
  await page.close();
});

test.run();
