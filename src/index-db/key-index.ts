// hkey -> message id of every stored winner, as an open-addressing hash table over typed arrays. A Map keyed by
// 53-bit numbers hashes heap numbers and holds an entry object per key: on a cold index of ~200k messages its lookups
// were a tenth of the writer's time. Linear probing; deletion shifts the following entries back (no tombstones).

/** Message ids are SQLite rowids, always >= 1, so 0 marks an empty slot. */
const EMPTY = 0;
/**
 * Ids are held in 32 bits: 12 bytes a slot instead of 16, a quarter less memory for the table. A rowid above this
 * would need far more transcripts than any history holds.
 */
const MAX_ID = 0xffff_ffff;

export class KeyIndex {
  private hkeys: Float64Array;
  private ids: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.hkeys = new Float64Array(size);
    this.ids = new Uint32Array(size);
    this.mask = size - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Its memory: 12 bytes a slot, at least twice the keys it holds (twice the capacity it was made for). */
  get slots(): number {
    return this.ids.length;
  }

  /** Its slots as they are (for key-dump.ts, which saves the keys of them): hkeys and ids, an id of 0 marking an empty slot. */
  slotArrays(): { hkeys: Float64Array; ids: Uint32Array } {
    return { hkeys: this.hkeys, ids: this.ids };
  }

  get(hkey: number): number | undefined {
    const { hkeys, ids, mask } = this;
    for (let i = this.home(hkey); ; i = (i + 1) & mask) {
      const id = ids[i]!;
      if (id === EMPTY) return undefined;
      if (hkeys[i] === hkey) return id;
    }
  }

  set(hkey: number, id: number): void {
    if (!(id >= 1 && id <= MAX_ID && Number.isInteger(id))) throw new RangeError(`message id must be a whole number from 1 to ${MAX_ID}, got ${id}`);
    if ((this.count + 1) * 2 > this.ids.length) this.grow();
    const { hkeys, ids, mask } = this;
    for (let i = this.home(hkey); ; i = (i + 1) & mask) {
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
    const { hkeys, ids, mask } = this;
    let i = this.home(hkey);
    for (; ; i = (i + 1) & mask) {
      if (ids[i] === EMPTY) return;
      if (hkeys[i] === hkey) break;
    }
    this.count--;
    // Shift back every later entry of the run that may no longer be reachable past the hole at i.
    for (let j = (i + 1) & mask; ids[j] !== EMPTY; j = (j + 1) & mask) {
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

  /** hkeys are already hashes: their low 32 bits (both FNV lanes) pick the slot. */
  private home(hkey: number): number {
    return (hkey >>> 0) & this.mask;
  }

  private grow(): void {
    const { hkeys, ids } = this;
    this.hkeys = new Float64Array(hkeys.length * 2);
    this.ids = new Uint32Array(ids.length * 2);
    this.mask = this.ids.length - 1;
    this.count = 0;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== EMPTY) this.set(hkeys[i]!, ids[i]!);
  }
}
