// Every route the server mounts is documented in README.md's "HTTP API" table, and every route that table lists is
// mounted. The routes are read from the real server's router (createServer over a real index), under a hub with a
// server SDK too, so a route added anywhere in src/http fails here until it has its row.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../helpers/paths.ts';
import { startServer } from '../helpers/server.ts';
import { markdownTable } from './markdown-table.ts';

interface RouterEntry {
  method: string;
  keys: string[] | false;
  pattern: RegExp;
}

/** `GET /api/sessions/:id` from a router entry, undoing regexparam's pattern; null for middleware and catch-alls. */
export function routeOf(r: RouterEntry): string | null {
  if (!r.method || r.keys === false) return null;
  const keys = [...r.keys];
  if (keys.includes('*')) return null;
  let src = r.pattern.source.replace(/^\^/, '').replace(/\\\/\?\$$/, '').replace(/\$$/, '');
  src = src.replace(/\(\[\^\/\]\+\?\)/g, () => `:${keys.shift()}`).replace(/\\(.)/g, '$1');
  if (/[()[\]?*+^$]/.test(src) || keys.length) throw new Error(`cannot read the route of pattern ${r.pattern.source}`);
  return `${r.method} ${src}`;
}

async function mounted(env: NodeJS.ProcessEnv): Promise<string[]> {
  const s = await startServer({ env });
  try {
    const routes = (s.server.app as unknown as { routes: RouterEntry[] }).routes;
    return routes.map(routeOf).filter((r): r is string => r !== null);
  } finally {
    await s.close();
  }
}

function documented(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const rows = markdownTable(readme, 'HTTP API', 'Route');
  return rows.map((row) => {
    const m = /^`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`$/.exec(row[0]!.trim());
    if (!m) throw new Error(`README.md "HTTP API": a route is written \`METHOD /path\`, not ${row[0]}`);
    return `${m[1]} ${m[2]}`;
  });
}

const t = suite('routes are documented');

t('routeOf reads back regexparam patterns, and refuses what it cannot read', () => {
  assert.is(routeOf({ method: 'GET', keys: ['path'], pattern: /^\/api\/projects\/([^/]+?)\/sessions\/?$/i }), 'GET /api/projects/:path/sessions');
  assert.is(routeOf({ method: 'POST', keys: [], pattern: /^\/api\/refresh\/?$/i }), 'POST /api/refresh');
  assert.is(routeOf({ method: 'GET', keys: [], pattern: /^\/vendor\/agent-hub-sdk\.js\/?$/i }), 'GET /vendor/agent-hub-sdk.js');
  assert.is(routeOf({ method: '', keys: ['*'], pattern: /^\/api\/(.*)\/?$/i }), null);
  assert.throws(() => routeOf({ method: 'GET', keys: [], pattern: /^\/a(b|c)\/?$/i }), /cannot read/);
});

t('every mounted route has a row in README.md "HTTP API", and every row is mounted', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'routes-test-'));
  try {
    // A hub's server SDK that mounts its browser script, as the public hub's does.
    const sdk = path.join(dir, 'sdk.cjs');
    fs.writeFileSync(sdk, "exports.mount = (app) => app.get('/vendor/claude-hub-sdk.js', (_req, res) => res.type('js').send(''));\n");
    const standalone = await mounted({});
    const hub = await mounted({ AGENT_HUB: '1', HUB_URL: 'http://localhost:3000', HUB_SDK_SERVER: sdk });
    assert.ok(standalone.includes('GET /api/overview'), `the router was read: ${standalone.join(', ')}`);
    assert.ok(hub.includes('GET /hub-config') && hub.includes('GET /vendor/agent-hub-sdk.js'), `the hub routes were read: ${hub.join(', ')}`);
    const all = [...new Set([...standalone, ...hub])];
    const docs = documented();
    const missing = all.filter((r) => !docs.includes(r));
    assert.equal(missing, [], `mounted but not in README.md's "HTTP API" table (add a row): ${missing.join(', ')}`);
    const stale = docs.filter((r) => !all.includes(r));
    assert.equal(stale, [], `in README.md's "HTTP API" table but not mounted: ${stale.join(', ')}`);
    const twice = docs.filter((r, i) => docs.indexOf(r) !== i);
    assert.equal(twice, [], 'one row per route');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

t.run();
