// Exports carry the machine (issue 19, docs/machines-and-metrics.md), over two generated histories: a laptop's synced
// folder (`laptop=<dir>`) and this machine's own (`--machine ws`), one project folder held by both. /api/projects rows
// list their machines with each one's share of the cost (the shares are what `machine=` answers), a session's detail
// says its machine, and so do the command line's `session --json` rows. An unlabelled single dir answers as before
// plus the new field, which names this machine (--machine).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview, ProjectRow, RepositoryDetail, SessionDetail } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { PRICES_FILE, SHARED } from '../helpers/paths.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { near } from '../helpers/near.ts';

const { dir, cleanup } = tempDir('machine-exports-');
const laptopDir = path.join(dir, 'laptop');
const wsDir = path.join(dir, 'ws');
for (const [out, seed] of [[laptopDir, 21], [wsDir, 22]] as const) {
  const r = spawnSync(process.execPath, [path.join(SHARED, 'tools/gen-corpus.mjs'), '--out', out, '--mb', '2', '--days', '20', '--projects', '3', '--seed', String(seed)], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`gen-corpus failed: ${r.stderr}`);
}
const folders = (root: string) => fs.readdirSync(path.join(root, 'projects')).sort();
// One folder both machines hold: the workstation's first folder renamed to the laptop's first (other sessions in it).
const SHARED_FOLDER = folders(laptopDir)[0]!;
fs.renameSync(path.join(wsDir, 'projects', folders(wsDir)[0]!), path.join(wsDir, 'projects', SHARED_FOLDER));
/** Session id -> the machine whose folder holds its transcript (gen-corpus names a session's file by its id). */
const sessionMachine = new Map<string, string>();
for (const [root, machine] of [[laptopDir, 'laptop'], [wsDir, 'ws']] as const) {
  for (const f of folders(root)) {
    for (const name of fs.readdirSync(path.join(root, 'projects', f))) if (name.endsWith('.jsonl')) sessionMachine.set(name.slice(0, -6), machine);
  }
}
const DIRS = `laptop=${laptopDir},${wsDir}`;
const RANGE = 'range=all';

let both: AppServer;
let solo: AppServer;
const t = suite('machines in exports');

t.before(async () => {
  both = await startAppServer({ dir: DIRS, args: ['--machine', 'ws'] });
  solo = await startAppServer({ dir: laptopDir, args: ['--machine', 'solo'] });
  await untilIndexed(both, 60_000);
  await untilIndexed(solo, 60_000);
});
t.after(async () => {
  await both?.close();
  await solo?.close();
  cleanup();
});

t('project rows list their machines, each with the cost that machine= answers', async () => {
  const rows = await getJson<ProjectRow[]>(both, `/api/projects?${RANGE}`);
  assert.equal(rows.map((r) => r.id).sort(), [...new Set([...folders(laptopDir), ...folders(wsDir)])].sort());
  const perMachine = {
    laptop: await getJson<ProjectRow[]>(both, `/api/projects?${RANGE}&machine=laptop`),
    ws: await getJson<ProjectRow[]>(both, `/api/projects?${RANGE}&machine=ws`),
  };
  for (const row of rows) {
    const want = (['laptop', 'ws'] as const)
      .map((machine) => ({ machine, cost: perMachine[machine].find((r) => r.id === row.id)?.cost ?? 0 }))
      .filter((m) => m.cost > 0)
      .sort((a, b) => b.cost - a.cost);
    near(row.machines, want, row.id);
    near(row.machines.reduce((a, m) => a + m.cost, 0), row.cost);
  }
  const shared = rows.find((r) => r.id === SHARED_FOLDER)!;
  assert.equal(shared.machines.map((m) => m.machine).sort(), ['laptop', 'ws'], 'the folder both machines hold');
  for (const f of folders(laptopDir).filter((f) => f !== SHARED_FOLDER)) assert.equal(rows.find((r) => r.id === f)!.machines.map((m) => m.machine), ['laptop']);

  // The overview's and a repository's project rows are the same rows.
  const o = await getJson<Overview>(both, `/api/overview?${RANGE}`);
  assert.equal(o.projects, rows);
  const wsOnly = rows.find((r) => r.id === folders(wsDir).find((f) => f !== SHARED_FOLDER))!;
  const repo = await getJson<RepositoryDetail>(both, `/api/repository?id=${encodeURIComponent(wsOnly.repository.id)}&${RANGE}`);
  assert.equal(repo.projects.find((r) => r.id === wsOnly.id)!.machines, [{ machine: 'ws', cost: wsOnly.cost }]);
});

t("a session's detail says its machine", async () => {
  assert.ok(sessionMachine.size >= 4);
  for (const [id, machine] of sessionMachine) {
    const s = await getJson<SessionDetail>(both, `/api/sessions/${id}`);
    assert.is(s.machine, machine, id);
  }
});

t('the command line: session --json rows carry their machine, the table a Machine column', async () => {
  const index = path.join(dir, 'cli.db');
  const common = ['--dir', DIRS, '--machine', 'ws', '--index', index, '--offline', '--prices', PRICES_FILE];
  const r = await cli(['session', '--json', ...common]);
  assert.is(r.code, 0, r.stderr);
  const sessions = (JSON.parse(r.stdout) as { sessions: { sessionId: string; machine: string }[] }).sessions;
  assert.equal(new Map(sessions.map((s) => [s.sessionId, s.machine])), sessionMachine);
  const table = await cli(['session', ...common], { env: { COLUMNS: '200' } });
  assert.is(table.code, 0, table.stderr);
  const [header, , ...body] = table.stdout.split('\n');
  assert.match(header!, /\bMachine\b/);
  assert.ok(body.some((l) => /\blaptop\b/.test(l)) && body.some((l) => /\bws\b/.test(l)), table.stdout);
});

t('one unlabelled dir: the answers as before, plus machines naming this machine', async () => {
  const rows = await getJson<ProjectRow[]>(solo, `/api/projects?${RANGE}`);
  assert.ok(rows.length >= 2);
  for (const row of rows) {
    assert.equal(Object.keys(row), ['id', 'name', 'repository', 'cost', 'sessions', 'messages', 'totalTokens', 'lastActivity', 'topModel', 'machines']);
    assert.equal(row.machines, [{ machine: 'solo', cost: row.cost }]);
  }
  // The same figures as the labelled server's laptop rows, the machine's name aside.
  const strip = (rs: ProjectRow[]) => rs.map(({ machines: _m, ...r }) => r);
  near(strip(rows), strip(await getJson<ProjectRow[]>(both, `/api/projects?${RANGE}&machine=laptop`)));
  assert.equal((await getJson<Overview>(solo, `/api/overview?${RANGE}`)).machines, []);
  const id = [...sessionMachine].find(([, m]) => m === 'laptop')![0];
  assert.is((await getJson<SessionDetail>(solo, `/api/sessions/${id}`)).machine, 'solo');

  const common = ['--dir', laptopDir, '--machine', 'solo', '--index', path.join(dir, 'solo.db'), '--offline', '--prices', PRICES_FILE];
  const json = await cli(['session', '--json', ...common]);
  assert.is(json.code, 0, json.stderr);
  assert.ok((JSON.parse(json.stdout) as { sessions: { machine: string }[] }).sessions.every((s) => s.machine === 'solo'));
  const table = await cli(['session', ...common], { env: { COLUMNS: '200' } });
  assert.not.match(table.stdout, /Machine/, 'one machine: the table as before');
});

t.run();
