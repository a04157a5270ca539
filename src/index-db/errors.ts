// What went wrong with the index file, by what the caller must do about it. SQLite's result codes
// (better-sqlite3's SqliteError.code, e.g. SQLITE_FULL, SQLITE_IOERR_WRITE) decide the kind.

export type IndexFailure =
  /** The disk (or the file's quota) is full: keep serving, retry later. */
  | 'full'
  /** Another connection holds a lock. */
  | 'busy'
  /** The file, its folder or the file system is read-only, or not ours to write. */
  | 'readonly'
  /** The file is damaged: recover by rebuilding (the damaged file is kept aside). */
  | 'corrupt'
  /** Any other I/O failure, or the file cannot be opened. */
  | 'io'
  /** A row broke a rule of the schema (a constraint, a type): skip that row, the file is fine. */
  | 'rejected';

export class IndexWriteError extends Error {
  constructor(
    readonly kind: IndexFailure,
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'IndexWriteError';
  }
}

/**
 * The file holds a schema newer than this code knows: another install (a newer clone, before a downgrade) wrote it. It
 * is not damage: the file is left as it is, for that version to open.
 */
export class NewerSchemaError extends IndexWriteError {
  constructor(file: string, version: number, known: number) {
    super('readonly', `index ${file} was written by a newer version of cost-dashboard (schema ${version}, this one knows ${known}); it was left as it is: run that version, or give this one another --index`, null);
    this.name = 'NewerSchemaError';
  }
}

/** The SQLite result code of an error, or null when it did not come from SQLite. */
export function sqliteCode(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : null;
}

export function failureOf(err: unknown): IndexFailure {
  const code = sqliteCode(err) ?? '';
  if (code.startsWith('SQLITE_FULL')) return 'full';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM') || code.startsWith('SQLITE_AUTH')) return 'readonly';
  if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) return 'corrupt';
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_NOMEM')) return 'io';
  // Node's own file errors (EACCES, EROFS, ENOSPC) around the file
  const errno = (err as { code?: unknown } | null)?.code;
  if (errno === 'ENOSPC') return 'full';
  if (errno === 'EACCES' || errno === 'EPERM' || errno === 'EROFS') return 'readonly';
  if (typeof errno === 'string' && errno.startsWith('E')) return 'io';
  return 'rejected';
}

export function writeErrorOf(err: unknown): IndexWriteError {
  if (err instanceof IndexWriteError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new IndexWriteError(failureOf(err), message, sqliteCode(err));
}

/** A failure of the file or the machine, not of one row. */
export function isEnvironmental(err: IndexWriteError): boolean {
  return err.kind !== 'rejected';
}
