// Issue 34's views in real Chromium against the real server (dist/main.js) over a temp config dir with a real
// settings.json and transcripts given old modification times: the overview's note of what Claude Code deletes at its
// next start and within 7 days, with the offer to keep the transcripts while keeping is off; no note once the period is
// longer; and a deleted session's view still showing its title and prompt. Needs `npm run build`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { Retention } from '../../src/shared/retention-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { suiteBrowser } from '../helpers/browser.ts';
import { tempDir, usageLine, userLine, writeJsonl } from '../helpers/jsonl.ts';
import { waitFor } from '../helpers/wait.ts';

const DAY = 86_400_000;
const Views = suite('retention views');
const browser = suiteBrowser(Views);

function configDir(root: string): { cfg: string; project: string } {
  const cfg = path.join(root, 'claude');
  const project = path.join(cfg, 'projects', '-home-dev-alpha');
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(cfg, 'settings.json'), JSON.stringify({ cleanupPeriodDays: 30 }));
  const sessions: [string, number, number][] = [['old-a', 1.25, 40], ['old-b', 3, 35], ['soon', 2.5, 26], ['fresh', 4, 0]];
  for (const [sid, cost, age] of sessions) {
    const file = path.join(project, `${sid}.jsonl`);
    const ts = new Date(Date.now() - (age + 1) * DAY).toISOString();
    writeJsonl(file, [
      userLine(`Fix the ${sid} parser`, { sessionId: sid, timestamp: ts, uuid: `u-${sid}` }),
      usageLine({ sessionId: sid, messageId: `m-${sid}`, requestId: `r-${sid}`, timestamp: ts, extra: { costUSD: cost } }),
    ]);
    const mtime = new Date(Date.now() - age * DAY);
    fs.utimesSync(file, mtime, mtime);
  }
  return { cfg, project };
}

async function overview(server: AppServer) {
  await untilIndexed(server, 20_000);
  const page = await browser.page();
  await page.goto(`${server.url}/?view=overview&range=all`);
  await page.locator('cost-overview-view cost-stat-card').first().waitFor();
  return page;
}

Views('the note before a sweep with the offer to keep; none with a longer period; a deleted session keeps its title and prompt', async () => {
  const tmp = tempDir('cost-retention-ui-');
  const { cfg, project } = configDir(tmp.dir);
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ dir: cfg });
    const page = await overview(server);
    const note = page.locator('cost-retention-note .note');
    await note.waitFor();
    assert.is((await note.locator('.due').textContent())?.replace(/\s+/g, ' ').trim(),
      '2 sessions ($4.25) will be deleted by Claude Code at its next start: their costs stay here.');
    assert.is((await note.locator('.soon').textContent())?.replace(/\s+/g, ' ').trim(), 'Then 1 session ($2.50) within 7 days.');
    assert.match((await note.locator('.detail').textContent()) ?? '', /older than 30 days.*no backup yet/s);
    assert.match((await note.locator('.offer').textContent()) ?? '', /--keep-transcripts/);
    await browser.screenshot(page, 'retention-note');

    // A longer period: nothing due, no note.
    fs.writeFileSync(path.join(cfg, 'settings.json'), JSON.stringify({ cleanupPeriodDays: 120 }));
    await page.reload();
    await page.locator('cost-overview-view cost-stat-card').first().waitFor();
    await waitFor(async () => (await getJson<Retention>(server!, '/api/retention')).dirs[0]!.cleanupPeriodDays === 120, 'the new period');
    await page.waitForTimeout(500);
    assert.is(await page.locator('cost-retention-note .note').count(), 0);

    // Claude Code's sweep: the session's view still has its title and first prompt, and its cost.
    await waitFor(async () => (await fetch(`${server!.url}/api/sessions/fresh`)).ok, 'indexed');
    fs.rmSync(path.join(project, 'old-a.jsonl'));
    await waitFor(async () => (await getJson<Retention>(server!, '/api/retention')).dirs[0]!.onlyInIndex.sessions === 1, 'the deletion seen', 40_000);
    await page.goto(`${server.url}/?view=detail&project=-home-dev-alpha&session=old-a&range=all`);
    const h2 = page.locator('cost-session-view h2');
    await h2.waitFor();
    assert.is((await h2.textContent())?.trim(), 'Fix the old-a parser');
    await page.locator('cost-session-view').getByText('$1.25').first().waitFor({ timeout: 5000 });
    assert.equal(browser.problems, []);
  } finally {
    await closePages();
    await server?.close();
    tmp.cleanup();
  }
});

/** The pages of a server about to stop: their live feed would otherwise retry it and fail, in every later test. */
async function closePages(): Promise<void> {
  for (const p of browser.context.pages()) await p.close();
}

Views('with keeping on, the note says where the transcripts are kept instead of offering it', async () => {
  const tmp = tempDir('cost-retention-ui-kept-');
  const { cfg } = configDir(tmp.dir);
  const kept = path.join(tmp.dir, 'kept');
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ dir: cfg, args: ['--keep-transcripts', kept] });
    const page = await overview(server);
    const note = page.locator('cost-retention-note .note');
    await note.waitFor();
    assert.is((await note.locator('.kept').textContent())?.trim(), `Transcripts are kept in ${kept}.`);
    assert.is(await note.locator('.offer').count(), 0);
    assert.equal(browser.problems, []);
  } finally {
    await closePages();
    await server?.close();
    tmp.cleanup();
  }
});

Views('the offer turns keeping on: the transcripts are kept beside the index, and still at the next start', async () => {
  const tmp = tempDir('cost-retention-ui-offer-');
  const { cfg, project } = configDir(tmp.dir);
  const index = path.join(tmp.dir, 'index.db');
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ dir: cfg, indexFile: index });
    const page = await overview(server);
    const note = page.locator('cost-retention-note .note');
    await note.locator('button.keep').click();
    const kept = `${index}.transcripts`;
    await note.locator('.kept').waitFor();
    assert.is((await note.locator('.kept').textContent())?.trim(), `Transcripts are kept in ${kept}.`);
    assert.is(await note.locator('.offer').count(), 0);
    const r = await waitFor(async () => {
      const x = await getJson<Retention>(server!, '/api/retention');
      return x.kept?.files === 4 ? x : null;
    }, 'every transcript kept');
    assert.is(r.kept!.dir, kept);
    await browser.screenshot(page, 'retention-kept');
    assert.equal(browser.problems, []);
    await closePages();
    await server.close();

    // The next start keeps them too: a new transcript lands in the kept folder.
    server = await startAppServer({ dir: cfg, indexFile: index });
    await untilIndexed(server, 20_000);
    writeJsonl(path.join(project, 'later.jsonl'), [usageLine({ sessionId: 'later', messageId: 'm-later', requestId: 'r-later', timestamp: new Date().toISOString() })]);
    await waitFor(async () => (await getJson<Retention>(server!, '/api/retention')).kept?.files === 5, 'the new transcript kept after a restart', 15_000);
  } finally {
    await closePages();
    await server?.close();
    tmp.cleanup();
  }
});

Views.run();
