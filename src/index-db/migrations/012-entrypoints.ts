// Schema v12: the top-level `entrypoint` of each usage entry's line (issue 33: what started Claude Code: cli,
// claude-vscode, sdk-ts, ...; programmatic use draws on its own credit at API prices). A few names for all rows, so an
// id table as for branches; 0: none (lines before the field existed, and rows indexed before v12). The rollup
// usage_hourly_entrypoint answers /api/overview's byEntrypoint; an older index's rows all go to entrypoint 0, so it is
// filled from usage_hourly_model (made again whole: a file taken back to an older version may still hold one).
export const sql = /* sql */ `
CREATE TABLE IF NOT EXISTS entrypoints (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
ALTER TABLE messages ADD COLUMN entrypoint_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alternates ADD COLUMN entrypoint_id INTEGER NOT NULL DEFAULT 0;
DROP TABLE IF EXISTS usage_hourly_entrypoint;
CREATE TABLE usage_hourly_entrypoint (
  hour          INTEGER NOT NULL,
  project_id    INTEGER NOT NULL,
  model_id      INTEGER NOT NULL,
  entrypoint_id INTEGER NOT NULL,
  messages      INTEGER NOT NULL,
  input         INTEGER NOT NULL,
  output        INTEGER NOT NULL,
  cache_create  INTEGER NOT NULL,
  cache_read    INTEGER NOT NULL,
  cost          REAL NOT NULL,
  PRIMARY KEY (hour, project_id, model_id, entrypoint_id)
) WITHOUT ROWID;
INSERT INTO usage_hourly_entrypoint SELECT hour, project_id, model_id, 0, sum(messages), sum(input), sum(output), sum(cache_create),
  sum(cache_read), sum(cost) FROM usage_hourly_model GROUP BY hour, project_id, model_id;
`;
