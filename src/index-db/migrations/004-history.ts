// Schema v4: what real histories need beyond usage (decisions.md "Worktrees, branches, titles, nested usage").
export const sql = /* sql */ `
-- The first prompt of the session's subagents, for a session whose own transcript has none (title "… · subagent").
ALTER TABLE sessions ADD COLUMN agent_prompt TEXT;

-- The gitBranch of each usage entry's line (NULL: none; 'HEAD': detached). Rows indexed before v4 have none.
CREATE TABLE branches (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
ALTER TABLE messages ADD COLUMN branch_id INTEGER;
ALTER TABLE alternates ADD COLUMN branch_id INTEGER;

-- The main checkout path of the repository the project folder belongs to (NULL: not resolved yet), resolved once from
-- the folder's first cwd (src/ingest/repository.ts).
ALTER TABLE projects ADD COLUMN repo TEXT;
`;
