// Schema v2: what real histories need beyond usage (decisions.md "Worktrees, branches, titles, nested usage").
export const sql = /* sql */ `
-- The first prompt of the session's subagents, for a session whose own transcript has none (title "… · subagent").
ALTER TABLE sessions ADD COLUMN agent_prompt TEXT;
`;
