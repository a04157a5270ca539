// Machine labels (decisions.md "Several machines") through the real server (dist/main.js): a server over a laptop's
// synced folder (`laptop=<dir>`) and this machine's own (`--machine ws`) answers the sum of two servers over each
// folder alone, and machine=<label> answers exactly what that machine's server alone answers, on every data route
// and in /metrics; a folder both machines hold is one project row. Conflict copies, a temporary file and a
// placeholder add nothing, to the total or to a machine. A command-line writer labels entries the same way.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Insights, Overview, ProjectRow, ProjectSessions, Receipt } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, usageLine, writeJsonl, type Line } from '../helpers/jsonl.ts';
import { near } from '../helpers/near.ts';

const APP = '-home-dev-app';
const LIB = '-home-dev-lib';
const at = (d: number, m: number) => new Date(Date.UTC(2026, 10, d, 10, m)).toISOString();
const line = (session: string, id: string, d: number, m: number, output: number, model?: string, cwd = '/home/dev/app') =>
  usageLine({ sessionId: session, messageId: id, requestId: `r-${id}`, timestamp: at(d, m), output, input: 1000 + output, cacheRead: 20 * output, model, cwd, tools: ['Read'] });

const ws: Record<string, Line[]> = {
  [`${APP}/s1.jsonl`]: [line('s1', 'w1', 18, 0, 400), line('s1', 'w2', 18, 7, 900), line('s1', 'w3', 19, 3, 150)],
};
const laptop: Record<string, Line[]> = {
  [`${APP}/s2.jsonl`]: [line('s2', 'l1', 18, 2, 700, 'claude-opus-4-5-20251101'), line('s2', 'l2', 20, 5, 60)],
  [`${LIB}/s3.jsonl`]: [line('s3', 'l3', 19, 1, 300, undefined, '/home/dev/lib')],
};

function write(root: string, files: Record<string, Line[]>): string {
  for (const [rel, lines] of Object.entries(files)) writeJsonl(path.join(root, 'projects', rel), lines);
  return root;
}

/** What sync tools leave beside each machine's own files: conflict copies, a temporary file, a placeholder. */
function litter(wsDir: string, laptopDir: string): void {
  writeJsonl(path.join(wsDir, 'projects', APP, "s1 (dev's conflicted copy 2026-11-20).jsonl"), ws[`${APP}/s1.jsonl`]!);
  writeJsonl(path.join(laptopDir, 'projects', APP, 's2.sync-conflict-20261120-101010-ABCDEFG.jsonl'), laptop[`${APP}/s2.jsonl`]!);
  writeJsonl(path.join(laptopDir, 'projects', LIB, '.syncthing.s3.jsonl.tmp'), laptop[`${LIB}/s3.jsonl`]!);
  writeJsonl(path.join(laptopDir, 'projects', APP, '.s4.jsonl.icloud'), [line('s4', 'x1', 19, 9, 5000)]);
}

const RANGE = 'range=3650';
/** Every field of each route that a machine's figures decide (not the dirs, health or indexing state of the whole server). */
async function routes(s: AppServer, q: string) {
  const { dirs: _d, health: _h, machines: _m, indexing: _i, ...overview } = await getJson<Overview>(s, `/api/overview?${RANGE}${q}`);
  const { indexing: _j, ...insights } = await getJson<Insights>(s, `/api/insights?${RANGE}${q}`);
  return {
    overview,
    insights,
    projects: await getJson<ProjectRow[]>(s, `/api/projects?${RANGE}${q}`),
    receipt: await getJson<Receipt>(s, `/api/receipt?${RANGE}${q}`),
  };
}

interface Sample { machine: string; value: number }
async function costSamples(s: AppServer): Promise<Sample[]> {
  const text = await (await fetch(`${s.url}/metrics`)).text();
  return [...text.matchAll(/^cost_dashboard_cost_usd_total\{([^}]*)\} (\S+)$/gm)].map((m) => ({ machine: /machine="([^"]*)"/.exec(m[1]!)![1]!, value: Number(m[2]) }));
}
const sumBy = (samples: Sample[]) => {
  const out: Record<string, number> = {};
  for (const x of samples) out[x.machine] = (out[x.machine] ?? 0) + x.value;
  return out;
};

const t = suite('machine labels');

for (const messy of [false, true]) {
  t(`two labelled folders${messy ? ' with sync litter' : ''}: the sum, and each machine exactly as alone, on every route and /metrics`, async () => {
    const { dir, cleanup } = tempDir('machines-');
    const servers: AppServer[] = [];
    try {
      const wsDir = write(path.join(dir, 'ws'), ws);
      const laptopDir = write(path.join(dir, 'laptop'), laptop);
      const start = async (dirs: string, machine: string) => {
        const s = await startAppServer({ dir: dirs, args: ['--machine', machine] });
        servers.push(s);
        return s;
      };
      const aloneWs = await start(wsDir, 'ws');
      const aloneLaptop = await start(laptopDir, 'laptop');
      if (messy) litter(wsDir, laptopDir);
      const both = await start(`laptop=${laptopDir},${wsDir}`, 'ws');
      for (const s of servers) await untilIndexed(s, 30_000);

      const o = await getJson<Overview>(both, `/api/overview?${RANGE}`);
      const w = await getJson<Overview>(aloneWs, `/api/overview?${RANGE}`);
      const l = await getJson<Overview>(aloneLaptop, `/api/overview?${RANGE}`);
      assert.equal([w.totals.messages, l.totals.messages, o.totals.messages], [3, 3, 6]);
      near(o.totals.cost, w.totals.cost + l.totals.cost);
      near(o.totals.totalTokens, w.totals.totalTokens + l.totals.totalTokens);
      assert.is(o.totals.sessions, 3);
      assert.equal([w.machines, l.machines], [[], []], 'one machine: no breakdown');
      const row = (name: string, x: Overview) => ({ machine: name, ...x.totals, projects: undefined, sessions: x.totals.sessions,
        lastActivity: x.projects.map((p) => p.lastActivity!).sort().at(-1)! });
      // A machine row is the totals of that machine alone, less the overview-only fields (projects, server tool requests).
      const want = [row('laptop', l), row('ws', w)].map(({ projects: _p, webSearchRequests: _s, webFetchRequests: _f, ...r }) => r)
        .sort((a, b) => b.cost - a.cost);
      near(o.machines, want);

      // A folder both machines hold is one project row; its sessions are both machines'.
      const app = o.projects.find((p) => p.id === APP)!;
      near([app.cost, app.messages, app.sessions], [w.projects[0]!.cost + l.projects.find((p) => p.id === APP)!.cost, 5, 2]);
      assert.equal(o.projects.map((p) => p.id).sort(), [APP, LIB]);
      const ps = await getJson<ProjectSessions>(both, `/api/projects/${APP}/sessions`);
      assert.equal(ps.sessions.map((s) => s.id).sort(), ['s1', 's2']);

      // machine= reads as that machine's server alone; this machine's name scopes its unlabelled folder.
      near(await routes(both, '&machine=laptop'), await routes(aloneLaptop, ''));
      near(await routes(both, '&machine=ws'), await routes(aloneWs, ''));
      near(await routes(both, `&machine=ws&project=${APP}`), await routes(aloneWs, `&project=${APP}`));
      // The receipt of a machine explains that machine's cost card, to the cent.
      for (const machine of ['laptop', 'ws']) {
        const { overview, receipt } = await routes(both, `&machine=${machine}`);
        assert.ok(receipt.total > 0 && receipt.mismatch === null, machine);
        assert.is(receipt.total.toFixed(2), overview.totals.cost.toFixed(2), machine);
        near(receipt.total, overview.totals.cost);
      }
      assert.is((await getJson<Overview>(both, `/api/overview?${RANGE}&machine=ws&project=${LIB}`)).totals.messages, 0);
      for (const q of ['machine=nope', 'machine=-bad', 'machine=a%20b']) {
        for (const route of ['/api/overview', '/api/insights', '/api/projects', '/api/receipt']) {
          const r = await fetch(`${both.url}${route}?${q}`);
          assert.is(r.status, 400, `${route}?${q}`);
          assert.equal(await r.json(), { error: 'Invalid machine' });
        }
      }
      assert.is((await fetch(`${aloneWs.url}/api/overview?machine=ws`)).status, 200, 'this machine is known with no label too');

      // /metrics: each entry's own machine; sum by (machine) is each machine's all-time total.
      const samples = await costSamples(both);
      const by = sumBy(samples);
      assert.equal(Object.keys(by).sort(), ['laptop', 'ws']);
      near([by.laptop, by.ws], [l.totals.cost, w.totals.cost]);
      near(sumBy(await costSamples(aloneLaptop)), { laptop: l.totals.cost });
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      cleanup();
    }
  });
}

t('a command-line writer labels entries by machine as the server does', async () => {
  const { dir, cleanup } = tempDir('machines-cli-');
  const servers: AppServer[] = [];
  try {
    const wsDir = write(path.join(dir, 'ws'), ws);
    const laptopDir = write(path.join(dir, 'laptop'), laptop);
    const index = path.join(dir, 'index.db');
    const dirs = `laptop=${laptopDir},${wsDir}`;
    // The command writes the whole index first; the server only reads what it wrote (no file changed since).
    const update = await cli(['update', '--dir', dirs, '--machine', 'ws', '--index', index, '--offline', '--prices', PRICES_FILE]);
    assert.is(update.code, 0, update.stderr);
    const both = await startAppServer({ dir: dirs, args: ['--machine', 'ws', '--index', index] });
    servers.push(both);
    const aloneLaptop = await startAppServer({ dir: laptopDir, args: ['--machine', 'laptop'] });
    servers.push(aloneLaptop);
    await untilIndexed(both, 20_000);
    await untilIndexed(aloneLaptop, 20_000);
    assert.match(both.output(), /indexed/);
    near(await routes(both, '&machine=laptop'), await routes(aloneLaptop, ''));
  } finally {
    for (const s of servers) await s.close();
    cleanup();
  }
});

t.run();
