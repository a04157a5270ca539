// Transcript lines as Claude Code writes them when a plan limit or the server stops a turn: a synthetic assistant
// message (model `<synthetic>`, zero usage, `isApiErrorMessage`), with `error` and `apiErrorStatus` on newer versions.
import { randomUUID } from 'node:crypto';

export interface ErrorLineInit {
  text: string;
  at: number;
  sessionId?: string;
  /** `rate_limit` on 2.x lines; absent on the 2025 `Claude AI usage limit reached|<epoch>` lines. */
  error?: string;
  status?: number;
  id?: string;
  version?: string;
}

export function apiErrorLine(o: ErrorLineInit): Record<string, unknown> {
  const line: Record<string, unknown> = {
    parentUuid: randomUUID(), isSidechain: false, userType: 'external', cwd: '/home/u/proj', sessionId: o.sessionId ?? 'sess-limits',
    version: o.version ?? '2.1.81', gitBranch: 'main', type: 'assistant', uuid: randomUUID(), timestamp: new Date(o.at).toISOString(),
    message: {
      id: o.id ?? randomUUID(), container: null, model: '<synthetic>', role: 'assistant', stop_reason: 'stop_sequence', stop_sequence: '', type: 'message',
      usage: {
        input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0,
        server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 }, service_tier: null,
        cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
      },
      content: [{ type: 'text', text: o.text }], context_management: null,
    },
    isApiErrorMessage: true,
  };
  if (o.error !== undefined) line.error = o.error;
  if (o.status !== undefined) line.apiErrorStatus = o.status;
  return line;
}

/** A limit hit as Claude Code 2.1 writes it. */
export const hitLine = (text: string, at: number, extra: Partial<ErrorLineInit> = {}) => apiErrorLine({ text, at, error: 'rate_limit', status: 429, ...extra });

/** The server throttling requests: an API error, but no limit hit. */
export const throttleLine = (at: number) =>
  apiErrorLine({ text: 'API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited', at, error: 'rate_limit', status: 429 });
