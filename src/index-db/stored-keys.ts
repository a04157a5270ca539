// The writer's key index (hkey -> message id of every stored winner) as read from the file after a restart: ahead of
// need, a slice at a time, or all at once by the first write that comes before the slices are done.
import Database from 'better-sqlite3';
import { KeyIndex } from './key-index.ts';

const KEYS_AFTER = 'SELECT hkey, id FROM messages WHERE id > ? ORDER BY id LIMIT ?';
/** The read-ahead's page cache: enough for a slice's pages; SQLite's default is 2 MB too. */
const READ_AHEAD_CACHE_KB = 2048;

export class StoredKeys {
  private keys: KeyIndex | null = null;
  /** Every stored winner is in `keys`; until then, the largest message id read into it. */
  private complete = false;
  private readTo = 0;
  /** The read-ahead's own connection, open until every key is read (see readAhead). */
  private side: { db: Database.Database; keysAfter: Database.Statement } | null = null;
  /** A database in memory has no second connection: the read-ahead's statement is on its own. */
  private inMemory: Database.Statement | null = null;

  constructor(private readonly db: Database.Database) {}

  /**
   * Reads up to `rows` more stored keys, in id order; true once every stored winner is in. It reads through a
   * read-only connection of its own with a small page cache: the ~300 MB of message rows it passes at 10 GiB would
   * otherwise fill the writer's 64 MB cache with pages no query needs (~60 MB of resident memory, measured). While
   * keys are missing nothing has written a message (`all()` completes them first), so the last commit, which that
   * connection sees, holds the same messages as the writer's pending view.
   */
  readAhead(rows: number): boolean {
    if (this.complete) return true;
    return this.read(rows);
  }

  /**
   * The complete key index, reading what is still missing (a write is under way, before it touches a message) through
   * the same connection as the read-ahead, for the same reasons: the writer's pending writes of other tables do not
   * change what it reads.
   */
  all(): KeyIndex {
    if (!this.complete) this.read(Number.MAX_SAFE_INTEGER);
    return this.keys!;
  }

  close(): void {
    this.side?.db.close();
    this.side = null;
  }

  private read(rows: number): boolean {
    // Sized for every stored winner at once: grown while reading, it held the old table beside the new one
    // (~100 MB at 10 GiB when a slot was 16 bytes and the whole 67 MB).
    const keys = (this.keys ??= new KeyIndex(this.db.prepare('SELECT coalesce(sum(messages), 0) FROM usage_total').pluck().get() as number));
    let read = 0;
    for (const [hkey, id] of this.keysAfter().iterate(this.readTo, rows) as Iterable<[number, number]>) {
      keys.set(hkey, id);
      this.readTo = id;
      read++;
    }
    this.complete = read < rows;
    if (this.complete) this.close();
    return this.complete;
  }

  /** The read-ahead's statement, on its own connection (see inMemory). */
  private keysAfter(): Database.Statement {
    if (this.db.memory) return (this.inMemory ??= this.db.prepare(KEYS_AFTER).raw(true));
    if (!this.side) {
      const db = new Database(this.db.name, { readonly: true, fileMustExist: true });
      db.pragma(`cache_size = -${READ_AHEAD_CACHE_KB}`);
      this.side = { db, keysAfter: db.prepare(KEYS_AFTER).raw(true) };
    }
    return this.side.keysAfter;
  }
}
