// The writer's key index (hkey -> message id of every stored winner) as read after a restart: from the key dump a
// writer left at its close (key-dump.ts) plus the messages stored since, or from every message when there is no true
// dump; ahead of need, a slice at a time, or all at once by the first write that comes before the slices are done.
import Database from 'better-sqlite3';
import { keyDumpFile, newDumpToken, readKeyDump, writeKeyDump } from './key-dump.ts';
import { KeyIndex } from './key-index.ts';
import { SCHEMA_VERSION } from './migrate.ts';

const KEYS_AFTER = 'SELECT hkey, id FROM messages WHERE id > ? ORDER BY id LIMIT ?';
const DUMP_TOKEN = "SELECT value FROM meta WHERE key = 'key_dump'";
/** The read-ahead's page cache: enough for a slice's pages; SQLite's default is 2 MB too. */
const READ_AHEAD_CACHE_KB = 2048;
/** Slots of a dump checked against their messages before it is taken (~half hold a key): a damaged file is caught. */
const SAMPLED_SLOTS = 64;
/**
 * A dump is written again at close when this many keys were added since it was taken (and at least a tenth of it):
 * reading the messages stored since costs in proportion to the keys added, writing the dump in proportion to the table.
 */
const REWRITE_AFTER_KEYS = 100_000;

/** The read-ahead's connection and what it reads. */
interface Side {
  db: Database.Database;
  keysAfter: Database.Statement;
}

export class StoredKeys {
  private keys: KeyIndex | null = null;
  /** Every stored winner is in `keys`; until then, the largest message id read into it. */
  private complete = false;
  private readTo = 0;
  /** The keys of the dump `keys` was started from (null: read from the messages alone). */
  private dumped: number | null = null;
  /** A key was removed or moved since the dump was taken: its token is cleared, a new dump is due at close. */
  private dumpCleared = false;
  /** The dump turned out not to match the messages: this process reads them all. */
  private dumpRefused = false;
  /** A rolled-back write had read the keys again (distrust): read them again from the messages at the next use. */
  private reread = false;
  /** The read-ahead's own connection, open until every key is read (see readAhead). */
  private side: Side | null = null;
  /** A database in memory has no second connection: the read-ahead's statement is on its own. */
  private inMemory: Database.Statement | null = null;
  private setToken: Database.Statement | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Reads up to `rows` more stored keys, in id order; true once every stored winner is in. It reads through a
   * read-only connection of its own with a small page cache: the message rows it passes would otherwise fill the
   * writer's page cache with pages no query needs, resident memory for nothing. While
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
    if (this.reread) return this.rebuild();
    while (!this.complete) this.read(Number.MAX_SAFE_INTEGER);
    return this.keys!;
  }

  /**
   * A key led to no stored message: the key index is not the messages' (a dump damaged in a way its checks passed), so
   * it is read again from every message, through the writer's own connection (its pending writes are messages too).
   * The caller has written its buffered rows. Returns the new key index; `forget()` undoes it with a rolled-back write.
   */
  distrust(): KeyIndex {
    this.log('a dedup key of the index led to no stored message: reading every key from the index again');
    return this.rebuild();
  }

  /** A write that read the keys again rolled back: the next use reads them again from what is left. */
  forget(): void {
    this.reread = true;
  }

  private rebuild(): KeyIndex {
    this.closeSide();
    const stored = this.db.prepare('SELECT count(*) FROM messages').pluck().get() as number;
    const keys = new KeyIndex(stored);
    for (const [hkey, id] of this.db.prepare('SELECT hkey, id FROM messages').raw().iterate() as Iterable<[number, number]>) keys.set(hkey, id);
    this.keys = keys;
    this.complete = true;
    this.reread = false;
    this.dumped = null;
    this.dumpRefused = true;
    // The dump beside the index led here: a true one is written at close.
    this.dumpCleared = true;
    return keys;
  }

  /**
   * A stored key is removed or moved to another message (in the writer's pending transaction): the dump no longer
   * holds the truth, so its token is cleared in the same transaction.
   */
  keyRemoved(): void {
    this.dumpCleared = true;
    if (!this.db.memory) this.writeToken('');
  }

  /**
   * At the writer's close, after its last commit: saves the key index when there is no true dump of it, or the one
   * there lacks many keys. A dump that cannot be written is left out (the next writer reads the messages). `dump`
   * false: the read-ahead only (a compaction under way holds the write lock the dump's token needs).
   */
  close(dump = true): void {
    this.closeSide();
    if (!dump) return;
    const keys = this.keys;
    if (!keys || !this.complete || this.db.memory || this.db.inTransaction) return;
    const behind = this.dumped === null ? Infinity : keys.size - this.dumped;
    if (!this.dumpCleared && behind < Math.max(REWRITE_AFTER_KEYS, (this.dumped ?? 0) / 10)) return;
    try {
      const token = newDumpToken();
      const maxId = this.db.prepare('SELECT coalesce(max(id), 0) FROM messages').pluck().get() as number;
      writeKeyDump(keyDumpFile(this.db.name), keys, { schema: SCHEMA_VERSION, maxId, token });
      this.writeToken(token);
    } catch (err) {
      this.log(`the dedup keys were not saved beside the index (${(err as Error).message}); the next start reads them from it`);
    }
  }

  /** The index's meta row `key_dump`: the token of the true dump, or '' for none. */
  private writeToken(token: string): void {
    (this.setToken ??= this.db.prepare("INSERT INTO meta (key, value) VALUES ('key_dump', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")).run(token);
  }

  private read(rows: number): boolean {
    const keys = (this.keys ??= this.start());
    let read = 0;
    for (const [hkey, id] of this.keysAfter().iterate(this.readTo, rows) as Iterable<[number, number]>) {
      keys.set(hkey, id);
      this.readTo = id;
      read++;
    }
    if (read < rows) this.complete = this.whole();
    if (this.complete) this.closeSide();
    return this.complete;
  }

  /** The key index to read the stored keys into: a true dump's, or an empty one sized for every stored winner. */
  private start(): KeyIndex {
    const dump = this.db.memory || this.dumpRefused ? null : this.trueDump();
    if (dump) {
      this.dumped = dump.keys.size;
      this.readTo = dump.maxId;
      return dump.keys;
    }
    // Sized for every stored winner at once: grown while reading, it held the old table beside the new one, which
    // raised the warm server's peak memory.
    return new KeyIndex(this.db.prepare('SELECT coalesce(sum(messages), 0) FROM usage_total').pluck().get() as number);
  }

  /** The dump beside the index, when its token is the index's and a sample of its keys are the messages' own. */
  private trueDump(): { keys: KeyIndex; maxId: number } | null {
    const dump = readKeyDump(keyDumpFile(this.db.name), (why) => {
      this.log(`the dedup keys saved beside the index are damaged (${why}), so they do not match it: reading them from the index`);
    });
    if (!dump) return null;
    const side = this.sideDb();
    const token = side.db.prepare(DUMP_TOKEN).pluck().get() as string | undefined;
    if (dump.stamp.schema !== SCHEMA_VERSION || !token || token !== dump.stamp.token) return null;
    const { hkeys, ids } = dump.keys.slotArrays();
    const hkeyOf = side.db.prepare('SELECT hkey FROM messages WHERE id = ?').pluck();
    const step = Math.max(1, Math.floor(ids.length / SAMPLED_SLOTS));
    for (let i = 0; i < ids.length; i += step) {
      if (ids[i] !== 0 && hkeyOf.get(ids[i]) !== hkeys[i]) {
        this.log('the dedup keys saved beside the index do not match it: reading them from the index');
        return null;
      }
    }
    return { keys: dump.keys, maxId: dump.stamp.maxId };
  }

  /**
   * Whether every stored winner is in the key index, once the reading is done: one key a message. A dump that missed
   * a change (a damaged file, an index written by another program) starts the reading over from the messages alone.
   */
  private whole(): boolean {
    if (this.dumped === null) return true;
    const stored = this.sideDb().db.prepare('SELECT count(*) FROM messages').pluck().get() as number;
    if (stored === this.keys!.size) return true;
    this.log(`the dedup keys saved beside the index hold ${this.keys!.size} keys for ${stored} messages: reading them from the index`);
    this.keys = null;
    this.dumped = null;
    this.dumpRefused = true;
    this.readTo = 0;
    return false;
  }

  /** The read-ahead's statement, on its own connection (see inMemory). */
  private keysAfter(): Database.Statement {
    if (this.db.memory) return (this.inMemory ??= this.db.prepare(KEYS_AFTER).raw(true));
    return this.sideDb().keysAfter;
  }

  private sideDb(): Side {
    if (!this.side) {
      const db = new Database(this.db.name, { readonly: true, fileMustExist: true });
      db.pragma(`cache_size = -${READ_AHEAD_CACHE_KB}`);
      this.side = { db, keysAfter: db.prepare(KEYS_AFTER).raw(true) };
    }
    return this.side;
  }

  private closeSide(): void {
    this.side?.db.close();
    this.side = null;
  }
}
