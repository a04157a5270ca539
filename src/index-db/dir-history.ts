// Whether an index file already holds transcripts read from a folder: a configured dir that is missing at start
// (an unmounted or not yet synced folder) is then a warning, since the index is the only copy of its history.
import fs from 'node:fs';
import Database from 'better-sqlite3';

/** True when `indexFile` exists and lists a file under `folder`; false when it does not or is no readable index. */
export function indexHasFilesUnder(indexFile: string, folder: string): boolean {
  if (!fs.existsSync(indexFile)) return false;
  const prefix = folder.endsWith('/') || folder.endsWith('\\') ? folder : `${folder}${folder.includes('\\') ? '\\' : '/'}`;
  let db: Database.Database | null = null;
  try {
    db = new Database(indexFile, { readonly: true, fileMustExist: true, timeout: 1000 });
    return db.prepare('SELECT 1 FROM files WHERE substr(path, 1, length(@p)) = @p LIMIT 1').get({ p: prefix }) !== undefined;
  } catch (err) {
    // Not a database, damaged, locked or not ours: nothing proves the folder was read, so it is a typo.
    if (err instanceof Database.SqliteError) return false;
    throw err;
  } finally {
    db?.close();
  }
}
