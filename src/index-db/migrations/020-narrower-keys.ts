// Migration 020 (issue 35's bound on the index's size), the dedup key's two columns narrower:
// - `stored_key`: an API response's key, stored as the text 'R<a> <b>' since migration 009, becomes a 32-byte BLOB
//   where its ids have the lengths Claude Code's have (key-packing.ts), 12 bytes less a row, packed by the writer's
//   own function. The virtual `key` column goes: SQL cannot read a BLOB back into the key, and the writer, its only
//   reader, now reads `stored_key` through `unpackKey`. Dropping a virtual column rewrites no row.
// - `hkey`: 31 bits instead of 53 (4 bytes a row instead of 8, and as much in the key dump). Every winner's hkey is
//   its key's new hash, or the next free one when another winner's key has that hash, as the writer places keys
//   (stored-copies.ts); an alternate takes its winner's. The key dump of the file before is of another schema and is
//   not taken (stored-keys.ts reads every hkey from the messages once, and the writer's close saves a new dump).
// Run again on a file that has had it (a test that set the version back), it changes nothing but to set the hkeys
// again the same way.
import type Database from 'better-sqlite3';
import { hashKey, nextHkey } from '../../workers/protocol.ts';
import { KeyIndex } from '../key-index.ts';
import { repackStored, unpackKey, type StoredKey } from '../key-packing.ts';

export function narrowerKeys(db: Database.Database): void {
  db.function('repack_stored_key', { deterministic: true }, (stored: StoredKey) => repackStored(stored));
  for (const table of ['messages', 'alternates']) {
    // Packed text whose ids do not fit a BLOB is given back as it is.
    db.exec(`UPDATE ${table} SET stored_key = repack_stored_key(stored_key) WHERE substr(stored_key, 1, 1) = 'R'`);
    const columns = db.prepare(`PRAGMA table_xinfo(${table})`).all() as { name: string }[];
    if (columns.some((c) => c.name === 'key')) db.exec(`ALTER TABLE ${table} DROP COLUMN key`);
  }

  // Winners have distinct keys, so any order of the rows gives each its own hkey. The keys whose hkey is not their
  // hash (few: a shared 31-bit hash) are kept by key for their alternates.
  const count = db.prepare('SELECT count(*) FROM messages').pluck().get() as number;
  const taken = new KeyIndex(count);
  const moved = new Map<string, number>();
  db.function('winner_hkey', { deterministic: false }, (id: number, stored: StoredKey) => {
    const key = unpackKey(stored);
    const hash = hashKey(key);
    let hkey = hash;
    while (taken.get(hkey) !== undefined) hkey = nextHkey(hkey);
    taken.set(hkey, id);
    if (hkey !== hash) moved.set(key, hkey);
    return hkey;
  });
  db.function('alternate_hkey', { deterministic: true }, (stored: StoredKey) => {
    const key = unpackKey(stored);
    return moved.get(key) ?? hashKey(key);
  });
  db.exec('UPDATE messages SET hkey = winner_hkey(id, stored_key)');
  db.exec('UPDATE alternates SET hkey = alternate_hkey(stored_key)');
}
