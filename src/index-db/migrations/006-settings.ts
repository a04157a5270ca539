// Schema v6: settings of this machine kept with its history (issue 14, "Budgets and alerts"): the budgets, and which
// period's alert the server has logged for each, so a restart does not log it again. Keys and values: settings.ts.
export const sql = /* sql */ `
CREATE TABLE IF NOT EXISTS settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
`;
