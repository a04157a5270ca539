// Live answers against a real server on loopback: a write to the index makes every cached answer stale at once (no
// 30 s wait, no POST /api/refresh), each answer names the generation it was computed at, and GET /api/events pushes
// the new generation to an open stream within the guards.
import http from 'node:http';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LiveChange, Overview } from '../../src/shared/api-types.ts';
import { ResultCache } from '../../src/http/cache.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';
import { appendJsonl, usageLine, writeJsonl } from '../helpers/jsonl.ts';

const test = suite('live answers');
let server: TestServer;
let file: string;
let line = 0;

/** One more priced usage line in the one transcript, folded into the index as the pipeline would. */
function addUsage(): void {
  const l = usageLine({ sessionId: 's1', timestamp: new Date(Date.now() - 60_000).toISOString(), messageId: `msg_live_${++line}`, requestId: `req_live_${line}`, output: 1000 });
  if (line === 1) writeJsonl(file, [l]);
  else appendJsonl(file, [l]);
  ingestFile(server.index, file, sessionRole('-home-dev-live', 's1'));
}

test.before(async () => {
  server = await startServer();
  file = path.join(server.dir, 'config', 'projects', '-home-dev-live', 's1.jsonl');
  addUsage();
});
test.after(async () => {
  await server?.close();
});

test('a write makes the cached answer stale at once, and the answer names its generation', async () => {
  const first = await server.request('/api/overview?range=all');
  const again = await server.request('/api/overview?range=all');
  assert.is(again.headers.etag, first.headers.etag, 'unchanged index: the cached answer');
  const g1 = Number(first.headers['x-index-generation']);
  assert.ok(Number.isInteger(g1), `generation header: ${String(first.headers['x-index-generation'])}`);
  addUsage();
  const after = await server.request('/api/overview?range=all');
  const g2 = Number(after.headers['x-index-generation']);
  assert.ok(g2 > g1, `generation ${g1} -> ${g2}`);
  assert.ok(after.json<Overview>().totals.cost > first.json<Overview>().totals.cost, 'the new line is counted without a refresh');
});

test('the cache drops older generations, and names the generation read next to the query', async () => {
  let gen = 1;
  let calls = 0;
  const cache = new ResultCache({ generation: () => gen });
  assert.is((await cache.get('k', () => ++calls)).generation, 1);
  assert.is((await cache.get('k', () => ++calls)).body.toString(), '1');
  gen = 2;
  const moved = await cache.get('k', () => ++calls);
  assert.is(moved.body.toString(), '2');
  assert.is(moved.generation, 2);
  assert.is(cache.size, 1);
});

/** Opens GET /api/events and collects its `change` events. */
function listen(port: number, host = `localhost:${port}`): Promise<{ status: number; events: LiveChange[]; next(): Promise<LiveChange>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { host, accept: 'text/event-stream' }, agent: false }, (res) => {
      const events: LiveChange[] = [];
      const waiting: ((c: LiveChange) => void)[] = [];
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let end: number;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const data = /^event: change\ndata: (.*)$/m.exec(block);
          if (!data) continue;
          const change = JSON.parse(data[1]!) as LiveChange;
          events.push(change);
          waiting.shift()?.(change);
        }
      });
      res.on('error', () => {});
      resolve({
        status: res.statusCode ?? 0,
        events,
        next: () => new Promise((r) => waiting.push(r)),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

test('GET /api/events tells an open stream of a write within a second', async () => {
  const stream = await listen(server.port);
  try {
    assert.is(stream.status, 200);
    const initial = stream.events[0] ?? (await stream.next());
    assert.is(initial.done, true);
    const before = Number((await server.request('/api/overview?range=today')).headers['x-index-generation']);
    assert.is(initial.generation, before, 'the stream starts at the generation the answers carry');
    const told = stream.next();
    const wrote = performance.now();
    addUsage();
    const change = await Promise.race([told, new Promise<null>((r) => setTimeout(() => r(null), 2000))]);
    assert.ok(change, 'no change event within 2 s');
    assert.ok(change.generation > initial.generation);
    assert.ok(performance.now() - wrote < 2000);
    const answer = await server.request('/api/overview?range=today');
    assert.is(Number(answer.headers['x-index-generation']), change.generation, 'the answers after the event carry its generation');
  } finally {
    stream.close();
  }
});

test('GET /api/events is behind the guards: a foreign Host is refused', async () => {
  const r = await server.request('/api/events', { headers: { host: 'evil.example:80' } });
  assert.is(r.status, 403);
});

test.run();
