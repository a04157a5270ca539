// One value read from an index file by a second, read-only connection (what another process would see).
import Database from 'better-sqlite3';

export function sqlValue(file: string, query: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(query).pluck().get();
  } finally {
    db.close();
  }
}
