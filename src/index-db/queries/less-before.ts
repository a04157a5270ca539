// A long range's sums read as all time less the part before it (span-files.ts readsAsTotal: a year, all time): an
// all-time rollup's rows less those of the units before the range, key by key, a row per key instead of one per unit.
// One rule for every such read: a key whose messages all lie before the range is dropped (never listed at a rounding
// of its cost), and a key in two all-time rows (a session in two folders) has them added first.

/** Where a row's key (one or two columns), its message count and the sums to subtract are. */
export interface RowShape {
  readonly keys: readonly [number] | readonly [number, number];
  readonly messages: number;
  /** The columns to add and subtract, the message count among them; the others (a last time) stay the first row's. */
  readonly sums: readonly number[];
}

/** The rows of `total` less those of `before` with the same key, in `total`'s order; changes `total`'s rows. */
export function lessBefore<R extends number[]>(total: R[], before: readonly R[], shape: RowShape): R[] {
  const [k0, k1] = shape.keys;
  const byKey = new Map<number, Map<number, R>>();
  const find = (r: R): R | undefined => byKey.get(r[k0]!)?.get(k1 === undefined ? 0 : r[k1]!);
  const kept: R[] = [];
  for (const r of total) {
    const same = find(r);
    if (same) {
      for (const c of shape.sums) same[c]! += r[c]!;
      continue;
    }
    let inner = byKey.get(r[k0]!);
    if (!inner) byKey.set(r[k0]!, (inner = new Map()));
    inner.set(k1 === undefined ? 0 : r[k1]!, r);
    kept.push(r);
  }
  for (const b of before) {
    const r = find(b);
    if (r) for (const c of shape.sums) r[c]! -= b[c]!;
  }
  return kept.filter((r) => r[shape.messages]! > 0);
}
