// Migration 022 (issue 35): cost_hourly_model, every project's cost per UTC hour and model, folded by the writer from
// its hourly cells as usage_hourly_all is. The 5-hour blocks an answer lists name their models: a year's or all time's
// insights grouped ~12,000 project rows into ~3,000 hour x model cells for that, ~10 ms of a ~40 ms answer at 10 GiB.
// Filled once from usage_hourly_model here.
export const sql = /* sql */ `
DROP TABLE IF EXISTS cost_hourly_model;
CREATE TABLE cost_hourly_model (
  hour     INTEGER NOT NULL,
  model_id INTEGER NOT NULL,
  messages INTEGER NOT NULL,
  cost     REAL NOT NULL,
  PRIMARY KEY (hour, model_id)
) WITHOUT ROWID;
INSERT INTO cost_hourly_model SELECT hour, model_id, sum(messages), sum(cost) FROM usage_hourly_model GROUP BY 1, 2;
`;
