// Migration 023 (issue 35): cost_total_session, each session's messages and cost per folder, all time, folded by the
// writer from its hourly cells as usage_total is. The Sessions view's cost per session over a year or all time read
// every hourly row grouped by session (85,000 at 10 GiB, ~40 ms of an ~80 ms answer): this holds a row per session.
// Filled once from usage_hourly here.
export const sql = /* sql */ `
DROP TABLE IF EXISTS cost_total_session;
CREATE TABLE cost_total_session (
  project_id INTEGER NOT NULL,
  session_id INTEGER NOT NULL,
  messages   INTEGER NOT NULL,
  cost       REAL NOT NULL,
  PRIMARY KEY (project_id, session_id)
) WITHOUT ROWID;
INSERT INTO cost_total_session SELECT project_id, session_id, sum(messages), sum(cost) FROM usage_hourly GROUP BY 1, 2;
`;
