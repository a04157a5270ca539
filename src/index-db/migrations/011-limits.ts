// Schema v11: plan limits (issue 33). Every official reading of a limit window (the statusline's `rate_limits`, the
// probe's `get_usage`), one row per window, instant, source and machine, so a reading taken in twice (two processes,
// the side file read again) is one row; and every limit hit the transcripts report, keyed like a message (its id), so
// a hit copied into a resumed session counts once. Neither table hangs on a transcript: deleting one loses nothing.
export const sql = /* sql */ `
CREATE TABLE IF NOT EXISTS limit_readings (
  window       TEXT NOT NULL,
  observed_at  INTEGER NOT NULL,
  source       TEXT NOT NULL,
  machine      TEXT NOT NULL,
  used_percent REAL NOT NULL,
  resets_at    INTEGER,
  amount       REAL,
  PRIMARY KEY (window, observed_at, source, machine)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS limit_readings_at ON limit_readings (observed_at);
CREATE TABLE IF NOT EXISTS limit_hits (
  key       TEXT PRIMARY KEY,
  at        INTEGER NOT NULL,
  window    TEXT,
  resets_at INTEGER,
  text      TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS limit_hits_at ON limit_hits (at);
`;
