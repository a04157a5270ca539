// Odd files where a subagent's .meta.json should be, through the real built server (a child process): a FIFO
// with no writer and a symlink to /dev/zero must neither block the main thread nor fill memory; the server keeps
// answering HTTP and SIGTERM still ends it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SessionDetail } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';

const Meta = suite('subagent meta files');

/** Fails instead of waiting forever on a server whose main thread is blocked. */
function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms: ${what}`)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Peak resident memory of a process, in MiB. */
function peakRssMiB(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

Meta('a FIFO and a link to /dev/zero are not read; a real meta file is; HTTP answers and SIGTERM ends the server', async () => {
  const tmp = tempDir('cost-meta-');
  const session = path.join(tmp.dir, 'projects', '-home-dev-alpha', 's1');
  const ts = new Date(Date.now() - 60_000).toISOString();
  writeJsonl(`${session}.jsonl`, [usageLine({ sessionId: 's1', messageId: 'm0', requestId: 'r0', timestamp: ts })]);
  const sub = path.join(session, 'subagents');
  for (const id of ['fifo', 'zero', 'real']) {
    writeJsonl(path.join(sub, `agent-${id}.jsonl`), [usageLine({ sessionId: 's1', messageId: `m-${id}`, requestId: `r-${id}`, timestamp: ts })]);
  }
  execFileSync('mkfifo', [path.join(sub, 'agent-fifo.meta.json')]);
  fs.symlinkSync('/dev/zero', path.join(sub, 'agent-zero.meta.json'));
  fs.writeFileSync(path.join(sub, 'agent-real.meta.json'), JSON.stringify({ agentType: 'Explore', description: 'find things' }));
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ dir: tmp.dir });
    await within(15_000, 'the first index', untilIndexed(server, 15_000));
    const s = await within(5000, 'the session', getJson<SessionDetail>(server, '/api/sessions/s1'));
    assert.is(s.messageCount, 4, 'the subagents of odd meta files are counted');
    const types = Object.fromEntries(s.subagents.map((a) => [a.agentId, [a.agentType, a.description]]));
    assert.equal(types, { fifo: [null, null], zero: [null, null], real: ['Explore', 'find things'] });
    const rss = peakRssMiB(server.child.pid!);
    assert.ok(rss < 400, `peak RSS ${rss.toFixed(0)} MiB`);

    const child = server.child;
    const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(`${code ?? signal}`)));
    child.kill('SIGTERM');
    const how = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 5000))]);
    assert.is(how, '0', `SIGTERM ends the server by itself\n${server.output()}`);
  } finally {
    await server?.close();
    tmp.cleanup();
  }
});

Meta.run();
