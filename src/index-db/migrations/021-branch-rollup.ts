// Migration 021 (issue 35): usage_hourly_branch, the cost of each session's git branches per UTC hour and project
// folder, kept by the writer as every rollup is. The Sessions view lists each listed session's branches, the dearest
// first: read from the messages, those of a long range's 300 dearest sessions took ~150 ms at 10 GiB, most of its
// answer. Filled once from the messages here (those recorded on a branch: the rollup's `only`).
export const sql = /* sql */ `
DROP TABLE IF EXISTS usage_hourly_branch;
CREATE TABLE usage_hourly_branch (
  hour       INTEGER NOT NULL,
  project_id INTEGER NOT NULL,
  session_id INTEGER NOT NULL,
  branch_id  INTEGER NOT NULL,
  messages   INTEGER NOT NULL,
  cost       REAL NOT NULL,
  PRIMARY KEY (hour, project_id, session_id, branch_id)
) WITHOUT ROWID;
INSERT INTO usage_hourly_branch SELECT CAST(ts / 3600000 AS INTEGER), project_id, session_id, branch_id, count(*), sum(cost) FROM messages
  WHERE branch_id IS NOT NULL GROUP BY 1, 2, 3, 4;
`;
