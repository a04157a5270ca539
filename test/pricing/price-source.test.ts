// The price loader against a real HTTP server on 127.0.0.1 and real files.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPriceSource, type PriceSourceOptions } from '../../src/pricing/price-source.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { sleep, waitFor } from '../helpers/wait.ts';

const FIXTURE = new URL('../../../shared/fixtures/prices/catalogue.json', import.meta.url);
const catalogueText = fs.readFileSync(FIXTURE, 'utf8');
const catalogue = JSON.parse(catalogueText) as Record<string, Record<string, unknown>>;
/** The fixture with a dearer claude-sonnet-4-5 output price. */
const changedText = JSON.stringify({ ...catalogue, 'claude-sonnet-4-5': { ...catalogue['claude-sonnet-4-5'], output_cost_per_token: 2e-5 } });

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'prices-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

type Reply = { status: number; body: string } | 'hang';

/** A catalogue server whose replies the test sets; counts requests. */
async function serve(reply: Reply) {
  const state = { reply, requests: 0 };
  const server = http.createServer((_req, res) => {
    state.requests++;
    const r = state.reply;
    if (r === 'hang') return; // never answers: the client must time out
    res.writeHead(r.status, { 'content-type': 'application/json' }).end(r.body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/model_prices_and_context_window.json`;
  const close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return { state, url, close };
}

function harness(opts: Partial<PriceSourceOptions>) {
  const logs: string[] = [];
  const changes: PriceTable[] = [];
  const source = createPriceSource({
    offline: false,
    mode: 'auto',
    log: (m) => logs.push(m),
    onChange: (t) => changes.push(t),
    ...opts,
  });
  return { source, logs, changes };
}

const builtinFingerprint = PriceTable.builtin().fingerprint;

// ---------------------------------------------------------------------------------------------
const Load = suite('first load');

Load('fetches the catalogue from an http URL and reports the change from the built-in table', async () => {
  const srv = await serve({ status: 200, body: catalogueText });
  const { source, logs, changes } = harness({ source: srv.url });
  try {
    assert.is(source.current().fingerprint, builtinFingerprint, 'built-in until loaded');
    const t = await source.start();
    assert.is(srv.state.requests, 1);
    assert.is(t.source, srv.url);
    assert.is(t.size, Object.keys(catalogue).length);
    assert.is(source.current(), t);
    assert.equal(changes, [t]);
    assert.ok(logs.some((l) => l.includes(`loaded ${t.size} models from ${srv.url}`)), logs.join('\n'));
  } finally {
    source.close();
    await srv.close();
  }
});

Load('passes the cost mode on', async () => {
  const srv = await serve({ status: 200, body: catalogueText });
  const { source } = harness({ source: srv.url, mode: 'calculate' });
  try {
    const t = await source.start();
    assert.is(t.mode, 'calculate');
    assert.is(source.current().mode, 'calculate');
  } finally {
    source.close();
    await srv.close();
  }
});

for (const [what, reply, why] of [
  ['HTTP 500', { status: 500, body: 'oops' }, 'HTTP 500'],
  ['invalid JSON', { status: 200, body: '{"claude-x": {' }, 'invalid JSON'],
  ['a JSON array', { status: 200, body: '[1,2]' }, 'not a JSON object'],
  ['a request that never answers', 'hang', 'timed out'],
] as const) {
  Load(`falls back to the built-in table on ${what}, with a log line`, async () => {
    const srv = await serve(reply);
    const { source, logs, changes } = harness({ source: srv.url, fetchTimeoutMs: 300 });
    try {
      const t = await source.start();
      assert.is(t.fingerprint, builtinFingerprint);
      assert.match(t.source, /^builtin/);
      assert.equal(changes, [], 'still the built-in table: no change');
      const line = logs.find((l) => l.includes(`could not load ${srv.url}`));
      assert.ok(line && line.includes(why) && line.includes('built-in'), logs.join('\n'));
    } finally {
      source.close();
      await srv.close();
    }
  });
}

Load('reads a file source', async () => {
  const file = path.join(tmp, 'catalogue.json');
  fs.writeFileSync(file, catalogueText);
  const { source, changes } = harness({ source: file });
  try {
    const t = await source.start();
    assert.is(t.source, file);
    assert.is(t.lookup('claude-sonnet-4-5')?.price.output, 1.5e-5);
    assert.is(changes.length, 1);
  } finally {
    source.close();
  }
});

Load('a missing file falls back to the built-in table with the reason', async () => {
  const file = path.join(tmp, 'missing.json');
  const { source, logs } = harness({ source: file });
  try {
    const t = await source.start();
    assert.is(t.fingerprint, builtinFingerprint);
    assert.ok(logs.some((l) => l.includes(file) && l.includes('ENOENT')), logs.join('\n'));
  } finally {
    source.close();
  }
});

// ---------------------------------------------------------------------------------------------
const Offline = suite('offline');

Offline('never fetches a URL source, uses the built-in table', async () => {
  const srv = await serve({ status: 200, body: catalogueText });
  const { source, logs, changes } = harness({ source: srv.url, offline: true, refetchMs: 20 });
  try {
    const t = await source.start();
    await sleep(120);
    assert.is(srv.state.requests, 0);
    assert.is(t.fingerprint, builtinFingerprint);
    assert.equal(changes, []);
    assert.ok(logs.some((l) => l.includes('offline')), logs.join('\n'));
  } finally {
    source.close();
    await srv.close();
  }
});

Offline('with no source (the public URL) uses the built-in table', async () => {
  const { source } = harness({ offline: true });
  try {
    assert.is((await source.start()).fingerprint, builtinFingerprint);
  } finally {
    source.close();
  }
});

Offline('still reads a file source', async () => {
  const file = path.join(tmp, 'offline.json');
  fs.writeFileSync(file, changedText);
  const { source } = harness({ source: file, offline: true });
  try {
    const t = await source.start();
    assert.is(t.source, file);
    assert.is(t.lookup('claude-sonnet-4-5')?.price.output, 2e-5);
  } finally {
    source.close();
  }
});

// ---------------------------------------------------------------------------------------------
const Refetch = suite('refetch');

Refetch('refetches on the interval; a change fires onChange, a failure keeps the table, close() stops it', async () => {
  const srv = await serve({ status: 200, body: catalogueText });
  const { source, logs, changes } = harness({ source: srv.url, refetchMs: 50 });
  try {
    const first = await source.start();
    assert.equal(changes, [first]);
    // same prices: refetched, no change reported
    await waitFor(() => srv.state.requests >= 3, 'two refetches', 3000);
    assert.is(changes.length, 1);
    assert.is(source.current().fingerprint, first.fingerprint);

    srv.state.reply = { status: 200, body: changedText };
    await waitFor(() => changes.length === 2, 'the changed table', 3000);
    const changed = changes[1]!;
    assert.is.not(changed.fingerprint, first.fingerprint);
    assert.is(source.current(), changed);
    assert.is(changed.lookup('claude-sonnet-4-5')?.price.output, 2e-5);
    assert.ok(logs.some((l) => l.includes('prices changed')), logs.join('\n'));

    srv.state.reply = { status: 500, body: '' };
    const before = srv.state.requests;
    await waitFor(() => srv.state.requests >= before + 2, 'failed refetches', 3000);
    assert.is(source.current(), changed, 'a failed refetch keeps the table');
    assert.is(changes.length, 2);
    assert.ok(logs.some((l) => l.includes('reloading') && l.includes('HTTP 500') && l.includes('keeping')), logs.join('\n'));

    source.close();
    await sleep(30); // let a request already in flight finish
    const stopped = srv.state.requests;
    await sleep(200);
    assert.is(srv.state.requests, stopped, 'no request after close()');
  } finally {
    source.close();
    await srv.close();
  }
});

Refetch('a refetch after a failed start replaces the built-in table', async () => {
  const srv = await serve({ status: 503, body: '' });
  const { source, changes } = harness({ source: srv.url, refetchMs: 50 });
  try {
    assert.is((await source.start()).fingerprint, builtinFingerprint);
    srv.state.reply = { status: 200, body: catalogueText };
    await waitFor(() => changes.length === 1, 'the catalogue', 3000);
    assert.is(source.current().source, srv.url);
  } finally {
    source.close();
    await srv.close();
  }
});

Refetch('the refetch timer does not keep the process alive', async () => {
  // A child process that starts a source with the default interval must exit on its own.
  const { spawnSync } = await import('node:child_process');
  const file = path.join(tmp, 'child.json');
  fs.writeFileSync(file, catalogueText);
  const script = `import { createPriceSource } from ${JSON.stringify(new URL('../../src/pricing/price-source.ts', import.meta.url).href)};
    const s = createPriceSource({ source: ${JSON.stringify(file)}, offline: false, mode: 'auto', log: () => {}, onChange: () => {} });
    const t = await s.start(); console.log('loaded', t.size);`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, `loaded ${Object.keys(catalogue).length}`);
});

Load.run();
Offline.run();
Refetch.run();
