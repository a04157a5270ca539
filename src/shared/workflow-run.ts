// Claude Code writes the subagents of a workflow run as `<project>/<session>/subagents/workflows/wf_<id>/agent-*.jsonl`
// (decisions.md "Layout"). The index keeps every file's path, so the run a file belongs to is read from it: an index
// that read such files before the session view grouped them needs no re-read. Pure string work: the browser bundle
// may take it too.

/** The workflow run (`wf_<id>`, its folder's name) of a transcript path, or null for any other file. */
export function workflowRunOf(path: string): string | null {
  const parts = path.split(/[\\/]/);
  const n = parts.length;
  if (n < 5) return null;
  const run = parts[n - 2]!;
  return parts[n - 3] === 'workflows' && parts[n - 4] === 'subagents' && /^wf_./.test(run) ? run : null;
}
