// Schema v14: what caused each usage entry (issue 32), as Claude Code attributes it: the skill, the MCP server and its
// tool, the subagent type, and the line's effort. Their names share one id table (a few dozen names in all; the column
// says which kind a name is); 0: none, "direct" (lines before the fields existed, and rows indexed before v14). The
// rollup usage_hourly_cause answers /api/insights' bySkill, byMcpServer, byAgent and byEffort; it holds the attributed
// messages only (schema/rollups.ts, ATTRIBUTED), so an older index's rows, all direct, leave it empty (made again whole:
// a file taken back to an older version may still hold one).
export const sql = /* sql */ `
CREATE TABLE IF NOT EXISTS causes (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
ALTER TABLE messages ADD COLUMN skill_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN mcp_server_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN mcp_tool_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN agent_type_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN effort_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alternates ADD COLUMN skill_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alternates ADD COLUMN mcp_server_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alternates ADD COLUMN mcp_tool_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alternates ADD COLUMN agent_type_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alternates ADD COLUMN effort_id INTEGER NOT NULL DEFAULT 0;
DROP TABLE IF EXISTS usage_hourly_cause;
CREATE TABLE usage_hourly_cause (
  hour          INTEGER NOT NULL,
  project_id    INTEGER NOT NULL,
  model_id      INTEGER NOT NULL,
  skill_id      INTEGER NOT NULL,
  mcp_server_id INTEGER NOT NULL,
  mcp_tool_id   INTEGER NOT NULL,
  agent_type_id INTEGER NOT NULL,
  effort_id     INTEGER NOT NULL,
  messages      INTEGER NOT NULL,
  input         INTEGER NOT NULL,
  output        INTEGER NOT NULL,
  cache_create  INTEGER NOT NULL,
  cache_read    INTEGER NOT NULL,
  cost          REAL NOT NULL,
  PRIMARY KEY (hour, project_id, model_id, skill_id, mcp_server_id, mcp_tool_id, agent_type_id, effort_id)
) WITHOUT ROWID;
`;
