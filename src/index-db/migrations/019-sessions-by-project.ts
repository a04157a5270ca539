// Migration 019 (issue 35): the distinct sessions per project of a year or of all time, which every overview and
// projects answer counts, read the daily rows of the range by day, then sorted them twice (for the groups and for the
// distinct sessions; bench/RESULTS.md, stop 24). This index of sessions_daily (declared in schema/rollups.ts) gives
// them by project and session. Built here from the table as it is.
export const sql = /* sql */ `
CREATE INDEX IF NOT EXISTS sessions_daily_project ON sessions_daily (project_id, session_id, day);
`;
