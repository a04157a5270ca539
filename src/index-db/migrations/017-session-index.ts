// Migration 017 (issue 35): `cost-dashboard session` over the whole history grouped the hourly rows by session and model
// with a sort of every row. This index of usage_hourly (declared in schema/rollups.ts) gives the rows in that order with
// every column the read takes, so the report reads it alone. Built here from the table as it is.
export const sql = /* sql */ `
CREATE INDEX IF NOT EXISTS usage_hourly_session ON usage_hourly
  (session_id, model_id, hour, project_id, sub, messages, input, output, cache_create, cache_read, cost, first_ts, last_ts);
`;
