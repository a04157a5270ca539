// One writer per index file: a server and command-line runs started together on one index while the
// transcripts grow (new responses, and copies of them replayed into a resumed session's file). Whichever
// process writes, every response is counted once, and the reports equal the server's figures. A command that writes
// after the server takes the dedup keys the last writer saved beside the index.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { getJson, startAppServer, type AppServer } from '../helpers/app-server.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { cli, type CliResult } from '../helpers/cli.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { sqlValue } from '../helpers/sqlite.ts';
import { keyDumpFile, readKeyDump } from '../../src/index-db/key-dump.ts';

const { dir } = tempDir('cli-one-writer-');

const line = (session: string, i: number, ts: number) => ({
  type: 'assistant', timestamp: new Date(ts).toISOString(), sessionId: session, requestId: `req-${i}`, cwd: '/home/u/proj',
  message: { id: `msg-${i}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: 100 + i } },
});


const Writer = suite('a server and the command line on one index');

Writer('started together while transcripts grow: each response counted once, whoever writes', async () => {
  const root = path.join(dir, 'cfg');
  const main = path.join(root, 'projects', '-home-u-proj', 's-main.jsonl');
  // A resumed session replays its parent's responses (same message id and request id): global dedup.
  const resumed = path.join(root, 'projects', '-home-u-proj', 's-resumed.jsonl');
  const t0 = Date.now() - 3 * 3_600_000;
  let next = 0;
  const add = (count: number): void => {
    const lines = Array.from({ length: count }, () => next++).map((i) => line('s-main', i, t0 + i * 1000));
    fs.mkdirSync(path.dirname(main), { recursive: true });
    fs.appendFileSync(main, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    fs.appendFileSync(resumed, lines.filter((_, k) => k % 2 === 0).map((l) => `${JSON.stringify({ ...l, sessionId: 's-resumed' })}\n`).join(''));
  };
  writeJsonl(main, []);
  writeJsonl(resumed, []);
  add(200);
  const index = path.join(dir, 'shared.db');
  const flags = ['--dir', root, '--index', index, '--prices', PRICES_FILE];

  // Both at once: whichever gets the lock writes, the other reads.
  const runs: Promise<CliResult>[] = [cli(['daily', '--json', ...flags])];
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ dir: root, args: ['--index', index] });
    // The transcripts grow while both run; more commands join meanwhile.
    for (let round = 0; round < 12; round++) {
      add(25);
      if (round % 3 === 0) runs.push(cli(['session', '--json', ...flags]), cli(['update', ...flags]));
      await sleep(100);
    }
    for (const r of await Promise.all(runs)) assert.is(r.code, 0, r.stderr);
    const total = next;
    const want = { messages: total, outputTokens: Array.from({ length: total }, (_, i) => 100 + i).reduce((a, b) => a + b, 0) };
    const s = server;
    const totals = async () => {
      await fetch(`${s.url}/api/refresh`, { method: 'POST' });
      return (await getJson<{ totals: { messages: number; outputTokens: number; cost: number } }>(s, '/api/overview?range=2')).totals;
    };
    await waitFor(async () => (await totals()).messages === total, 'the server to see every response', 20_000);
    const served = await totals();
    assert.is(served.outputTokens, want.outputTokens);
    // A command run now reads what the server writes (as of its last commit, within a second), and agrees with it.
    const daily = await waitFor(async () => {
      const d = JSON.parse((await cli(['daily', '--json', '--since', new Date(t0).toISOString().slice(0, 10), ...flags])).stdout) as {
        totals: { outputTokens: number; totalCost: number };
      };
      return d.totals.outputTokens === want.outputTokens ? d : null;
    }, 'the server\'s commit, through a command', 10_000);
    assert.ok(Math.abs(daily.totals.totalCost - served.cost) < 1e-9, `${daily.totals.totalCost} vs ${served.cost}`);

    // The server stops; the command line writes from now on and still counts each response once.
    await server.close();
    server = null;
    // The last writer's close left its dedup keys beside the index, true to it (the meta row holds their token).
    const token = readKeyDump(keyDumpFile(index))?.stamp.token;
    assert.ok(token && sqlValue(index, "SELECT value FROM meta WHERE key = 'key_dump'") === token, 'a true key dump');
    add(30);
    const after = JSON.parse((await cli(['session', '--json', ...flags])).stdout) as { sessions: { sessionId: string }[]; totals: { outputTokens: number } };
    // The command took those keys and read only the responses stored since: reading them all would have saved anew.
    assert.is(readKeyDump(keyDumpFile(index))?.stamp.token, token, 'the command wrote from the saved keys');
    const total2 = next;
    assert.is(after.totals.outputTokens, Array.from({ length: total2 }, (_, i) => 100 + i).reduce((a, b) => a + b, 0));
    assert.equal(after.sessions.map((x) => x.sessionId), ['s-main'], 'the replayed copies count toward the first session only');
    assert.is(sqlValue(index, 'SELECT count(*) FROM messages'), total2, 'each response once in the file');
    assert.is(sqlValue(index, 'SELECT sum(messages) FROM usage_hourly'), total2, 'and once in the rollups');
  } finally {
    await server?.close();
  }
});

Writer.run();
