// Migration 015 on a real index file through the real pipeline: an index an older version built over 2.0.x root
// `agent-<id>.jsonl` files (their first prompt never read, their files given no agent) is migrated so that the files
// of sessions with no title or prompt are read again: the sessions get their `· subagent` title, and every figure,
// line count and losing copy stays as it was; the other files are not read again.
process.env.TZ = 'UTC';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { migrations } from '../../src/index-db/migrations/index.ts';
import { sql as rootAgentPrompts } from '../../src/index-db/migrations/015-root-agent-prompts.ts';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { tempDir, usageLine, userLine, writeJsonl } from '../helpers/jsonl.ts';
import { indexDir } from '../helpers/pipeline.ts';

const allTime: QueryScope = {
  range: { from: '1970-01-01', to: '2100-01-01', fromMs: 0, toMs: Date.UTC(2100, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.UTC(2026, 0, 3),
};
const PROJECT = '-home-dev-old';

function peek<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** What a re-read could change that the queries show: totals and line counts. */
function shown(index: IndexDb) {
  const { newestTs, ...stats } = index.stats();
  return { totals: index.queries.overview(allTime).totals, stats, newestTs };
}

/** What it could change in the file (read once the index is closed): per-file cursors and counts, the losing copies. */
const stored = (file: string) => ({
  files: peek(file, 'SELECT path, size, off, lines, usage_lines, first_ts FROM files ORDER BY path'),
  alternates: peek(file, 'SELECT file_id, off, output FROM alternates ORDER BY file_id, off'),
});

const t = suite('migration 015: root agent files read again');

t('sessions known only from root agent files get their title; no figure changes; other files are not read again', async () => {
  const { dir, cleanup } = tempDir('cost-root-agents-');
  try {
    const projects = path.join(dir, 'projects');
    const at = (name: string) => path.join(projects, PROJECT, name);
    const sidechain = (id: string) => ({ isSidechain: true, agentId: id });
    writeJsonl(at('agent-a1.jsonl'), [
      userLine('Review the parser', { sessionId: 'no-file', ...sidechain('a1') }),
      usageLine({ sessionId: 'no-file', messageId: 'm-a1', requestId: 'r-a1', output: 20, extra: sidechain('a1') }),
      // a copy of the parent's response with fewer output tokens: it loses, and is kept as an alternate
      usageLine({ sessionId: 'no-file', messageId: 'm-dup', requestId: 'r-dup', output: 5, extra: sidechain('a1') }),
    ]);
    fs.writeFileSync(at('empty-file.jsonl'), '');
    writeJsonl(at('agent-a2.jsonl'), [
      userLine('Find the flaky test', { sessionId: 'empty-file', ...sidechain('a2') }),
      usageLine({ sessionId: 'empty-file', messageId: 'm-a2', requestId: 'r-a2', output: 30, extra: sidechain('a2') }),
    ]);
    writeJsonl(at('own.jsonl'), [
      userLine('ship it', { sessionId: 'own' }),
      usageLine({ sessionId: 'own', messageId: 'm-own', requestId: 'r-own', output: 40 }),
      usageLine({ sessionId: 'own', messageId: 'm-dup', requestId: 'r-dup', output: 50 }),
    ]);
    writeJsonl(at('agent-a3.jsonl'), [
      userLine('Check the docs', { sessionId: 'own', ...sidechain('a3') }),
      usageLine({ sessionId: 'own', messageId: 'm-a3', requestId: 'r-a3', output: 60, extra: sidechain('a3') }),
    ]);
    const file = path.join(dir, 'index.db');
    let index = await indexDir(projects, { file });
    const before = shown(index);
    index.close();
    const storedBefore = stored(file);
    assert.is(storedBefore.alternates.length, 1, 'the losing copy');

    // What an older version left: no agent on the root files, no agent prompt, the schema before 015.
    const db = new Database(file);
    db.exec(`UPDATE files SET agent_id = NULL WHERE session_id IS NULL; UPDATE sessions SET agent_prompt = NULL;
      PRAGMA user_version = ${migrations.indexOf(rootAgentPrompts)};`);
    db.close();
    index = openIndex(file, { log: () => {} });
    assert.is(index.queries.session('no-file', allTime)!.title, 'no-file', 'the bare id, as an older version showed it');
    index.close();
    const reset = peek<{ name: string; off: number }>(file, 'SELECT path AS name, off FROM files ORDER BY path')
      .map((f) => [path.basename(f.name), f.off === 0]);
    assert.equal(reset, [['agent-a1.jsonl', true], ['agent-a2.jsonl', true], ['agent-a3.jsonl', false], ['empty-file.jsonl', true], ['own.jsonl', false]],
      'only the files of untitled sessions (and the 0-byte file, at 0 anyway) start again');
    assert.equal(peek(file, 'SELECT count(*) AS n FROM alternates'), [{ n: 0 }], 'the re-read file\'s losing copy is dropped until it is read');

    index = await indexDir(projects, { file });
    assert.is(index.queries.session('no-file', allTime)!.title, 'Review the parser · subagent');
    assert.is(index.queries.session('empty-file', allTime)!.title, 'Find the flaky test · subagent');
    assert.is(index.queries.session('own', allTime)!.title, 'ship it');
    assert.equal(shown(index), before, 'every figure and count as before');
    index.close();
    assert.equal(stored(file), storedBefore, 'every file\'s cursor and counts, and the losing copy, as before');
  } finally {
    cleanup();
  }
});

t.run();
