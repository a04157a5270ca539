// Index files seen from outside: one value read by a second, read-only connection (what another process would see),
// and damage done to the file as a failing disk would.
import fs from 'node:fs';
import Database from 'better-sqlite3';

export function sqlValue(file: string, query: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(query).pluck().get();
  } finally {
    db.close();
  }
}

/**
 * Overwrites the root page of each rollup table with garbage, as a failing disk would. Opening the index reads none
 * of them (the writer loads names and keys only), so only a query or a write can find the damage.
 */
export function damageRollupPages(file: string): void {
  const page = sqlValue(file, 'PRAGMA page_size') as number;
  const fd = fs.openSync(file, 'r+');
  try {
    for (const table of ['usage_hourly', 'usage_hourly_model', 'usage_daily']) {
      const root = sqlValue(file, `SELECT rootpage FROM sqlite_schema WHERE name = '${table}'`) as number;
      fs.writeSync(fd, Buffer.alloc(page, 0x5a), 0, page, (root - 1) * page);
    }
  } finally {
    fs.closeSync(fd);
  }
}
