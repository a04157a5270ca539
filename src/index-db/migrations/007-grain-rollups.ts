// Migration 007 (006 is the budgets one): rollups at the grain of the answers, so a ranged query reads buckets, not
// history (issue 17). The per-project rollups hold a row per bucket x project x model, which grows with the number of
// projects; a read over every project (the dashboard's default) now reads tables without the project, a year of which
// is a few thousand rows however many projects there are, and the project list reads the all-time table. The zone-free
// tables are filled here from the existing rollups; removing 'daily_tz' makes the next open (the writer) rebuild the
// local ones, these included, from the messages.
export const sql = /* sql */ `
-- Every project per LOCAL day x model x main/subagent (zone of meta 'daily_tz'): totals, series and model splits.
CREATE TABLE usage_daily_all (
  day          INTEGER NOT NULL,
  model_id     INTEGER NOT NULL,
  sub          INTEGER NOT NULL,
  messages     INTEGER NOT NULL,
  input        INTEGER NOT NULL,
  output       INTEGER NOT NULL,
  cache_create INTEGER NOT NULL,
  cache_read   INTEGER NOT NULL,
  cache_1h     INTEGER NOT NULL,
  web_search   INTEGER NOT NULL,
  cost         REAL NOT NULL,
  first_ts     INTEGER,
  last_ts      INTEGER,
  PRIMARY KEY (day, model_id, sub)
) WITHOUT ROWID;

-- All time per project x model: the project list of a range that reaches the newest entry is this less the days before
-- the range (queries/reader.ts).
CREATE TABLE usage_total (
  project_id   INTEGER NOT NULL,
  model_id     INTEGER NOT NULL,
  messages     INTEGER NOT NULL,
  input        INTEGER NOT NULL,
  output       INTEGER NOT NULL,
  cache_create INTEGER NOT NULL,
  cache_read   INTEGER NOT NULL,
  cache_1h     INTEGER NOT NULL,
  web_search   INTEGER NOT NULL,
  cost         REAL NOT NULL,
  first_ts     INTEGER,
  last_ts      INTEGER,
  PRIMARY KEY (project_id, model_id)
) WITHOUT ROWID;
INSERT INTO usage_total SELECT project_id, model_id, sum(messages), sum(input), sum(output), sum(cache_create),
  sum(cache_read), sum(cache_1h), sum(web_search), sum(cost), min(first_ts), max(last_ts)
  FROM usage_hourly_model GROUP BY 1, 2;

-- Messages per LOCAL day x project x session: the sessions of a range of local days, exact in every zone.
CREATE TABLE sessions_daily (
  day        INTEGER NOT NULL,
  project_id INTEGER NOT NULL,
  session_id INTEGER NOT NULL,
  messages   INTEGER NOT NULL,
  PRIMARY KEY (day, project_id, session_id)
) WITHOUT ROWID;

-- Every project per UTC hour: the 5-hour blocks and the first and newest hours.
CREATE TABLE usage_hourly_all (
  hour         INTEGER NOT NULL,
  messages     INTEGER NOT NULL,
  input        INTEGER NOT NULL,
  output       INTEGER NOT NULL,
  cache_create INTEGER NOT NULL,
  cache_read   INTEGER NOT NULL,
  cost         REAL NOT NULL,
  first_ts     INTEGER,
  last_ts      INTEGER,
  PRIMARY KEY (hour)
) WITHOUT ROWID;
INSERT INTO usage_hourly_all SELECT hour, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read),
  sum(cost), min(first_ts), max(last_ts)
  FROM usage_hourly_model GROUP BY 1;

-- Every project's cost per LOCAL hour number (heatmap, weekly cost, run rate).
CREATE TABLE cost_local_hourly_all (
  lhour    INTEGER NOT NULL,
  messages INTEGER NOT NULL,
  cost     REAL NOT NULL,
  PRIMARY KEY (lhour)
) WITHOUT ROWID;

-- Every project's tool_use counts per LOCAL day x tool name.
CREATE TABLE tools_daily_all (
  day   INTEGER NOT NULL,
  tool  TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (day, tool)
) WITHOUT ROWID;

DELETE FROM meta WHERE key = 'daily_tz';
`;
