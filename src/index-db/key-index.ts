// hkey -> message id of every stored winner, as an open-addressing hash table over typed arrays. A Map keyed by
// 53-bit numbers hashes heap numbers and holds an entry object per key: on a cold index of ~200k messages its lookups
// were a tenth of the writer's time. Linear probing; deletion shifts the following entries back (no tombstones).
// Its size is not a power of two: doubled at half full, the table could be a quarter full, and while doubling it held
// the old slots beside twice as many (bench/RESULTS.md, stop 25). It grows by half at MAX_LOAD instead, so once grown
// it is 47-70% full whatever the count; a key's home slot scales its hash to the size.

/** Message ids are SQLite rowids, always >= 1, so 0 marks an empty slot. */
const EMPTY = 0;
/**
 * Ids are held in 32 bits: 12 bytes a slot instead of 16, a quarter less memory for the table. A rowid above this
 * would need far more transcripts than any history holds.
 */
const MAX_ID = 0xffff_ffff;
/** Past this share of slots held it grows. Most lookups of a first index miss, and a miss probes ~6 slots here. */
const MAX_LOAD = 0.7;
/** Made for n keys, n fill this share of it: room for a sixth more before it grows. */
const MADE_LOAD = 0.6;
const GROWTH = 1.5;
const MIN_SLOTS = 16;
const TWO_32 = 2 ** 32;

export class KeyIndex {
  private hkeys: Float64Array;
  private ids: Uint32Array;
  private count = 0;

  constructor(capacity = 1024) {
    const size = Math.max(MIN_SLOTS, Math.ceil(capacity / MADE_LOAD));
    this.hkeys = new Float64Array(size);
    this.ids = new Uint32Array(size);
  }

  get size(): number {
    return this.count;
  }

  /** Its memory: 12 bytes a slot, the keys it holds filling at most MAX_LOAD of them. */
  get slots(): number {
    return this.ids.length;
  }

  /** Its slots as they are (for key-dump.ts, which saves the keys of them): hkeys and ids, an id of 0 marking an empty slot. */
  slotArrays(): { hkeys: Float64Array; ids: Uint32Array } {
    return { hkeys: this.hkeys, ids: this.ids };
  }

  get(hkey: number): number | undefined {
    const { hkeys, ids } = this;
    for (let i = this.home(hkey); ; i = this.next(i)) {
      const id = ids[i]!;
      if (id === EMPTY) return undefined;
      if (hkeys[i] === hkey) return id;
    }
  }

  set(hkey: number, id: number): void {
    if (!(id >= 1 && id <= MAX_ID && Number.isInteger(id))) throw new RangeError(`message id must be a whole number from 1 to ${MAX_ID}, got ${id}`);
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

  /**
   * hkeys are already hashes: their low 32 bits (both FNV lanes), scaled to the size, pick the slot. The product is
   * rounded above 2^53, by far less than one slot's width, and always to the same slot.
   */
  private home(hkey: number): number {
    return Math.floor(((hkey >>> 0) * this.ids.length) / TWO_32);
  }

  private next(i: number): number {
    return i + 1 === this.ids.length ? 0 : i + 1;
  }

  private grow(): void {
    const { hkeys, ids } = this;
    const size = Math.ceil(ids.length * GROWTH);
    this.hkeys = new Float64Array(size);
    this.ids = new Uint32Array(size);
    this.count = 0;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== EMPTY) this.set(hkeys[i]!, ids[i]!);
  }
}
