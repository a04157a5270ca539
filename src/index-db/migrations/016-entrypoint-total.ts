// Migration 016 (issue 35): usage_total_entrypoint, the all-time sums per project x model x entrypoint, so that a
// year's or all time's byEntrypoint reads these rows less the hours before the range instead of every row of
// usage_hourly_entrypoint in the range (most of a 10 GiB history's overview). Filled from the hourly rollup it is
// folded from (made again whole: a file taken back to an older version may still hold one).
export const sql = /* sql */ `
DROP TABLE IF EXISTS usage_total_entrypoint;
CREATE TABLE usage_total_entrypoint (
  project_id    INTEGER NOT NULL,
  model_id      INTEGER NOT NULL,
  entrypoint_id INTEGER NOT NULL,
  messages      INTEGER NOT NULL,
  input         INTEGER NOT NULL,
  output        INTEGER NOT NULL,
  cache_create  INTEGER NOT NULL,
  cache_read    INTEGER NOT NULL,
  cost          REAL NOT NULL,
  PRIMARY KEY (project_id, model_id, entrypoint_id)
) WITHOUT ROWID;
INSERT INTO usage_total_entrypoint SELECT project_id, model_id, entrypoint_id, sum(messages), sum(input), sum(output), sum(cache_create),
  sum(cache_read), sum(cost) FROM usage_hourly_entrypoint GROUP BY project_id, model_id, entrypoint_id;
`;
