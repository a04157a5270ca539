// The ingest's own skip rule (src/main/ingest.ts run()), for the command line's checks before it reads anything:
// its own module, so a statusline that only asks "is this session ahead of the index?" loads nothing more.

/** A file to read, or (no stat: it vanished) a known file to mark gone. */
export function needsRead(
  st: { size: number; mtimeMs: number } | undefined,
  cursor: { size: number; mtimeMs: number; gone: boolean } | null | undefined,
): boolean {
  if (!st) return !!cursor && !cursor.gone;
  return !(cursor && !cursor.gone && st.size === cursor.size && st.mtimeMs === cursor.mtimeMs);
}
