// Schema v12: the top-level `entrypoint` of each usage entry's line (issue 33: what started Claude Code: cli,
// claude-vscode, sdk-ts, ...; programmatic use draws on its own credit at API prices). A few names for all rows, so an
// id table as for branches; NULL: none (lines before the field existed, and rows indexed before v12).
export const sql = /* sql */ `
CREATE TABLE IF NOT EXISTS entrypoints (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
ALTER TABLE messages ADD COLUMN entrypoint_id INTEGER;
ALTER TABLE alternates ADD COLUMN entrypoint_id INTEGER;
`;
