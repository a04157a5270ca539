// The writer's key index saved beside the index (`<index>.keys`), so that the next writer (a restart, a command's
// catch-up) takes it whole instead of reading every stored key from `messages`, which on a big history takes seconds
// of CPU before a command can write its first new line. The file is a cache: it holds the keys of a KeyIndex as they
// were when a writer closed, with the largest message id then and a token that the index's meta row `key_dump` holds
// while the file is true (writer.ts clears it in the transaction that removes or moves a key). Keys added since are
// the messages above that id, read from the index as before (stored-keys.ts).
// It holds the hkey of each message id from 1 to that largest id, in id order (NO_KEY for an id that holds no stored
// winner): message ids are rowids and nearly dense, so this is 4 bytes a key where the table's slots take 8 bytes
// for up to twice as many slots; the hash table is built again on load.
// A SHA-256 of the header and every hkey follows them: a damaged sector anywhere in the file is caught (a sample of
// keys checked against their messages passes over most of them), and a damaged dump is never taken.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { KeyIndex } from './key-index.ts';

/**
 * 04: 31-bit hkeys in id order, 4 bytes each (03: 53-bit ones, 8 bytes). A dump of another version (02 saved the
 * table's slots) is not taken, quietly: not damage.
 */
const FAMILY = 'CDKEYS';
const MAGIC = `${FAMILY}04`;
const HEADER_BYTES = 64;
const TOKEN_BYTES = 32;
const DIGEST_BYTES = 32;
/** An id with no stored winner (a message removed or moved since): hkeys are hashes, whole numbers >= 0. */
const NO_KEY = -1;
const HKEY_BYTES = Int32Array.BYTES_PER_ELEMENT;

/** What a key dump says of itself. */
export interface KeyDumpStamp {
  /** The schema version of the index it was taken from (a migration may renumber messages). */
  schema: number;
  /** The largest message id when it was taken: later messages are not in it. */
  maxId: number;
  /** Matches the index's meta `key_dump` while the dump holds every key up to maxId. */
  token: string;
}

export const keyDumpFile = (indexFile: string): string => `${indexFile}.keys`;

/** A token for a new dump: unique enough to tell this dump from the earlier ones of the same index. */
export function newDumpToken(): string {
  const token = `${Date.now().toString(36)}-${process.pid.toString(36)}-${Math.random().toString(36).slice(2)}`;
  return token.padEnd(TOKEN_BYTES, '-').slice(0, TOKEN_BYTES);
}

/**
 * Writes the key index whole to a temp file, flushed to disk, then renames it over the dump: a reader finds the old
 * dump, the new one, or none. The token goes to the index only after this returns (the caller's job). Every id of the
 * key index must be at most `stamp.maxId`.
 */
export function writeKeyDump(file: string, keys: KeyIndex, stamp: KeyDumpStamp): void {
  const { hkeys, ids } = keys.slotArrays();
  const byId = new Int32Array(stamp.maxId).fill(NO_KEY);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (id === 0) continue;
    if (id > stamp.maxId) throw new RangeError(`message id ${id} is above the dump's largest id ${stamp.maxId}`);
    byId[id - 1] = hkeys[i]!;
  }
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(stamp.schema, 8);
  header.writeDoubleLE(keys.size, 16);
  header.writeDoubleLE(stamp.maxId, 24);
  header.write(stamp.token, 32, TOKEN_BYTES, 'latin1');
  const parts = [header, new Uint8Array(byId.buffer)];
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    for (const part of parts) fs.writeSync(fd, part);
    fs.writeSync(fd, digestOf(parts));
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
}

/**
 * The key index of a dump and what it says of itself; null when there is none, one of another version (a writer of
 * this version writes its own at close), or it is not whole (another format, a
 * short file, bytes that do not match its checksum, hkeys that cannot be a key index's: `damaged` is told which).
 */
export function readKeyDump(file: string, damaged: (why: string) => void = () => {}): { keys: KeyIndex; stamp: KeyDumpStamp } | null {
  const dump = readWhole(file);
  if (typeof dump !== 'string') return dump;
  damaged(dump);
  return null;
}

/** The dump, null when there is none (or one of another version), or why it is not whole. */
function readWhole(file: string): { keys: KeyIndex; stamp: KeyDumpStamp } | string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  let bytes: Uint8Array;
  try {
    const size = fs.fstatSync(fd).size;
    // Its own ArrayBuffer: the hkeys are read in place as 32-bit numbers, which a pooled Buffer's offset may not align.
    bytes = new Uint8Array(size);
    if (fs.readSync(fd, bytes, 0, size, 0) !== size) return 'short';
  } finally {
    fs.closeSync(fd);
  }
  const header = Buffer.from(bytes.buffer, 0, Math.min(HEADER_BYTES, bytes.length));
  const magic = header.toString('latin1', 0, 8);
  if (header.length === HEADER_BYTES && magic !== MAGIC && magic.startsWith(FAMILY)) return null;
  if (header.length !== HEADER_BYTES || magic !== MAGIC) return 'another format';
  const count = header.readDoubleLE(16);
  const maxId = header.readDoubleLE(24);
  if (!Number.isInteger(maxId) || maxId < 0 || bytes.length !== HEADER_BYTES + maxId * HKEY_BYTES + DIGEST_BYTES) return 'not the size its header says';
  const body = bytes.subarray(0, HEADER_BYTES + maxId * HKEY_BYTES);
  if (!Buffer.from(bytes.buffer, body.length, DIGEST_BYTES).equals(digestOf([body]))) return 'its bytes do not match their checksum';
  const keys = keyIndexOf(new Int32Array(bytes.buffer, HEADER_BYTES, maxId), count);
  if (!keys) return 'hkeys that cannot be a key index';
  return { keys, stamp: { schema: header.readUInt32LE(8), maxId, token: header.toString('latin1', 32, 32 + TOKEN_BYTES) } };
}

/** The key index of hkeys in id order, or null when they are not `count` distinct hkeys. */
function keyIndexOf(byId: Int32Array, count: number): KeyIndex | null {
  if (!Number.isInteger(count) || count < 0 || count > byId.length) return null;
  const keys = new KeyIndex(count);
  for (let i = 0; i < byId.length; i++) {
    const hkey = byId[i]!;
    if (hkey === NO_KEY) continue;
    if (hkey < 0) return null;
    keys.set(hkey, i + 1);
  }
  // Fewer: an hkey twice (the second set replaced the first); more: the header's count is not its own.
  return keys.size === count ? keys : null;
}

function digestOf(parts: readonly Uint8Array[]): Buffer {
  const hash = crypto.createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}
