// The stored form of a dedup key (migrations 009 and 020): an API response's key 'rmsg_01<a> req_011C<b>' drops its
// constant parts. When <a> and <b> have the lengths Claude Code's ids have (22 and 20 of [0-9A-Za-z]), their 42
// characters are kept at 6 bits each in a 32-byte BLOB (44 bytes as text: the largest part of a row, issue 35's bound
// on the index's size); other ids of that shape as the text 'R<a> <b>'; any other key whole. The writer's keys all
// start with a lower-case letter ('r', 'm', 'f'), so an upper-case 'R' marks the packed text, and a BLOB is only ever
// the packed ids. Readers turn `stored_key` back into the key with `unpackKey`; the packing is one-to-one, so two
// keys are equal exactly when their stored forms are (the writer's lookup of a key's alternates compares those).
// Must pack exactly as migration 009's SQL packs text (test/index-db/narrow-messages.test.ts checks both).
const MSG = 'rmsg_01';
const REQ = ' req_011C';
const ID_LENGTHS = [22, 20] as const;
const PACKED_BYTES = 32;
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Char code -> 6-bit value, -1 for a character outside DIGITS. */
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS.charCodeAt(i)] = i;

/** What `stored_key` holds: the packed ids (BLOB) or text. */
export type StoredKey = string | Uint8Array;

/** The value of `stored_key` for a key. */
export function packKey(key: string): StoredKey {
  if (!key.startsWith(MSG)) return key;
  const space = key.indexOf(' ', MSG.length);
  if (space < 0 || !key.startsWith(REQ, space) || key.includes(' ', space + 1)) return key;
  const a = key.slice(MSG.length, space);
  const b = key.slice(space + REQ.length);
  return packIds(a, b) ?? `R${a} ${b}`;
}

/** The key a `stored_key` holds. */
export function unpackKey(stored: StoredKey): string {
  if (typeof stored !== 'string') return unpackIds(stored);
  if (stored.startsWith('R')) {
    const space = stored.indexOf(' ');
    return `${MSG}${stored.slice(1, space)}${REQ}${stored.slice(space + 1)}`;
  }
  return stored;
}

/** `stored_key` as migration 020 rewrites it: the packed text 'R<a> <b>' as a BLOB where its ids fit one. */
export function repackStored(stored: StoredKey): StoredKey {
  return typeof stored === 'string' && stored.startsWith('R') ? packKey(unpackKey(stored)) : stored;
}

function packIds(a: string, b: string): Uint8Array | null {
  if (a.length !== ID_LENGTHS[0] || b.length !== ID_LENGTHS[1]) return null;
  const out = Buffer.allocUnsafe(PACKED_BYTES);
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (const id of [a, b]) {
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      const v = c < 128 ? VALUE[c]! : -1;
      if (v < 0) return null;
      acc = (acc << 6) | v;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[at++] = acc >>> bits;
        acc &= (1 << bits) - 1;
      }
    }
  }
  // 42 x 6 = 252 bits: the last byte's low 4 bits are 0.
  out[at] = acc << (8 - bits);
  return out;
}

function unpackIds(bytes: Uint8Array): string {
  if (bytes.length !== PACKED_BYTES) throw new Error(`a stored key of ${bytes.length} bytes: the packed form has ${PACKED_BYTES}`);
  let acc = 0;
  let bits = 0;
  let at = 0;
  const read = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) {
      if (bits < 6) {
        acc = (acc << 8) | bytes[at++]!;
        bits += 8;
      }
      bits -= 6;
      s += DIGITS[(acc >>> bits) & 63];
      acc &= (1 << bits) - 1;
    }
    return s;
  };
  const a = read(ID_LENGTHS[0]);
  return `${MSG}${a}${REQ}${read(ID_LENGTHS[1])}`;
}
