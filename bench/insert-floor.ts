// The floor of the serial part on this machine: `node --import tsx bench/insert-floor.ts DIR [runs]` indexes DIR
// (untimed, as bench/writer-cpu.ts does), reads its stored messages back, and times only SQLite storing those rows
// again into fresh files on this thread: into the index's own `messages` table (its schema and its index), into a
// bare table of the same columns, and 100 rows per statement instead of one. One SQLite file has one writer, so
// whichever thread writes the index spends at least this much of a cold index alone, before any rollup, dedup or
// commit of the real writer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { fileRoles, listTranscripts } from '../src/ingest/discovery.ts';
import { openIndex } from '../src/index-db/index.ts';
import { PriceTable } from '../src/pricing/table.ts';
import { readTranscript } from '../src/workers/parse-transcript.ts';
import { percentile } from './common.ts';
import { threadCpu } from './thread-cpu.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: bench/insert-floor.ts DIR [runs]');
const runs = Number(process.argv[3] ?? 3);
/** Rows per transaction: about what the writer's group commit holds at 1 GiB (a commit a second). */
const ROWS_PER_COMMIT = 7_000;
const COLS =
  'hkey, stored_key, file_id, off, ts, project_id, session_id, model_id, agent_id, input, output, cache_create, cache_read, cache_1h, web_search, fast, cost_usd, cost, tools, branch_id';
const NCOLS = COLS.split(',').length;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-insert-floor-'));
try {
  const indexFile = path.join(work, 'index.db');
  const projects = path.join(dir, 'projects');
  const roles = fileRoles([projects]);
  const index = openIndex(indexFile, { log: () => undefined });
  index.setPrices(PriceTable.builtin());
  for (const f of await listTranscripts([projects])) {
    const role = roles.of(f.path);
    if (!role) continue;
    const batch = readTranscript({ path: f.path, from: 0, to: f.size, wantPrompt: true, agentMeta: role.agentId !== null });
    index.applyBatch(batch, { ...role, agentType: batch.agent?.agentType ?? null, agentDescription: batch.agent?.agentDescription ?? null }, f.size, f.mtimeMs);
  }
  index.close();

  const source = new Database(indexFile, { readonly: true });
  const rows = source.prepare(`SELECT ${COLS} FROM messages ORDER BY id`).raw(true).all() as unknown[][];
  const schema = source.prepare(`SELECT sql FROM sqlite_master WHERE tbl_name = 'messages' AND sql IS NOT NULL ORDER BY type DESC`).pluck().all() as string[];
  source.close();

  /** CPU ms of this thread to store every row into a fresh file made by `ddl`, `perStatement` rows an INSERT. */
  const store = (ddl: string[], perStatement: number): number => {
    const file = path.join(work, 'floor.db');
    for (const s of ['', '-wal', '-shm']) fs.rmSync(file + s, { force: true });
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('cache_size = -32768');
    for (const sql of ddl) db.exec(sql);
    const tuple = `(${Array(NCOLS).fill('?').join(',')})`;
    const one = db.prepare(`INSERT INTO messages (${COLS}) VALUES ${tuple}`);
    const many = db.prepare(`INSERT INTO messages (${COLS}) VALUES ${Array(perStatement).fill(tuple).join(',')}`);
    // Each transaction's statements' parameters, made before the clock starts: only SQLite's work is timed.
    const commits: unknown[][][] = [];
    for (let i = 0; i < rows.length; i += ROWS_PER_COMMIT) {
      const slice = rows.slice(i, i + ROWS_PER_COMMIT);
      const statements: unknown[][] = [];
      let k = 0;
      for (; perStatement > 1 && k + perStatement <= slice.length; k += perStatement) statements.push(slice.slice(k, k + perStatement).flat());
      for (; k < slice.length; k++) statements.push(slice[k]!);
      commits.push(statements);
    }
    const before = threadCpu(process.pid).mainMs;
    for (const statements of commits) {
      db.transaction(() => {
        for (const params of statements) (params.length > NCOLS ? many : one).run(params);
      })();
    }
    db.close();
    return threadCpu(process.pid).mainMs - before;
  };

  const bare = `CREATE TABLE messages (id INTEGER PRIMARY KEY, ${COLS.split(', ').map((c) => `${c} ANY`).join(', ')})`;
  const cases: [string, string[], number][] = [
    ["the index's messages table and its index, a row per INSERT", schema, 1],
    ['the same columns, a bare table, a row per INSERT', [bare], 1],
    ["the index's messages table, 100 rows per INSERT", schema, 100],
  ];
  console.log(`${rows.length} stored messages of ${dir}; CPU of this thread (ms), median of ${runs}, a commit per ${ROWS_PER_COMMIT} rows:`);
  for (const [what, ddl, per] of cases) {
    const ms = Array.from({ length: runs }, () => store(ddl, per));
    console.log(`  ${what}: ${percentile(ms, 50)} ms (${ms.join(', ')})`);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
