// Older index files made from a current one: what a migration added, taken out again, and the schema version from
// before it (its place in the list), so a test can open the file as that migration's first writer would.
import { migrations } from '../../src/index-db/migrations/index.ts';
import { sql as causes } from '../../src/index-db/migrations/014-causes.ts';
import { CAUSE_KEYS } from '../../src/index-db/schema/rollups.ts';

/** The schema version a file has before `migration` (one of the migrations list) runs. */
export function versionBefore(migration: string): number {
  const at = migrations.indexOf(migration);
  if (at < 0) throw new Error('not a migration of the list');
  return at;
}

/** Takes out what migration 014 (what caused each message) added: its columns, its names and its rollup. */
export const UNDO_CAUSES = `${['messages', 'alternates'].flatMap((t) => CAUSE_KEYS.map((k) => `ALTER TABLE ${t} DROP COLUMN ${k};`)).join(' ')}
  DROP TABLE causes; DROP TABLE usage_hourly_cause;`;

export const CAUSES_MIGRATION = causes;
