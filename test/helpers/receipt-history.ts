// A small hand-written history that touches every price rule a receipt itemises: 1-hour cache writes, long context,
// fast mode, US-only inference, advisor iterations, web search and web fetch, lines with their own costUSD, an unpriced
// model and `<synthetic>`, in two projects and three sessions, spread over the last 45 days so the 1, 7 and 30 day
// ranges each hold a different part of it.
import path from 'node:path';
import { usageLine, writeJsonl } from './jsonl.ts';

export const RECEIPT_PROJECT = '-home-dev-receipts';
export const RECEIPT_OTHER = '-home-dev-other';
/** Session ids: two in RECEIPT_PROJECT, one in RECEIPT_OTHER. */
export const RECEIPT_SESSIONS = ['rcpt-a', 'rcpt-b', 'rcpt-c'] as const;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Entry {
  session: (typeof RECEIPT_SESSIONS)[number];
  /** How long before `now`. */
  ago: number;
  model?: string;
  input?: number;
  output?: number;
  cacheCreate?: number;
  cacheRead?: number;
  cache1h?: number;
  fast?: boolean;
  webSearch?: number;
  webFetch?: number;
  /** usage.inference_geo "us". */
  us?: boolean;
  /** An advisor iteration (usage.iterations[]) under this model, with these tokens. */
  advisor?: { model: string; input: number; output: number; cacheRead: number };
  costUSD?: number;
}

const ENTRIES: Entry[] = [
  { session: 'rcpt-a', ago: 2 * HOUR, input: 1200, output: 800, cacheCreate: 5000, cache1h: 3000, cacheRead: 40_000 },
  { session: 'rcpt-a', ago: 90 * 60_000, input: 150_000, output: 4000, cacheRead: 60_000, cacheCreate: 2000 },
  { session: 'rcpt-a', ago: 3 * HOUR, model: 'claude-opus-4-6', input: 300, output: 2500, cacheRead: 12_000, fast: true },
  { session: 'rcpt-a', ago: 4 * HOUR, input: 50, output: 600, webSearch: 3, webFetch: 2 },
  { session: 'rcpt-a', ago: 5 * HOUR, input: 800, output: 1200, cacheRead: 30_000, us: true, webSearch: 1,
    advisor: { model: 'claude-opus-4-6', input: 1500, output: 300, cacheRead: 8000 } },
  { session: 'rcpt-b', ago: 3 * DAY, model: 'claude-haiku-4-5-20251001', input: 900, output: 300, costUSD: 0.4321 },
  { session: 'rcpt-b', ago: 3 * DAY + HOUR, model: 'claude-mystery-9', input: 700, output: 700, cacheRead: 9000 },
  { session: 'rcpt-b', ago: 5 * DAY, model: 'claude-opus-4-6', input: 210_000, output: 1000, fast: true, cache1h: 100, cacheCreate: 100 },
  { session: 'rcpt-b', ago: 5 * DAY + HOUR, model: '<synthetic>', input: 0, output: 0 },
  { session: 'rcpt-c', ago: 12 * DAY, input: 400, output: 5000, cacheCreate: 20_000, cache1h: 20_000, webSearch: 1, us: true, fast: true, model: 'claude-opus-4-6' },
  { session: 'rcpt-c', ago: 20 * DAY, model: 'claude-opus-4-7', input: 2000, output: 3000, costUSD: 1.25 },
  { session: 'rcpt-c', ago: 40 * DAY, input: 230_000, output: 9000, cacheRead: 1000, webSearch: 2, fast: true },
];

/** Writes the history under `projectsDir`, each line relative to `now`; returns the files written. */
export function writeReceiptHistory(projectsDir: string, now: number): string[] {
  const files = new Map<string, Record<string, unknown>[]>();
  ENTRIES.forEach((e, i) => {
    const line = usageLine({
      sessionId: e.session, model: e.model, messageId: `msg_rcpt_${i}`, requestId: `req_rcpt_${i}`,
      timestamp: new Date(now - e.ago).toISOString(), input: e.input, output: e.output, cacheCreate: e.cacheCreate,
      cacheRead: e.cacheRead, cache1h: e.cache1h, extra: e.costUSD === undefined ? {} : { costUSD: e.costUSD },
    });
    const usage = (line.message as { usage: Record<string, unknown> }).usage;
    if (e.fast) usage.speed = 'fast';
    if (e.webSearch || e.webFetch) usage.server_tool_use = { web_search_requests: e.webSearch ?? 0, web_fetch_requests: e.webFetch ?? 0 };
    if (e.us) usage.inference_geo = 'us';
    if (e.advisor) {
      usage.iterations = [
        { type: 'message', input_tokens: e.input, output_tokens: e.output },
        { type: 'advisor_message', model: e.advisor.model, input_tokens: e.advisor.input, output_tokens: e.advisor.output,
          cache_read_input_tokens: e.advisor.cacheRead, cache_creation_input_tokens: 0 },
      ];
    }
    const project = e.session === 'rcpt-c' ? RECEIPT_OTHER : RECEIPT_PROJECT;
    const file = path.join(projectsDir, project, `${e.session}.jsonl`);
    files.set(file, [...(files.get(file) ?? []), line]);
  });
  return [...files].map(([file, lines]) => writeJsonl(file, lines));
}
