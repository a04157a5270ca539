// The writer's key index saved beside the index (`<index>.keys`), so that the next writer (a restart, a command's
// catch-up) takes it whole instead of reading every stored key from `messages`, which on a big history takes seconds
// of CPU before a command can write its first new line. The file is a cache: it holds the slots of a
// KeyIndex as they were when a writer closed, with the largest message id then and a token that the index's meta
// row `key_dump` holds while the file is true (writer.ts clears it in the transaction that removes or moves a key).
// Keys added since are the messages above that id, read from the index as before (stored-keys.ts).
// A SHA-256 of the header and every slot follows the slots: a damaged sector anywhere in the file is caught (a sample of
// slots checked against their messages passed over most of them), and a damaged dump is never taken.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { KeyIndex } from './key-index.ts';

const MAGIC = 'CDKEYS02';
const HEADER_BYTES = 64;
const TOKEN_BYTES = 32;
const DIGEST_BYTES = 32;

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
 * dump, the new one, or none. The token goes to the index only after this returns (the caller's job).
 */
export function writeKeyDump(file: string, keys: KeyIndex, stamp: KeyDumpStamp): void {
  const { hkeys, ids } = keys.slotArrays();
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(stamp.schema, 8);
  header.writeUInt32LE(ids.length, 12);
  header.writeDoubleLE(keys.size, 16);
  header.writeDoubleLE(stamp.maxId, 24);
  header.write(stamp.token, 32, TOKEN_BYTES, 'latin1');
  const parts = [header, new Uint8Array(hkeys.buffer, hkeys.byteOffset, hkeys.byteLength), new Uint8Array(ids.buffer, ids.byteOffset, ids.byteLength)];
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
 * The key index of a dump and what it says of itself; null when there is none, or it is not whole (another format, a
 * short file, bytes that do not match its checksum, slots that cannot be a key index's: `damaged` is told which).
 */
export function readKeyDump(file: string, damaged: (why: string) => void = () => {}): { keys: KeyIndex; stamp: KeyDumpStamp } | null {
  const dump = readWhole(file);
  if (typeof dump !== 'string') return dump;
  damaged(dump);
  return null;
}

/** The dump, null when there is none, or why it is not whole. */
function readWhole(file: string): { keys: KeyIndex; stamp: KeyDumpStamp } | string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    if (fs.readSync(fd, header, 0, HEADER_BYTES, 0) !== HEADER_BYTES || header.toString('latin1', 0, 8) !== MAGIC) return 'another format';
    const slots = header.readUInt32LE(12);
    const count = header.readDoubleLE(16);
    if (fs.fstatSync(fd).size !== HEADER_BYTES + slots * 12 + DIGEST_BYTES) return 'not the size its header says';
    const hkeys = new Float64Array(slots);
    const ids = new Uint32Array(slots);
    const digest = Buffer.alloc(DIGEST_BYTES);
    const into = (bytes: Uint8Array, at: number): boolean => fs.readSync(fd, bytes, 0, bytes.byteLength, at) === bytes.byteLength;
    const hkeyBytes = new Uint8Array(hkeys.buffer);
    const idBytes = new Uint8Array(ids.buffer);
    if (!into(hkeyBytes, HEADER_BYTES) || !into(idBytes, HEADER_BYTES + slots * 8) || !into(digest, HEADER_BYTES + slots * 12)) {
      return 'short';
    }
    if (!digest.equals(digestOf([header, hkeyBytes, idBytes]))) return 'its bytes do not match their checksum';
    let keys: KeyIndex;
    try {
      keys = KeyIndex.fromSlots(hkeys, ids, count);
    } catch {
      return 'slots that cannot be a key index';
    }
    const stamp = { schema: header.readUInt32LE(8), maxId: header.readDoubleLE(24), token: header.toString('latin1', 32, 32 + TOKEN_BYTES) };
    return { keys, stamp };
  } finally {
    fs.closeSync(fd);
  }
}

function digestOf(parts: readonly Uint8Array[]): Buffer {
  const hash = crypto.createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}
