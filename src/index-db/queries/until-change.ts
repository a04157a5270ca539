// Figures that every answer repeats (the files' health counts, the project and model tables) are computed once per
// change of the index instead of once per request: on a big history the files' counts alone were a good part of an overview.
import type Database from 'better-sqlite3';

/**
 * A mark that differs after any change a connection can see: a row changed by the connection itself (its pending
 * writes included: `total_changes()`), a commit of another connection (`data_version`), or its open transaction
 * ending (a rolled-back transaction changes no count, but leaves the transaction).
 */
export function changeMark(db: Database.Database): () => string {
  const st = db.prepare('SELECT total_changes(), data_version FROM pragma_data_version').raw(true);
  return () => {
    const [changes, version] = st.get() as [number, number];
    return `${changes}:${version}:${db.inTransaction ? 1 : 0}`;
  };
}

/** `compute()` again only when the mark moved since its last value; its value is shared, so callers never change it. */
export function untilChange<T>(mark: () => string, compute: () => T): () => T {
  let at: string | null = null;
  let value: T;
  return () => {
    const now = mark();
    if (now !== at) {
      value = compute();
      at = now;
    }
    return value;
  };
}
