// Migration 024 (issue 35): usage_total_model, every project's sums per model x main/subagent, all time, folded by the
// writer from its daily cells as usage_total is. A year's or all time's insights grouped every day's rows by model
// (~5,000 at 10 GiB, a sort: ~4 ms of a ~30 ms answer); this holds a row per model x main/subagent. Filled once from
// usage_hourly_model here.
export const sql = /* sql */ `
DROP TABLE IF EXISTS usage_total_model;
CREATE TABLE usage_total_model (
  model_id     INTEGER NOT NULL,
  sub          INTEGER NOT NULL,
  messages     INTEGER NOT NULL,
  input        INTEGER NOT NULL,
  output       INTEGER NOT NULL,
  cache_create INTEGER NOT NULL,
  cache_read   INTEGER NOT NULL,
  cache_1h     INTEGER NOT NULL,
  web_search   INTEGER NOT NULL,
  web_fetch    INTEGER NOT NULL,
  cost         REAL NOT NULL,
  first_ts     INTEGER,
  last_ts      INTEGER,
  PRIMARY KEY (model_id, sub)
) WITHOUT ROWID;
INSERT INTO usage_total_model SELECT model_id, sub, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read),
  sum(cache_1h), sum(web_search), sum(web_fetch), sum(cost), min(first_ts), max(last_ts) FROM usage_hourly_model GROUP BY 1, 2;
`;
