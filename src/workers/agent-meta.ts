// A subagent's `agent-<id>.meta.json` beside its transcript (type and description), read in the parse worker with
// the transcript's task, so the main thread does no I/O for it.
import fs from 'node:fs';
import type { AgentMeta } from './protocol.ts';

/** A real meta file is a few hundred bytes. */
const META_MAX_BYTES = 64 * 1024;
/** Opening a FIFO for reading waits for a writer unless non-blocking (no such flag on Windows, nor FIFOs). */
const OPEN_META = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

const NONE: AgentMeta = { agentType: null, agentDescription: null };

/**
 * The meta file of a subagent transcript; missing, bad or odd files give nulls. Only a small regular file is read
 * (checked on the open descriptor: a FIFO, a device such as /dev/zero or a huge file is not), so nothing in a config
 * dir can block the worker or fill memory.
 */
export function readAgentMeta(transcript: string): AgentMeta {
  let fd: number | undefined;
  try {
    fd = fs.openSync(transcript.replace(/\.jsonl$/, '.meta.json'), OPEN_META);
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > META_MAX_BYTES) return NONE;
    const buf = Buffer.alloc(st.size + 1);
    const bytesRead = fs.readSync(fd, buf, 0, buf.length, 0);
    if (bytesRead > st.size) return NONE; // being written: its next read will tell
    const meta = JSON.parse(buf.toString('utf8', 0, bytesRead)) as unknown;
    if (typeof meta !== 'object' || meta === null) return NONE;
    const { agentType, description } = meta as Record<string, unknown>;
    return {
      agentType: typeof agentType === 'string' ? agentType : null,
      agentDescription: typeof description === 'string' ? description : null,
    };
  } catch {
    return NONE;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
