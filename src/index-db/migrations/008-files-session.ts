// Migration 008: the files of a session found by index. The statusline's session cost and the dashboard's session view
// pick a session's messages through its files (its own and the project-root files attributed to it line by line); without
// an index that was a scan of every file row, on every statusline render.
// (session_id, project_id) serves both arms of their OR: session_id = ?, and session_id IS NULL AND project_id = ?.
export const sql = /* sql */ `
CREATE INDEX IF NOT EXISTS files_session ON files (session_id, project_id);
`;
