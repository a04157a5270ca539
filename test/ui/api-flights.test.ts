// The dashboard's request sharing (ui/src/api.ts) in Node against a real HTTP server: identical GETs in flight share
// one fetch, which is aborted once every caller waiting on it has aborted; a caller that comes after that abort gets
// a fetch of its own. (It joined the aborted one and failed with an AbortError: a view whose load a refresh aborted
// asked again for the same URL at once, and stayed empty until the next refresh 30 s later.) A quiet call (the page's
// progress check) fails without a toast, unless a caller that is not quiet shares its fetch.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { api, isAbort } from '../../ui/src/api.ts';

let server: http.Server;
let served = 0;
let base = '';
const realFetch = globalThis.fetch;

const test = suite('shared GET flights');
test.before(async () => {
  server = http.createServer((req, res) => {
    served++;
    const n = served;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ n, url: req.url }));
    }, 150);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The page's fetch resolves '/api/…' against its own origin; Node's needs the base.
  globalThis.fetch = (input, init) => realFetch(new URL(String(input), base), init);
});
test.after(() => {
  globalThis.fetch = realFetch;
  server.close();
});

test('callers of one URL share one fetch', async () => {
  api.invalidate();
  const before = served;
  const [a, b] = await Promise.all([api.get<{ n: number }>('/api/shared'), api.get<{ n: number }>('/api/shared')]);
  assert.is(a.n, b.n);
  assert.is(served - before, 1);
});

test('a call after every waiter aborted gets its own fetch, not the aborted one', async () => {
  api.invalidate();
  const aborted = new AbortController();
  const first = api.get('/api/again', {}, aborted.signal);
  aborted.abort();
  const err = await first.then(() => null, (e: unknown) => e);
  assert.ok(isAbort(err), 'the aborted caller gets an AbortError');
  // At once, as a view does when a refresh aborted its load: the aborted fetch has not settled yet.
  const next = await api.get<{ url: string }>('/api/again');
  assert.is(next.url, '/api/again');
});

test('one waiter aborting leaves the fetch to the others', async () => {
  api.invalidate();
  const before = served;
  const leaving = new AbortController();
  const gone = api.get('/api/kept', {}, leaving.signal);
  const staying = api.get<{ n: number }>('/api/kept');
  leaving.abort();
  assert.ok(isAbort(await gone.then(() => null, (e: unknown) => e)));
  assert.ok((await staying).n > before);
  assert.is(served - before, 1);
});

test('a quiet call fails without telling the error listeners, unless a caller that is not quiet shares it', async () => {
  api.invalidate();
  const heard: string[] = [];
  const stop = api.onError((_err, url) => heard.push(url));
  try {
    // A port nothing listens on: every fetch fails.
    const down = `/api/down-${Date.now()}`;
    globalThis.fetch = (input, init) => realFetch(new URL(String(input), 'http://127.0.0.1:9'), init);
    await api.get(down, {}, undefined, { quiet: true }).then(() => assert.unreachable(), () => {});
    assert.equal(heard, [], 'a quiet failure is not announced');
    const both = [api.get(`${down}-shared`, {}, undefined, { quiet: true }), api.get(`${down}-shared`)];
    await Promise.allSettled(both);
    assert.equal(heard, [`${down}-shared`], 'a loud caller on the same fetch hears of it');
  } finally {
    stop();
    globalThis.fetch = (input, init) => realFetch(new URL(String(input), base), init);
  }
});

test.run();
