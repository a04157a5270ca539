// Schema versioning through PRAGMA user_version: a fresh file (version 0) gets every
// migration; a known older version gets the missing ones; a version we do not know is reported
// so the caller can rebuild the file; a newer one is another install's, never rebuilt.
import type Database from 'better-sqlite3';
import { NewerSchemaError } from './errors.ts';
import { migrations } from './migrations/index.ts';

export const SCHEMA_VERSION = migrations.length;

/**
 * Returns false when the file's schema version is not one this code can migrate; throws NewerSchemaError when a newer
 * version of this code wrote it. `log` is told before an existing file is migrated: some migrations rewrite every
 * message (020: seconds on a big history, bench/RESULTS.md stop 26), and nothing else is said meanwhile.
 */
export function migrate(db: Database.Database, log: (msg: string) => void = () => {}): boolean {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) throw new NewerSchemaError(db.name, version, SCHEMA_VERSION);
  if (version < 0) return false;
  if (version === SCHEMA_VERSION) return true;
  if (version > 0) log(`index ${db.name}: updating it from schema ${version} to ${SCHEMA_VERSION}, once (a big index takes a moment)`);
  db.transaction(() => {
    for (let v = version; v < SCHEMA_VERSION; v++) {
      const m = migrations[v]!;
      if (typeof m === 'string') db.exec(m);
      else m(db);
    }
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
  return true;
}
