// Where a transcript sits in the config dir decides what it is (decisions.md "Layout"):
//   projects/<p>/<session>.jsonl                          a session
//   projects/<p>/<session>/subagents/**/agent-<id>.jsonl  subagent usage of that session (+ agent-<id>.meta.json)
//   projects/<p>/**/other.jsonl                           read, attributed per line by its sessionId
import fs from 'node:fs';
import path from 'node:path';
import type { FileRole } from '../index-db/types.ts';

/** Workflow journals hold no usage; skipping them saves a read. */
export function isTranscript(file: string): boolean {
  return file.endsWith('.jsonl') && path.basename(file) !== 'journal.jsonl';
}

/** The role of a transcript from its path alone, or null when it is not under a project folder of `projectsDir`. */
export function roleOf(projectsDir: string, file: string): Omit<FileRole, 'agentType' | 'agentDescription'> | null {
  const rel = path.relative(projectsDir, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  if (parts.length < 2) return null; // a .jsonl directly in projects/ belongs to no project
  const project = parts[0]!;
  const base = path.basename(file, '.jsonl');
  const agent = /^agent-(.+)$/.exec(base)?.[1] ?? null;
  if (parts.length === 2 && !agent) return { project, session: base, agentId: null };
  const subIdx = parts.indexOf('subagents');
  if (subIdx === 2 && parts.length > 3) return { project, session: parts[1]!, agentId: agent ?? base };
  return { project, session: null, agentId: agent };
}

/**
 * Reads `agent-<id>.meta.json` beside a subagent transcript; missing or bad files give nulls. Synchronous: a few
 * hundred bytes read at once cost less main-thread time than the four thread-pool round trips of a promise read.
 */
export function agentMeta(file: string): { agentType: string | null; agentDescription: string | null } {
  const metaPath = file.replace(/\.jsonl$/, '.meta.json');
  try {
    const meta = JSON.parse(fs.readFileSync(metaPath, 'utf8')) as Record<string, unknown>;
    return {
      agentType: typeof meta.agentType === 'string' ? meta.agentType : null,
      agentDescription: typeof meta.description === 'string' ? meta.description : null,
    };
  } catch {
    return { agentType: null, agentDescription: null };
  }
}

/** The role of each transcript (with its subagent meta), found once per path; forget(path) when it goes away. */
export function fileRoles(projectsDirs: readonly string[]): { of(file: string): Promise<FileRole | null>; forget(file: string): void } {
  const roles = new Map<string, FileRole | null>();
  return {
    async of(file) {
      if (roles.has(file)) return roles.get(file)!;
      const dir = projectsDirs.find((d) => roleOf(d, file));
      const base = dir ? roleOf(dir, file) : null;
      const meta = base?.agentId ? agentMeta(file) : { agentType: null, agentDescription: null };
      const role = base ? { ...base, ...meta } : null;
      roles.set(file, role);
      return role;
    },
    forget: (file) => void roles.delete(file),
  };
}

export interface FoundFile {
  path: string;
  size: number;
  /** Of the stat that found it (0 when it could not be stat'ed). */
  mtimeMs: number;
}

/** Every transcript under the projects dirs (a missing dir is simply empty). */
export async function listTranscripts(projectsDirs: readonly string[]): Promise<FoundFile[]> {
  const out: FoundFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    await Promise.all(
      entries.map(async (e) => {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) return walk(p);
        // Transcripts may be symlinks (synced folders); symlinked folders are not followed (cycles).
        if (!(e.isFile() || e.isSymbolicLink()) || !isTranscript(p)) return;
        try {
          // statSync: ~5 µs a file against ~80 µs of promise round trip on the main thread.
          const stat = fs.statSync(p);
          if (stat.isFile()) out.push({ path: p, size: stat.size, mtimeMs: stat.mtimeMs });
        } catch (err) {
          // Vanished since readdir: nothing to do. Any other error (a broken link, no permission): ingest
          // tries it and counts it unreadable, so the user sees it in the stats instead of silence.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') out.push({ path: p, size: 0, mtimeMs: 0 });
        }
      }),
    );
  };
  await Promise.all(projectsDirs.map((d) => walk(d)));
  return out;
}
