// A command-line writer resolves each folder's repository as the server's pipeline does (src/ingest/repository.ts):
// `cost-dashboard update` over a checkout and its Claude Code worktree leaves the index with the repository of both
// folders stored, the same the dashboard shows for them.
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ProjectRow } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed } from '../helpers/app-server.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';

const { dir } = tempDir('cli-repositories-');
const root = path.join(dir, 'cfg');
const line = (sid: string, id: string, cwd: string) => ({
  type: 'assistant', timestamp: '2026-11-10T10:00:00.000Z', sessionId: sid, requestId: `req-${id}`, cwd,
  message: { id: `msg-${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: 500 } },
});
writeJsonl(path.join(root, 'projects', '-home-dev-app', 's1.jsonl'), [line('s1', 'a', '/home/dev/app')]);
writeJsonl(path.join(root, 'projects', '-home-dev-app--claude-worktrees-feat', 's2.jsonl'), [line('s2', 'b', '/home/dev/app/.claude/worktrees/feat')]);

const t = suite('repositories from the command line');

t('update stores each folder\'s repository, as the dashboard resolves it', async () => {
  const index = path.join(dir, 'index.db');
  const r = await cli(['update', '--dir', root, '--index', index, '--offline', '--prices', PRICES_FILE]);
  assert.is(r.code, 0, r.stderr);
  const db = new Database(index, { readonly: true });
  const stored = db.prepare('SELECT encoded, repo FROM projects ORDER BY encoded').all() as { encoded: string; repo: string | null }[];
  db.close();
  assert.equal(stored, [
    { encoded: '-home-dev-app', repo: '/home/dev/app' },
    { encoded: '-home-dev-app--claude-worktrees-feat', repo: '/home/dev/app' },
  ]);
  const server = await startAppServer({ dir: root });
  try {
    await untilIndexed(server, 20_000);
    const rows = await getJson<ProjectRow[]>(server, '/api/projects');
    assert.equal(rows.map((p) => [p.id, p.repository.id]).sort(), stored.map((s) => [s.encoded, s.repo]));
  } finally {
    await server.close();
  }
});

t.run();
