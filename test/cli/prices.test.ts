// The prices a command writes the index with: the catalogue the server fetched (kept beside the index), used
// without a fetch while younger than the server's refetch period; fetched again after it; the kept copy when
// that fetch fails; a --prices file or the built-in table as the server would.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pricesFor } from '../../src/cli/prices.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { loadPriceCache, priceCacheFile } from '../../src/pricing/price-cache.ts';
import { createPriceSource } from '../../src/pricing/price-source.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { tempDir } from '../helpers/jsonl.ts';

const { dir } = tempDir('cli-prices-');
const text = fs.readFileSync(PRICES_FILE, 'utf8');
const catalogue = JSON.parse(text) as Record<string, Record<string, unknown>>;
const changed = JSON.stringify({ ...catalogue, 'claude-sonnet-4-5': { ...catalogue['claude-sonnet-4-5'], output_cost_per_token: 2e-5 } });

async function serve(body: string) {
  const state = { body, requests: 0 };
  const server = http.createServer((_req, res) => {
    state.requests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(state.body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/catalogue.json`;
  const close = () => new Promise<void>((ok) => {
    server.closeAllConnections();
    server.close(() => ok());
  });
  return { state, url, close };
}

const Prices = suite('the prices of a command');

Prices('the server keeps what it fetched; a command prices with it, fetching again only when it is old', async () => {
  const srv = await serve(text);
  const indexPath = path.join(dir, 'a.db');
  const warnings: string[] = [];
  const config = { prices: srv.url, offline: false, costMode: 'auto' as const, indexPath };
  try {
    const server = createPriceSource({ source: srv.url, offline: false, mode: 'auto', log: () => {}, onChange: () => {}, cacheFile: priceCacheFile(indexPath) });
    const served = await server.start();
    server.close();
    assert.is(srv.state.requests, 1);
    assert.ok(loadPriceCache(priceCacheFile(indexPath), srv.url), 'kept beside the index');
    assert.is(loadPriceCache(priceCacheFile(indexPath), 'https://elsewhere.example/prices.json'), null, 'only for its own source');

    // Fresh: the same table as the server's, no request.
    const fresh = await pricesFor(config, (m) => warnings.push(m));
    assert.is(fresh.fingerprint, served.fingerprint);
    assert.is(srv.state.requests, 1);

    // Older than 6 hours: fetched again (and kept), as the server would.
    srv.state.body = changed;
    const old = new Date(Date.now() - 7 * 3_600_000);
    fs.utimesSync(priceCacheFile(indexPath), old, old);
    const refetched = await pricesFor(config, (m) => warnings.push(m));
    assert.is(srv.state.requests, 2);
    assert.is.not(refetched.fingerprint, served.fingerprint);
    assert.is((await pricesFor(config, (m) => warnings.push(m))).fingerprint, refetched.fingerprint, 'the new copy is kept');
    assert.is(srv.state.requests, 2);

    // Old, and the fetch fails: the kept copy, with one warning.
    fs.utimesSync(priceCacheFile(indexPath), old, old);
    await srv.close();
    const kept = await pricesFor(config, (m) => warnings.push(m));
    assert.is(kept.fingerprint, refetched.fingerprint);
    assert.is(warnings.length, 1);
    assert.match(warnings[0]!, /could not load .*; using the last fetched catalogue/);
  } finally {
    await srv.close();
  }
});

Prices('a --prices file is read; offline without one is the built-in table', async () => {
  const indexPath = path.join(dir, 'b.db');
  const file = await pricesFor({ prices: PRICES_FILE, offline: true, costMode: 'calculate', indexPath }, () => {});
  assert.is(file.fingerprint, PriceTable.fromCatalogue(catalogue, PRICES_FILE, 'calculate').fingerprint);
  const builtin = await pricesFor({ prices: null, offline: true, costMode: 'auto', indexPath }, () => {});
  assert.is(builtin.fingerprint, PriceTable.builtin('auto').fingerprint);
});

Prices.run();
