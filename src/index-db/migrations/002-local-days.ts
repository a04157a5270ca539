// Schema v2: exact local days and hours (decisions.md "Time"). usage_daily and tools_daily keep their
// columns, but a message now counts on the local day of its own timestamp (v1 used its UTC hour's
// start), and cost_local_hourly adds the local hour the heatmap and hourly series need. Removing
// 'daily_tz' makes the next open rebuild all three from messages (JS computes the local day).
// messages_ts serves the partial UTC hours at the edges of a local day and the entries exactly at a
// 5-hour block's end.
export const sql = /* sql */ `
-- Cost per LOCAL hour number (local day number x 24 + local hour) x project x model, for the zone
-- in meta 'daily_tz'; rebuilt with usage_daily.
CREATE TABLE cost_local_hourly (
  lhour      INTEGER NOT NULL,
  project_id INTEGER NOT NULL,
  model_id   INTEGER NOT NULL,
  messages   INTEGER NOT NULL,
  cost       REAL NOT NULL,
  PRIMARY KEY (lhour, project_id, model_id)
) WITHOUT ROWID;

CREATE INDEX messages_ts ON messages (ts);

DELETE FROM meta WHERE key = 'daily_tz';
`;
