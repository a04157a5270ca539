// The writer's buffer of new message rows (src/index-db/message-inserts.ts) on a real index file: rows go in under
// the ids SQLite would have given them, in order, whatever their count (one statement per binary digit of it); a row
// is held until the flush; a batch that failed leaves nothing behind for the next; rows of several shapes (column
// lists) keep their ids and values, the columns a shape leaves out at their defaults.
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { ManyRows } from '../../src/index-db/many-rows.ts';
import { MessageInserts } from '../../src/index-db/message-inserts.ts';
import { tempDir } from '../helpers/jsonl.ts';

const COLS = 'hkey, stored_key, file_id, off, ts, project_id, session_id, model_id, input, output, cache_create, cache_read, cache_1h, web_search, fast, cost, tools';
type Row = { off: number };
/** A row of made-up figures, told apart by its offset. */
const write = (r: Row, out: unknown[]): void => {
  out.push(1000 + r.off, `k${r.off}`, 1, r.off, r.off * 10, 1, 1, 1, 1, r.off, 0, 0, 0, 0, 0, 0.5, '');
};

const Inserts = suite('message inserts');
const { dir, cleanup } = tempDir('message-inserts-');
Inserts.after(cleanup);

function fresh(name: string): Database.Database {
  const file = path.join(dir, `${name}.db`);
  openIndex(file, { log: () => undefined }).close();
  return new Database(file);
}
const stored = (db: Database.Database) => db.prepare('SELECT id, off, output FROM messages ORDER BY id').all() as { id: number; off: number; output: number }[];

Inserts('any count of rows goes in, in order, under the ids SQLite gives, and a later plain INSERT follows on', () => {
  const db = fresh('counts');
  const inserts = new MessageInserts<Row>(db, [{ columns: COLS, write }]);
  let off = 0;
  const expected: { id: number; off: number; output: number }[] = [];
  for (const count of [0, 1, 63, 64, 65, 200, 3]) {
    db.transaction(() => {
      inserts.begin();
      for (let k = 0; k < count; k++) {
        const id = inserts.add({ off: ++off });
        expected.push({ id, off, output: off });
      }
      inserts.flush();
    })();
    assert.equal(stored(db), expected, `${count} rows`);
  }
  assert.equal(expected.map((r) => r.id), expected.map((_, i) => i + 1), 'one more than the largest, row after row');
  const plain = db.prepare(`INSERT INTO messages (${COLS}) VALUES (${Array(COLS.split(',').length).fill('?').join(',')})`);
  const out: unknown[] = [];
  write({ off: ++off }, out);
  assert.is(Number(plain.run(out).lastInsertRowid), expected.length + 1);
  db.close();
});

Inserts('a row is held, unread by SQLite, until the flush', () => {
  const db = fresh('held');
  const inserts = new MessageInserts<Row>(db, [{ columns: COLS, write }]);
  db.transaction(() => {
    inserts.begin();
    const a = inserts.add({ off: 1 });
    const b = inserts.add({ off: 2 });
    assert.ok(inserts.holds(a) && inserts.holds(b));
    assert.not.ok(inserts.holds(b + 1), 'an id not given yet');
    assert.is(stored(db).length, 0, 'nothing written yet');
    inserts.flush();
    assert.not.ok(inserts.holds(a) || inserts.holds(b));
    const c = inserts.add({ off: 3 });
    assert.ok(inserts.holds(c) && !inserts.holds(b));
    inserts.flush();
  })();
  assert.equal(stored(db).map((r) => r.off), [1, 2, 3]);
  db.close();
});

Inserts('a batch that failed leaves no row for the next one, whose ids start over from the file', () => {
  const db = fresh('failed');
  const inserts = new MessageInserts<Row>(db, [{ columns: COLS, write }]);
  assert.throws(() =>
    db.transaction(() => {
      inserts.begin();
      inserts.add({ off: 1 });
      inserts.flush();
      inserts.add({ off: 2 });
      throw new Error('the batch failed');
    })(),
  );
  db.transaction(() => {
    inserts.begin();
    assert.is(inserts.add({ off: 3 }), 1, 'the rolled-back row gave its id back');
    inserts.flush();
  })();
  assert.equal(stored(db).map((r) => [r.id, r.off]), [[1, 3]]);
  db.close();
});

Inserts('rows gathered by a placing that throws are dropped: no later flush writes them', () => {
  const db = fresh('gather-throws');
  const inserts = new MessageInserts<Row>(db, [{ columns: COLS, write }]);
  let ids: number[] = [];
  assert.throws(() =>
    db.transaction(() =>
      inserts.gather(() => {
        ids = [inserts.add({ off: 1 }), inserts.add({ off: 2 })];
        throw new Error('the batch failed');
      }),
    )(),
  );
  assert.not.ok(ids.some((id) => inserts.holds(id)), 'nothing held');
  inserts.flush();
  db.transaction(() => inserts.gather(() => void inserts.add({ off: 3 })))();
  assert.equal(stored(db).map((r) => [r.id, r.off]), [[1, 3]]);
  db.close();
});

Inserts('rows of two shapes, interleaved, keep the ids given in order; a narrow row holds the defaults of what it leaves out', () => {
  const db = fresh('shapes');
  // A wide row sets geo and effort_id (its offset, to tell it apart); a narrow one leaves them to their default, 0.
  const wide = (r: Row, out: unknown[]): void => {
    write(r, out);
    out.push(1, r.off);
  };
  const inserts = new MessageInserts<Row>(db, [
    { columns: COLS, write, fits: (r) => r.off % 3 !== 0 },
    { columns: `${COLS}, geo, effort_id`, write: wide },
  ]);
  const ids: number[] = [];
  db.transaction(() => inserts.gather(() => {
    for (let off = 1; off <= 100; off++) ids.push(inserts.add({ off }));
    assert.ok(ids.every((id) => inserts.holds(id)), 'every row held until the end');
  }))();
  assert.equal(ids, ids.map((_, i) => i + 1));
  const rows = db.prepare('SELECT id, off, geo, effort_id AS effort FROM messages ORDER BY id').all() as { id: number; off: number; geo: number; effort: number }[];
  assert.equal(rows, ids.map((id, i) => ({ id, off: i + 1, geo: (i + 1) % 3 === 0 ? 1 : 0, effort: (i + 1) % 3 === 0 ? i + 1 : 0 })));
  assert.not.ok(ids.some((id) => inserts.holds(id)), 'nothing held after');
  db.close();
});

Inserts('rows whose statement failed are not written again by the next flush', () => {
  const db = fresh('flush-fails');
  db.exec('CREATE TABLE t (a INTEGER PRIMARY KEY)');
  const rows = new ManyRows(db, 'INSERT INTO t (a) VALUES', 1);
  // The second 1 breaks the key: its statement fails, and the transaction with everything it wrote.
  assert.throws(
    () =>
      db.transaction(() => {
        rows.values.push(1, 2, 1);
        rows.flush();
      })(),
    /UNIQUE/,
  );
  assert.is(rows.rows, 0);
  rows.values.push(3);
  rows.flush();
  assert.equal(db.prepare('SELECT a FROM t ORDER BY a').pluck().all(), [3]);
  db.close();
});

Inserts.run();
