// What started Claude Code for a usage entry (the line's top-level `entrypoint`), split as a plan sees it: programmatic
// use (the Agent SDK's `sdk-ts`, `sdk-py`, and print mode `claude -p`, which writes `sdk-cli`) draws on its own monthly
// credit at API prices, apart from the plan's interactive limits (`cli`, `claude-vscode`, ...).

/** Whether an entrypoint is programmatic use; null (lines written before the field existed) is not. */
export function isProgrammatic(entrypoint: string | null): boolean {
  return entrypoint !== null && entrypoint.startsWith('sdk-');
}
