// Migration 018 (issue 35): usage_total_file, each transcript's entries and their cost, all time, kept by the writer as
// every rollup is. The retention figures (GET /api/retention, the /metrics gauges) read the cost of every transcript
// Claude Code's cleanup is about to delete: summed from the messages, that held the server about a second at 10 GiB
// after each write. Filled once from the messages here.
export const sql = /* sql */ `
DROP TABLE IF EXISTS usage_total_file;
CREATE TABLE usage_total_file (
  file_id  INTEGER NOT NULL,
  messages INTEGER NOT NULL,
  cost     REAL NOT NULL,
  PRIMARY KEY (file_id)
) WITHOUT ROWID;
INSERT INTO usage_total_file SELECT file_id, count(*), sum(cost) FROM messages GROUP BY file_id;
`;
