// Migration 015 (issue 32): Claude Code 2.0.x wrote subagents as `<project>/agent-<id>.jsonl`. Older versions read those
// files without their first prompt, so a session known only from them is titled by its bare id. Such a file, when one
// of its messages belongs to a session with no title and no prompt of any kind, is read again from its start: its
// cursor and line counts go back to zero and its losing copies are dropped (reading it makes them again), as a
// salvage's re-read does; its stored messages are found again by their keys (the same file and offset: kept as they
// are), so no figure changes. The file gets the agent of its messages, as the writer now gives it, so that its cursor
// asks the worker for the prompt. A file marked gone is left alone: it cannot be read again.
// The name is a path's last segment, whichever separator the path uses.
export const sql = /* sql */ `
CREATE TEMP TABLE reread AS
  SELECT f.id FROM files f
  WHERE f.session_id IS NULL AND f.agent_id IS NULL AND f.gone = 0
    AND substr(f.path, length(rtrim(f.path, replace(replace(f.path, '/', ''), '\\', ''))) + 1) GLOB 'agent-?*.jsonl'
    AND EXISTS (SELECT 1 FROM messages m JOIN sessions s ON s.id = m.session_id
      WHERE m.file_id = f.id AND s.title IS NULL AND s.first_prompt IS NULL AND s.agent_prompt IS NULL);
DELETE FROM alternates WHERE file_id IN (SELECT id FROM temp.reread);
UPDATE files SET size = 0, mtime = 0, off = 0, head = '', lines = 0, usage_lines = 0, blank = 0, malformed = 0, giant = 0,
  out_of_range = 0, error = NULL, agent_id = (SELECT m.agent_id FROM messages m WHERE m.file_id = files.id AND m.agent_id IS NOT NULL LIMIT 1)
  WHERE id IN (SELECT id FROM temp.reread);
DROP TABLE temp.reread;
`;
