// Temp dirs, and JSONL files of transcript lines shaped like Claude Code's (tests only).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type Line = Record<string, unknown> | string;

const leftDirs = new Set<string>();
let exitHook = false;

/** A fresh temp dir under the OS temp dir; removed by the returned cleanup, or at process exit. */
export function tempDir(prefix = 'cost-test-'): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // One exit hook for every dir (a listener per dir would trip Node's leak warning in a suite with many).
  if (!exitHook) process.once('exit', () => leftDirs.forEach(remove));
  exitHook = true;
  leftDirs.add(dir);
  return {
    dir,
    cleanup: () => {
      leftDirs.delete(dir);
      remove(dir);
    },
  };
}

function remove(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Serialises lines (objects as JSON, strings as they are) joined by `eol`, with a final `eol` unless `partial`. */
export function jsonlText(lines: readonly Line[], opts: { eol?: string; partial?: boolean } = {}): string {
  const eol = opts.eol ?? '\n';
  const body = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join(eol);
  return opts.partial || !lines.length ? body : body + eol;
}

/** Writes a JSONL file (creating its folders) and returns its path. */
export function writeJsonl(file: string, lines: readonly Line[], opts: { eol?: string; partial?: boolean } = {}): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, jsonlText(lines, opts));
  return file;
}

/** Appends lines to a JSONL file (a final newline unless `partial`). */
export function appendJsonl(file: string, lines: readonly Line[], opts: { partial?: boolean } = {}): void {
  fs.appendFileSync(file, jsonlText(lines, opts));
}

export interface UsageLineInit {
  sessionId?: string;
  timestamp?: string;
  model?: string;
  messageId?: string;
  requestId?: string;
  input?: number;
  output?: number;
  cacheCreate?: number;
  cacheRead?: number;
  cache1h?: number;
  tools?: string[];
  cwd?: string;
  extra?: Record<string, unknown>;
}

/** An assistant line with `message.usage`, like the agent writes one per content block of a response. */
export function usageLine(o: UsageLineInit = {}): Record<string, unknown> {
  const cacheCreate = o.cacheCreate ?? 0;
  const cache1h = o.cache1h ?? 0;
  const content = o.tools?.length
    ? o.tools.map((name, i) => ({ type: 'tool_use', id: `toolu_${i}`, name, input: {} }))
    : [{ type: 'text', text: 'ok' }];
  return {
    parentUuid: null,
    isSidechain: false,
    cwd: o.cwd ?? '/home/dev/proj',
    sessionId: o.sessionId ?? 'sess-1',
    type: 'assistant',
    message: {
      model: o.model ?? 'claude-sonnet-4-5-20250929',
      id: o.messageId ?? 'msg_1',
      type: 'message',
      role: 'assistant',
      content,
      usage: {
        input_tokens: o.input ?? 10,
        cache_creation_input_tokens: cacheCreate,
        cache_read_input_tokens: o.cacheRead ?? 0,
        cache_creation: { ephemeral_5m_input_tokens: cacheCreate - cache1h, ephemeral_1h_input_tokens: cache1h },
        output_tokens: o.output ?? 20,
      },
    },
    requestId: o.requestId ?? 'req_1',
    uuid: `u-${o.messageId ?? 'msg_1'}`,
    timestamp: o.timestamp ?? '2026-01-02T03:04:05.678Z',
    ...o.extra,
  };
}

/** A user line whose content is a prompt string or content blocks. */
export function userLine(content: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    parentUuid: null,
    isSidechain: false,
    cwd: '/home/dev/proj',
    sessionId: 'sess-1',
    type: 'user',
    message: { role: 'user', content },
    uuid: 'u-user',
    timestamp: '2026-01-02T03:00:00.000Z',
    ...extra,
  };
}

/** A user line holding only a tool result (most of a transcript's bytes). */
export function toolResultLine(text: string): Record<string, unknown> {
  return userLine([{ tool_use_id: 'toolu_0', type: 'tool_result', content: text }], { toolUseResult: { stdout: text } });
}

/** A `custom-title` or `ai-title` line. */
export function titleLine(kind: 'custom' | 'ai', title: string, sessionId = 'sess-1'): Record<string, unknown> {
  return kind === 'custom'
    ? { type: 'custom-title', customTitle: title, sessionId }
    : { type: 'ai-title', aiTitle: title, sessionId };
}
