// How long GET /metrics takes per way of asking, on one server over an existing index (issue 35): fetch as the bench
// asks (it offers gzip), fetch asking for identity, and node:http with gzip (decoded with gunzipSync, and not decoded)
// and without; the ways take turns request by request, the result cache cleared before each.
//   node --import tsx bench/metrics-client.ts ENTRY INDEX DIR[,DIR…] [rounds]
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { PRICES_FILE } from '../test/helpers/paths.ts';
import { spawnServer, standaloneEnv } from '../test/helpers/server-process.ts';
import { clearServerCache, percentile } from './common.ts';

const [entry, indexFile, dirList, roundsArg] = process.argv.slice(2);
if (!entry || !indexFile || !dirList) throw new Error('usage: bench/metrics-client.ts ENTRY INDEX DIR[,DIR…] [rounds]');
const rounds = Number(roundsArg ?? 60);

function raw(port: number, encoding: string, decode: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/metrics', headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve(decode && res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body).length : body.length);
      });
    }).on('error', reject);
  });
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'metrics-client-'));
const copy = path.join(work, 'index.db');
fs.copyFileSync(indexFile, copy);
if (fs.existsSync(`${indexFile}.keys`)) fs.copyFileSync(`${indexFile}.keys`, `${copy}.keys`);
const server = await spawnServer({
  entry, args: ['--dir', dirList, '--port', '0', '--index', copy, '--offline', '--prices', PRICES_FILE], env: standaloneEnv({ TZ: 'UTC' }), readyTimeoutMs: 120_000,
});
try {
  await server.logged(/indexed \d+ files|no transcripts found/);
  const base = `http://127.0.0.1:${server.port}`;
  const ways: Record<string, () => Promise<unknown>> = {
    'fetch (offers gzip)': async () => (await fetch(`${base}/metrics`)).arrayBuffer(),
    'fetch, identity': async () => (await fetch(`${base}/metrics`, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer(),
    'http, gzip, gunzipSync': () => raw(server.port, 'gzip', true),
    'http, gzip, not decoded': () => raw(server.port, 'gzip', false),
    'http, identity': () => raw(server.port, 'identity', false),
  };
  const t: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
  for (let i = 0; i < rounds; i++) {
    for (const [name, ask] of Object.entries(ways)) {
      await clearServerCache(base);
      const s = performance.now();
      await ask();
      t[name]!.push(performance.now() - s);
    }
  }
  for (const [name, v] of Object.entries(t)) console.log(`${name.padEnd(26)} p50 ${percentile(v, 50).toFixed(1)} ms  p95 ${percentile(v, 95).toFixed(1)} ms`);
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
