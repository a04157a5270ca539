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

/** A real meta file is a few hundred bytes. */
const META_MAX_BYTES = 64 * 1024;
/** Opening a FIFO for reading waits for a writer unless non-blocking (no such flag on Windows, nor FIFOs). */
const OPEN_META = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

export interface AgentMeta {
  agentType: string | null;
  agentDescription: string | null;
}

/**
 * Reads `agent-<id>.meta.json` beside a subagent transcript; missing, bad or odd files give nulls. Only a small
 * regular file is read (checked on the open descriptor: a FIFO, a device such as /dev/zero or a huge file is not),
 * with async I/O, so nothing in a config dir can block the main thread or fill memory.
 */
export async function agentMeta(file: string): Promise<AgentMeta> {
  const none: AgentMeta = { agentType: null, agentDescription: null };
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file.replace(/\.jsonl$/, '.meta.json'), OPEN_META);
    const st = await handle.stat();
    if (!st.isFile() || st.size > META_MAX_BYTES) return none;
    const buf = Buffer.alloc(st.size + 1);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    if (bytesRead > st.size) return none; // being written: its next read will tell
    const meta = JSON.parse(buf.toString('utf8', 0, bytesRead)) as unknown;
    if (typeof meta !== 'object' || meta === null) return none;
    const { agentType, description } = meta as Record<string, unknown>;
    return {
      agentType: typeof agentType === 'string' ? agentType : null,
      agentDescription: typeof description === 'string' ? description : null,
    };
  } catch {
    return none;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

export interface FoundFile {
  path: string;
  size: number;
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
          if (stat.isFile()) out.push({ path: p, size: stat.size });
        } catch (err) {
          // Vanished since readdir: nothing to do. Any other error (a broken link, no permission): ingest
          // tries it and counts it unreadable, so the user sees it in the stats instead of silence.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') out.push({ path: p, size: 0 });
        }
      }),
    );
  };
  await Promise.all(projectsDirs.map((d) => walk(d)));
  return out;
}
