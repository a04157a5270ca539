// Synced folders as sync tools leave them, read by the real server (dist/main.js) over two config dirs: a
// session synced into both, a conflict copy of each kind, a temporary file, an iCloud placeholder and
// Syncthing's .stversions copy add nothing: every figure equals that of a server over the clean folders.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview, ProjectRow, ProjectSessions } from '../../src/shared/api-types.ts';
import { isTranscript, roleOf, withoutConflictMarker } from '../../src/ingest/discovery.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { ROOT } from '../helpers/paths.ts';
import { appendJsonl, tempDir, usageLine, writeJsonl, type Line } from '../helpers/jsonl.ts';
import { waitFor } from '../helpers/wait.ts';

const P = '-home-dev-proj';
const at = (m: number) => new Date(Date.UTC(2026, 10, 20, 10, m)).toISOString();
// Both ids (global dedup) and message.id alone (deduped within its session, so a copy must keep its session).
const here: Line[] = [
  usageLine({ sessionId: 's1', messageId: 'm1', requestId: 'r1', timestamp: at(0), output: 400, input: 3000 }),
  usageLine({ sessionId: 's1', messageId: 'm2', timestamp: at(1), output: 900, input: 5000, extra: { requestId: undefined } }),
];
const laptop: Line[] = [usageLine({ sessionId: 's2', messageId: 'm3', requestId: 'r3', timestamp: at(5), output: 700, model: 'claude-opus-4-5-20251101' })];

function clean(root: string): string[] {
  writeJsonl(path.join(root, 'b-here/projects', P, 's1.jsonl'), here);
  writeJsonl(path.join(root, 'a-laptop/projects', P, 's2.jsonl'), laptop);
  return [path.join(root, 'b-here'), path.join(root, 'a-laptop')];
}

/** The same folders plus what sync tools leave; the laptop's folder sorts first, so its copies would win dedup ties. */
function messy(root: string): string[] {
  const dirs = clean(root);
  const synced = path.join(root, 'a-laptop/projects', P);
  writeJsonl(path.join(synced, 's1.jsonl'), here); // the session synced into both folders
  writeJsonl(path.join(synced, "s1 (dev's conflicted copy 2026-11-20).jsonl"), here);
  writeJsonl(path.join(synced, 's2.sync-conflict-20261120-101010-ABCDEFG.jsonl'), laptop);
  writeJsonl(path.join(synced, '.syncthing.s2.jsonl.tmp'), laptop);
  writeJsonl(path.join(synced, '.s3.jsonl.icloud'), laptop);
  writeJsonl(path.join(synced, '.s2.jsonl'), laptop); // a hidden partial download
  writeJsonl(path.join(root, 'a-laptop/projects/.stversions', P, 's1~20261120-101010.jsonl'), here);
  return dirs;
}

async function figures(s: AppServer) {
  const overview = await getJson<Overview>(s, '/api/overview?range=3650');
  const projects = await getJson<ProjectRow[]>(s, '/api/projects');
  const sessions = await getJson<ProjectSessions>(s, `/api/projects/${P}/sessions`);
  return {
    cost: overview.totals.cost, messages: overview.totals.messages, sessions: overview.totals.sessions, tokens: overview.totals.totalTokens,
    projects: projects.map((p) => [p.id, p.cost, p.messages]),
    sessionRows: sessions.sessions.map((x) => [x.id, x.cost, x.messages]).sort(),
  };
}

const t = suite('synced folders');
t('names: conflict markers come off, hidden files are never transcripts', () => {
  assert.is(withoutConflictMarker("s1 (dev's conflicted copy 2026-11-20)"), 's1');
  assert.is(withoutConflictMarker('s1.sync-conflict-20261120-101010-ABCDEFG'), 's1');
  assert.is(withoutConflictMarker('s1 (notes)'), 's1 (notes)');
  assert.is(roleOf('/c/projects', '/c/projects/p/agent-a1 (conflicted copy 2026-11-20).jsonl')?.agentId, 'a1');
  assert.is(roleOf('/c/projects', '/c/projects/p/s1.sync-conflict-20261120-101010-ABCDEFG.jsonl')?.session, 's1');
  assert.not.ok(isTranscript('/c/projects/p/.s1.jsonl'));
  assert.ok(isTranscript('/home/u/.claude/projects/p/s1.jsonl'), 'a hidden config dir is fine');
});

t('a server over the synced folders counts every response once, not a cent more, also for copies that arrive live', async () => {
  const a = tempDir('synced-clean-');
  const b = tempDir('synced-messy-');
  const servers: AppServer[] = [];
  try {
    const cleanServer = await startAppServer({ dir: clean(a.dir).join(',') });
    servers.push(cleanServer);
    const messyDirs = messy(b.dir);
    const messyServer = await startAppServer({ dir: messyDirs.join(',') });
    servers.push(messyServer);
    await untilIndexed(cleanServer, 30_000);
    await untilIndexed(messyServer, 30_000);
    const want = await figures(cleanServer);
    assert.is(want.messages, 3);
    assert.is(want.sessions, 2);
    assert.equal(await figures(messyServer), want);

    // Live: new copies of each kind appear, then a real new response; once it shows, nothing else has moved.
    const synced = path.join(messyDirs[1]!, 'projects', P);
    writeJsonl(path.join(synced, "s2 (dev's conflicted copy 2026-11-21).jsonl"), laptop);
    writeJsonl(path.join(synced, '.syncthing.s1.jsonl.tmp'), here);
    writeJsonl(path.join(messyDirs[1]!, 'projects/.stversions', P, 's2~20261121-101010.jsonl'), laptop);
    const next = usageLine({ sessionId: 's2', messageId: 'm4', requestId: 'r4', timestamp: at(9), output: 50 });
    appendJsonl(path.join(synced, 's2.jsonl'), [next]);
    appendJsonl(path.join(a.dir, 'a-laptop/projects', P, 's2.jsonl'), [next]);
    for (const s of servers) {
      await waitFor(async () => {
        await fetch(`${s.url}/api/refresh`, { method: 'POST' });
        return (await getJson<Overview>(s, '/api/overview?range=3650')).totals.messages === 4;
      }, 'the appended response', 15_000);
    }
    await new Promise((r) => setTimeout(r, 400));
    for (const s of servers) await fetch(`${s.url}/api/refresh`, { method: 'POST' });
    assert.equal(await figures(messyServer), await figures(cleanServer));
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    a.cleanup();
    b.cleanup();
  }
});
t('a folder missing at start that the index has read: a warning, its history served, read again when it appears', async () => {
  const { dir, cleanup } = tempDir('synced-missing-');
  const index = path.join(dir, 'index.db');
  const dirs = clean(dir);
  const laptopDir = dirs[1]!;
  const servers: AppServer[] = [];
  try {
    const first = await startAppServer({ dir: dirs.join(','), args: ['--index', index] });
    servers.push(first);
    await untilIndexed(first, 30_000);
    const want = await figures(first);
    await first.close();

    fs.renameSync(laptopDir, `${laptopDir}.unmounted`);
    const again = await startAppServer({ dir: dirs.join(','), args: ['--index', index] });
    servers.push(again);
    await untilIndexed(again, 30_000);
    assert.match(again.output(), `config dir not found: ${laptopDir}; serving its history from the index and reading it when it appears`);
    assert.equal(await figures(again), want);

    // The folder comes back (mounted, synced) with one more response in it.
    appendJsonl(path.join(`${laptopDir}.unmounted`, 'projects', P, 's2.jsonl'), [usageLine({ sessionId: 's2', messageId: 'm5', requestId: 'r5', timestamp: at(20), output: 60 })]);
    fs.renameSync(`${laptopDir}.unmounted`, laptopDir);
    await waitFor(async () => {
      await fetch(`${again.url}/api/refresh`, { method: 'POST' });
      return (await getJson<Overview>(again, '/api/overview?range=3650')).totals.messages === want.messages + 1;
    }, 'the folder to be read again', 15_000);
    await again.close();

    // A missing folder the index never read is a typo: one line, exit 2.
    const typo = path.join(dir, 'no-such-dir');
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/main.js'), '--dir', `${dirs[0]},${typo}`, '--index', index, '--port', '0', '--offline'], { encoding: 'utf8', timeout: 20_000 });
    assert.is(r.status, 2);
    assert.is(r.stderr.trim(), `cost-dashboard: Config dir not found: ${typo}`);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    cleanup();
  }
});

t.run();
