// hkey -> message id of every stored winner, as an open-addressing hash table over typed arrays. A Map keyed by
// numbers holds an entry object per key: on a cold index of ~200k messages its lookups were a tenth of the writer's
// time. Linear probing; deletion shifts the following entries back (no tombstones).
// Its size is not a power of two: doubled at half full, the table could be a quarter full, and while doubling it held
// the old slots beside twice as many (bench/RESULTS.md, stop 25). It grows by half at MAX_LOAD instead, so once grown
// it is 47-70% full whatever the count; a key's home slot scales its hash to the size.
import { HKEY_MAX } from '../workers/protocol.ts';

/** Message ids are SQLite rowids, always >= 1, so 0 marks an empty slot. */
const EMPTY = 0;
/**
 * Ids are held in 32 bits, hkeys in 31 (HKEY_MAX): 8 bytes a slot. A rowid above this would need far more transcripts
 * than any history holds.
 */
const MAX_ID = 0xffff_ffff;
/** Past this share of slots held it grows. Most lookups of a first index miss, and a miss probes ~6 slots here. */
const MAX_LOAD = 0.7;
/** Made for n keys, n fill this share of it: room for a sixth more before it grows. */
const MADE_LOAD = 0.6;
const GROWTH = 1.5;
const MIN_SLOTS = 16;
const HKEY_SPAN = HKEY_MAX + 1;

export class KeyIndex {
  private hkeys: Int32Array;
  private ids: Uint32Array;
  private count = 0;

  constructor(capacity = 1024) {
    const size = Math.max(MIN_SLOTS, Math.ceil(capacity / MADE_LOAD));
    this.hkeys = new Int32Array(size);
    this.ids = new Uint32Array(size);
  }

  get size(): number {
    return this.count;
  }

  /** Its memory: 8 bytes a slot, the keys it holds filling at most MAX_LOAD of them. */
  get slots(): number {
    return this.ids.length;
  }

  /** Its slots as they are (for key-dump.ts, which saves the keys of them): hkeys and ids, an id of 0 marking an empty slot. */
  slotArrays(): { hkeys: Int32Array; ids: Uint32Array } {
    return { hkeys: this.hkeys, ids: this.ids };
  }

  get(hkey: number): number | undefined {
    // No other number is ever set, and its slot would lie outside the table.
    if ((hkey & HKEY_MAX) !== hkey) return undefined;
    const { hkeys, ids } = this;
    for (let i = this.home(hkey); ; i = this.next(i)) {
      const id = ids[i]!;
      if (id === EMPTY) return undefined;
      if (hkeys[i] === hkey) return id;
    }
  }

  set(hkey: number, id: number): void {
    if (!(id >= 1 && id <= MAX_ID && Number.isInteger(id))) throw new RangeError(`message id must be a whole number from 1 to ${MAX_ID}, got ${id}`);
    // An Int32Array would keep another number than one outside the range.
    if ((hkey & HKEY_MAX) !== hkey) throw new RangeError(`an hkey must be a whole number from 0 to ${HKEY_MAX}, got ${hkey}`);
    if (this.count + 1 > this.ids.length * MAX_LOAD) this.grow();
    const { hkeys, ids } = this;
    for (let i = this.home(hkey); ; i = this.next(i)) {
      if (ids[i] === EMPTY) {
        hkeys[i] = hkey;
        ids[i] = id;
        this.count++;
        return;
      }
      if (hkeys[i] === hkey) {
        ids[i] = id;
        return;
      }
    }
  }

  delete(hkey: number): void {
    if ((hkey & HKEY_MAX) !== hkey) return;
    const { hkeys, ids } = this;
    let i = this.home(hkey);
    for (; ; i = this.next(i)) {
      if (ids[i] === EMPTY) return;
      if (hkeys[i] === hkey) break;
    }
    this.count--;
    // Shift back every later entry of the run that may no longer be reachable past the hole at i.
    for (let j = this.next(i); ids[j] !== EMPTY; j = this.next(j)) {
      const home = this.home(hkeys[j]!);
      // the entry at j stays when its home lies cyclically in (i, j]
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (stays) continue;
      hkeys[i] = hkeys[j]!;
      ids[i] = ids[j]!;
      i = j;
    }
    ids[i] = EMPTY;
  }

  /** hkeys are already hashes, scaled to the size they pick the slot (the product stays below 2^53: exact). */
  private home(hkey: number): number {
    return Math.floor((hkey * this.ids.length) / HKEY_SPAN);
  }

  private next(i: number): number {
    return i + 1 === this.ids.length ? 0 : i + 1;
  }

  private grow(): void {
    const { hkeys, ids } = this;
    const size = Math.ceil(ids.length * GROWTH);
    this.hkeys = new Int32Array(size);
    this.ids = new Uint32Array(size);
    this.count = 0;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== EMPTY) this.set(hkeys[i]!, ids[i]!);
  }
}
