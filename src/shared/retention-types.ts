// GET /api/retention (issue 34): what only the index still holds, what Claude Code's cleanup will delete next, the
// kept transcripts and the last backup. Apart from api-types.ts so the retention feature stays in its own files.

/** Transcripts Claude Code deletes at a start: modification time older than its cleanup period. */
export interface DueCounts {
  files: number;
  /** Sessions with a transcript among them. */
  sessions: number;
  bytes: number;
  /** Cost of the usage entries read from them. */
  cost: number;
  /** Modification time of the oldest (ISO), null when there is none. */
  oldest: string | null;
}

export interface OnlyInIndexMonth {
  /** Local month, YYYY-MM. */
  month: string;
  sessions: number;
  messages: number;
  cost: number;
}

/** Usage whose transcripts are gone from disk: kept only in the index. */
export interface OnlyInIndex {
  /** Sessions every transcript of which is gone. */
  sessions: number;
  /** Usage entries read from transcripts that are gone, and their cost. */
  messages: number;
  cost: number;
  /** The same per local month of the entries, oldest first. */
  months: OnlyInIndexMonth[];
}

export interface RetentionDir {
  /** The config dir. */
  dir: string;
  machine: string;
  /** Its settings.json's cleanupPeriodDays (30 when the file or the key is missing, or the value is bad). */
  cleanupPeriodDays: number;
  /** Why the settings file was not used (not JSON, a period that is not a positive integer); null when fine. */
  settingsError: string | null;
  onlyInIndex: OnlyInIndex;
  /** What Claude Code deletes at its next start. */
  dueForCleanup: DueCounts;
  /** What becomes due within the next 7 days (not yet due now). */
  dueWithin7Days: DueCounts;
}

export interface Retention {
  dirs: RetentionDir[];
  /** The folder transcripts are kept in (--keep-transcripts); null when keeping is off. */
  kept: { dir: string; files: number; bytes: number } | null;
  /** The last `cost-dashboard backup` of this index; null when none was taken. */
  backup: { lastAt: string; path: string } | null;
}
