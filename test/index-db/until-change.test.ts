// untilChange/changeMark on a real WAL file: a value is computed again after the connection's own writes (pending or
// committed), another connection's commit, and a rolled-back transaction, and never while nothing changed.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import { changeMark, untilChange } from '../../src/index-db/queries/until-change.ts';
import { tempDir } from '../helpers/jsonl.ts';

function setup(): { db: Database.Database; other: Database.Database; rows: () => number; computed: () => number; cleanup: () => void } {
  const { dir, cleanup } = tempDir();
  const file = path.join(dir, 'x.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (v INTEGER)');
  const other = new Database(file);
  const count = db.prepare('SELECT count(*) FROM t').pluck();
  let computed = 0;
  const rows = untilChange(changeMark(db), () => {
    computed++;
    return count.get() as number;
  });
  return { db, other, rows, computed: () => computed, cleanup: () => (db.close(), other.close(), cleanup()) };
}

test('computed once while nothing changes', () => {
  const s = setup();
  assert.is(s.rows(), 0);
  assert.is(s.rows(), 0);
  s.db.prepare('SELECT count(*) FROM t').get();
  assert.is(s.rows(), 0);
  assert.is(s.computed(), 1);
  s.cleanup();
});

test("the connection's own writes, pending and committed, are seen at once", () => {
  const s = setup();
  assert.is(s.rows(), 0);
  s.db.exec('BEGIN');
  s.db.exec('INSERT INTO t VALUES (1)');
  assert.is(s.rows(), 1, 'a pending write');
  s.db.exec('INSERT INTO t VALUES (2)');
  assert.is(s.rows(), 2);
  s.db.exec('COMMIT');
  s.db.exec('DELETE FROM t WHERE v = 1');
  assert.is(s.rows(), 1, 'a delete');
  s.cleanup();
});

test("another connection's commit is seen", () => {
  const s = setup();
  assert.is(s.rows(), 0);
  s.other.exec('INSERT INTO t VALUES (1)');
  assert.is(s.rows(), 1);
  s.cleanup();
});

test('a rolled-back transaction is not kept: the value is computed again after the rollback', () => {
  const s = setup();
  s.db.exec('BEGIN');
  s.db.exec('INSERT INTO t VALUES (1)');
  assert.is(s.rows(), 1);
  s.db.exec('ROLLBACK');
  assert.is(s.rows(), 0);
  s.cleanup();
});

test.run();
