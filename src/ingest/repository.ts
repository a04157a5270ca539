// The repository a project folder belongs to, from one of its cwds (decisions.md "Repository"): the main checkout
// of a git worktree, else the folder's own checkout. One stat and one small read at most; run once per folder.
import fs from 'node:fs';
import path from 'node:path';
import type { IndexDb } from '../index-db/types.ts';

/**
 * Stores the repository of every folder the index holds a cwd for but no repository yet: at a writer's start (folders
 * an older version indexed) and whenever ingest stores a folder's first cwd. The server's pipeline and the command
 * line's catch-up both call it, so either writer leaves the same index.
 */
export function resolveRepositories(index: Pick<IndexDb, 'unresolvedRepositories' | 'setRepository'>): void {
  for (const { project, cwd } of index.unresolvedRepositories()) index.setRepository(project, repositoryOf(cwd));
}

/** Main checkout path of the repository `cwd` is a checkout of (the cwd itself when it is no known worktree). */
export function repositoryOf(cwd: string): string {
  const dir = cwd.replace(/[\\/]+$/, '') || cwd;
  // Claude Code's own worktrees: <repo>/.claude/worktrees/<name>
  const claude = /^(.+?)[\\/]\.claude[\\/]worktrees[\\/][^\\/]+$/.exec(dir);
  if (claude) return claude[1]!;
  const linked = gitdirRepository(dir);
  if (linked) return linked;
  // Layout conventions: <parent>/<repo>-worktrees/<name>, <repo>/worktrees/<name>
  const sibling = /^(.*[\\/])([^\\/]+)-worktrees[\\/][^\\/]+$/.exec(dir);
  if (sibling) return sibling[1]! + sibling[2]!;
  const nested = /^(.+?)[\\/]worktrees[\\/][^\\/]+$/.exec(dir);
  if (nested) return nested[1]!;
  return dir;
}

/** A linked worktree's `.git` file says `gitdir: <repo>/.git/worktrees/<name>`; trusted only when that path exists here. */
function gitdirRepository(dir: string): string | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, '.git'), 'utf8'); // a directory (a main checkout) throws EISDIR
  } catch {
    return null;
  }
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!m) return null;
  const gitdir = path.resolve(dir, m[1]!);
  const at = /^(.+?)[\\/]\.git[\\/]worktrees[\\/][^\\/]+$/.exec(gitdir);
  if (!at || !fs.existsSync(gitdir)) return null;
  return at[1]!;
}
