// A seeded history shaped like what Claude Code 2.1.1xx writes in late 2026 (issue 32), written into a temp config
// dir: every field the price rules read, in mixes, over several local days and the midnights of UTC, +5:30 and -8:00.
// `legacy: true` leaves out what the index did not price before those rules (geo, advisor iterations, cache writes
// only in the breakdown, bracketed model names, fast on models without a dated multiplier, web fetch), so the
// independent calculator (expected-money.ts) can be checked against an index that predates them.
import fs from 'node:fs';
import path from 'node:path';
import { jsonlText } from './jsonl.ts';

export interface LateHistoryOptions {
  seed?: number;
  legacy?: boolean;
}

export interface LateHistory {
  /** The config dir (holds `projects/`). */
  dir: string;
  /** First and last UTC day any entry can fall on, widened by one day each side for local zones. */
  since: string;
  until: string;
  /** What the history carries (`fast claude-opus-5`, `geo "us"`, `advisor`…), so a test can require each. */
  features: Set<string>;
}

type Rec = Record<string, unknown>;

/** mulberry32: a small PRNG, so a seed always writes the same bytes. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One API response: its ids, time, model, usage (output aside) and the output of each line that writes it. */
interface Response {
  id: string;
  req: string | null;
  ts: number;
  model: string;
  usage: Rec;
  outputs: number[];
  costUSD?: number;
  extra: Rec;
}

const BASE = Date.UTC(2026, 10, 20); // 2026-11-20
const DAYS = 6;
const MIN = 60_000;
// Midnights in UTC, Asia/Kolkata (18:30 UTC) and America/Los_Angeles (08:00 UTC in November): sessions start
// just before them so their entries straddle a local day boundary.
const MIDNIGHTS_UTC_MIN = [0, 18 * 60 + 30, 8 * 60];

const GEOS: (string | null | undefined)[] = ['us', 'global', 'not_available', '', undefined, null, 'us'];
const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'ultracode'];
const ENTRYPOINTS = ['cli', 'claude-vscode', 'sdk-cli', 'sdk-ts'];
const SKILLS = ['pdf', 'frontend-design', 'release-notes'];
const MCP = [['github', 'create_pull_request'], ['linear', 'list_issues'], ['playwright', 'browser_click']];
const AGENTS = ['Explore', 'general-purpose', 'code-reviewer'];

/** Models of the main sessions: every fast rule, long-context prices, a bracketed suffix. */
const MODELS = ['claude-opus-4-6', 'claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5', 'claude-fable-5-2', 'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5-20251001', 'claude-opus-4-6[1m]', 'claude-sonnet-4-5[1m]'];
const LEGACY_MODELS = ['claude-opus-4-6', 'claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5', 'claude-fable-5-2', 'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5-20251001'];
/** Fast mode has a dated multiplier on these (decisions.md); on others it is an estimate the index did not make before. */
const DATED_FAST = /^claude-opus-(4-[678]|5)/;
const ADVISOR_MODEL = 'claude-opus-4-8';

class Writer {
  private readonly rnd: () => number;
  private n = 0;
  readonly seen = new Set<string>();
  constructor(seed: number, readonly legacy: boolean) {
    this.rnd = prng(seed);
  }
  r(): number {
    return this.rnd();
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rnd() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)]!;
  }
  chance(p: number): boolean {
    return this.rnd() < p;
  }
  uid(prefix: string): string {
    return `${prefix}${(++this.n).toString(36).padStart(6, '0')}${this.int(0, 1e9).toString(36)}`;
  }

  /** The token counts of one request (or of one advisor iteration). */
  tokens(longContext: boolean): Rec {
    const input = this.int(1, 4000);
    const cacheRead = longContext ? this.int(190_000, 420_000) : this.int(0, 90_000);
    const write = this.chance(0.7) ? this.int(0, 30_000) : 0;
    const oneHour = write && this.chance(0.4) ? this.int(0, write) : 0;
    const split = { ephemeral_5m_input_tokens: write - oneHour, ephemeral_1h_input_tokens: oneHour };
    const shape = this.r();
    const u: Rec = { input_tokens: input, cache_read_input_tokens: cacheRead };
    if (oneHour) this.seen.add('1h writes');
    if (longContext) this.seen.add('long context');
    if (write && shape < 0.2 && !this.legacy) {
      // Before 2.1.152: the top-level count 0, the real count only in the breakdown.
      u.cache_creation_input_tokens = 0;
      u.cache_creation = split;
      this.seen.add('writes only in the breakdown');
    } else if (write && shape < 0.27 && !this.legacy) {
      // A top-level count above the breakdown's sum: the larger one counts.
      u.cache_creation_input_tokens = write + this.int(1, 500);
      u.cache_creation = split;
      this.seen.add('writes above the breakdown');
    } else if (shape < 0.35) {
      u.cache_creation_input_tokens = write; // no breakdown: all 5-minute writes
    } else {
      u.cache_creation_input_tokens = write;
      u.cache_creation = split;
    }
    return u;
  }

  /** A response of `model` at `ts` with the late-2026 fields drawn at random. */
  response(model: string, ts: number, o: { agentic?: boolean } = {}): Response {
    const long = this.chance(0.12);
    const usage = this.tokens(long);
    const output = this.int(1, 6000);
    if (!this.legacy) {
      const geo = this.pick(GEOS);
      if (geo !== undefined) usage.inference_geo = geo;
      this.seen.add(`geo ${JSON.stringify(geo) ?? 'absent'}`);
    }
    usage.service_tier = 'standard';
    if (this.chance(0.25) && (!this.legacy || DATED_FAST.test(model))) {
      usage.speed = 'fast';
      this.seen.add(`fast ${model}`);
    } else if (this.chance(0.2)) usage.speed = 'standard';
    const searches = this.chance(0.15) ? this.int(1, 6) : 0;
    const fetches = this.chance(0.15) && !this.legacy ? this.int(1, 4) : 0;
    if (searches) this.seen.add('web search');
    if (fetches) this.seen.add('web fetch');
    if (long) this.seen.add(`long context ${model}`);
    if (searches || fetches || this.chance(0.3)) {
      usage.server_tool_use = this.legacy ? { web_search_requests: searches } : { web_search_requests: searches, web_fetch_requests: fetches };
    }
    if (!this.legacy && this.chance(0.3)) {
      const iterations: Rec[] = [{ type: 'message', input_tokens: usage.input_tokens, output_tokens: output }];
      if (this.chance(0.75)) {
        const advisor: Rec = { type: 'advisor_message', model: ADVISOR_MODEL, ...this.tokens(this.chance(0.1)), output_tokens: this.int(1, 3000) };
        // An iteration with its own speed: fast prices it as fast, whatever the response's speed.
        if (this.chance(0.2)) advisor.speed = 'fast';
        if (advisor.speed) this.seen.add('fast advisor');
        iterations.push(advisor);
      }
      if (this.chance(0.3)) iterations.push({ type: 'compaction', input_tokens: this.int(1, 9000), output_tokens: this.int(1, 900) });
      if (this.chance(0.15)) iterations.push({ type: 'advisor_message', model: 'claude-sonnet-4-5-20250929', ...this.tokens(false), output_tokens: this.int(1, 900) });
      usage.iterations = iterations;
      for (const it of iterations) this.seen.add(`iteration ${String(it.type)}${it.model ? ` ${String(it.model)}` : ''}`);
    }
    // One response is written as 1-3 lines (one per content block); some versions wrote a growing output count, so
    // the copy with the most output is not always the last.
    const copies = this.int(1, 3);
    const outputs = Array.from({ length: copies }, (_, i) => (i === copies - 1 || this.chance(0.5) ? output : this.int(1, output)));
    if (copies > 1 && this.chance(0.3)) outputs.reverse();
    const extra: Rec = { entrypoint: this.pick(ENTRYPOINTS) };
    if (this.chance(0.6)) extra.effort = this.pick(EFFORTS);
    const cause = this.r();
    if (cause < 0.15) extra.attributionSkill = this.pick(SKILLS);
    else if (cause < 0.3) {
      const [server, tool] = this.pick(MCP);
      extra.attributionMcpServer = server;
      extra.attributionMcpTool = tool;
    } else if (cause < 0.4 || o.agentic) extra.attributionAgent = this.pick(AGENTS);
    return { id: this.uid('msg_'), req: this.uid('req_'), ts, model, usage, outputs, extra };
  }
}

interface SessionCtx {
  sessionId: string;
  cwd: string;
  branch: string;
  version: string;
}

function assistantLine(s: SessionCtx, r: Response, output: number, side: { agentId?: string } = {}): Rec {
  const line: Rec = {
    parentUuid: null,
    isSidechain: side.agentId !== undefined,
    userType: 'external',
    cwd: s.cwd,
    sessionId: s.sessionId,
    version: s.version,
    gitBranch: s.branch,
    ...(side.agentId ? { agentId: side.agentId } : {}),
    ...r.extra,
    type: 'assistant',
    message: {
      ...(r.id ? { id: r.id } : {}),
      type: 'message',
      role: 'assistant',
      model: r.model,
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      usage: { ...r.usage, output_tokens: output },
    },
    uuid: `u-${r.id}-${output}`,
    timestamp: new Date(r.ts).toISOString(),
  };
  if (r.req !== null) line.requestId = r.req;
  if (r.costUSD !== undefined) line.costUSD = r.costUSD;
  return line;
}

function userPrompt(s: SessionCtx, ts: number, text: string): Rec {
  return { parentUuid: null, isSidechain: false, userType: 'external', cwd: s.cwd, sessionId: s.sessionId, version: s.version, gitBranch: s.branch,
    type: 'user', message: { role: 'user', content: text }, uuid: `u-${ts}`, timestamp: new Date(ts).toISOString() };
}

/** The lines of a response: one per copy. */
const linesOf = (s: SessionCtx, r: Response, side: { agentId?: string } = {}): Rec[] => r.outputs.map((o) => assistantLine(s, r, o, side));

/** A `progress` line streaming a subagent's response into its parent (data.message.message holds the usage). */
function progressLine(s: SessionCtx, r: Response, output: number, agentId: string): Rec {
  const nested = assistantLine({ ...s }, r, output, { agentId });
  return {
    timestamp: new Date(r.ts + 500).toISOString(),
    parentUuid: null, isSidechain: false, userType: 'external', cwd: s.cwd, sessionId: s.sessionId, version: s.version, gitBranch: s.branch,
    type: 'progress', parentToolUseID: `toolu_${agentId}`,
    data: { type: 'agent_progress', agentId, message: { type: 'assistant', timestamp: nested.timestamp, requestId: r.req, message: nested.message } },
    uuid: `p-${r.id}-${output}`,
  };
}

function write(file: string, lines: Rec[] | string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof lines === 'string' ? lines : jsonlText(lines));
}

/** Writes the history into `<out>/projects` and returns where it is. Deterministic for a seed. */
export function writeLateHistory(out: string, opts: LateHistoryOptions = {}): LateHistory {
  const w = new Writer(opts.seed ?? 32, opts.legacy ?? false);
  const projects = path.join(out, 'projects');
  const repos = [
    { folder: '-home-dev-cost-dashboard', cwd: '/home/dev/cost-dashboard', branch: 'main' },
    { folder: '-home-dev-cost-dashboard--claude-worktrees-mcore', cwd: '/home/dev/cost-dashboard/.claude/worktrees/mcore', branch: 'mcore' },
    { folder: '-home-dev-notes', cwd: '/home/dev/notes', branch: '' },
  ];
  const models = w.legacy ? LEGACY_MODELS : MODELS;
  const sessions: { ctx: SessionCtx; folder: string; responses: Response[] }[] = [];

  for (let i = 0; i < 14; i++) {
    const repo = repos[i % repos.length]!;
    const ctx: SessionCtx = { sessionId: `sess-${String(i).padStart(2, '0')}-${w.uid('')}`, cwd: repo.cwd, branch: repo.branch, version: `2.1.1${w.int(15, 70)}` };
    const day = BASE + (i % DAYS) * 86_400_000;
    let ts = day + (w.pick(MIDNIGHTS_UTC_MIN) - w.int(20, 90)) * MIN + w.int(0, 59_999);
    const model = models[i % models.length]!;
    const responses: Response[] = [];
    const lines: Rec[] = [userPrompt(ctx, ts - 3000, `Task ${i}: make the numbers right`)];
    for (let k = w.int(18, 34); k > 0; k--) {
      ts += w.int(1, 9) * MIN + w.int(0, 59_999);
      // A Fable session whose request fell back to Opus: message.model says which served it.
      const served = model === 'claude-fable-5-2' && w.chance(0.3) ? 'claude-opus-4-8' : w.chance(0.15) ? w.pick(models) : model;
      if (served !== model && model === 'claude-fable-5-2') w.seen.add('fable served by opus');
      const r = w.response(served, ts);
      responses.push(r);
      if (w.chance(0.3)) lines.push(userPrompt(ctx, ts - 1000, `step ${k}`));
      lines.push(...linesOf(ctx, r));
    }
    sessions.push({ ctx, folder: repo.folder, responses });
    const file = path.join(projects, repo.folder, `${ctx.sessionId}.jsonl`);

    // Subagents: their own file (sidechain lines) and, for some responses, progress copies in the parent with
    // another output count; one subagent is known only from its progress lines.
    if (i % 3 === 0) {
      const agentId = w.uid('a');
      const sub: SessionCtx = { ...ctx };
      const subResponses = Array.from({ length: w.int(4, 8) }, (_, k) => w.response('claude-haiku-4-5-20251001', ts - (10 - k) * MIN, { agentic: true }));
      write(path.join(projects, repo.folder, ctx.sessionId, 'subagents', `agent-${agentId}.jsonl`), subResponses.flatMap((r) => linesOf(sub, r, { agentId })));
      fs.writeFileSync(path.join(projects, repo.folder, ctx.sessionId, 'subagents', `agent-${agentId}.meta.json`), JSON.stringify({ agentType: 'Explore', description: 'Find the price rules' }));
      for (const r of subResponses) if (w.chance(0.6)) lines.push(progressLine(ctx, r, w.chance(0.5) ? Math.max(...r.outputs) + w.int(1, 50) : 1, agentId));
      const ghost = w.uid('a');
      for (let k = 0; k < 3; k++) lines.push(progressLine(ctx, w.response('claude-haiku-4-5-20251001', ts + (k + 1) * MIN, { agentic: true }), w.int(1, 800), ghost));
    }
    // A workflow run: agents under subagents/workflows/wf_<id>/, a 0-byte agent file, its meta and a journal.
    if (i % 5 === 1) {
      const wf = path.join(projects, repo.folder, ctx.sessionId, 'subagents', 'workflows', `wf_${w.uid('')}`);
      for (let a = 0; a < 2; a++) {
        const agentId = w.uid('wfa');
        const rs = Array.from({ length: w.int(3, 6) }, (_, k) => w.response(w.pick(models), ts - (20 - k) * MIN, { agentic: true }));
        write(path.join(wf, `agent-${agentId}.jsonl`), rs.flatMap((r) => linesOf(ctx, r, { agentId })));
        fs.writeFileSync(path.join(wf, `agent-${agentId}.meta.json`), JSON.stringify({ agentType: 'workflow-step', description: `step ${a}` }));
      }
      write(path.join(wf, `agent-${w.uid('wfa')}.jsonl`), '');
      write(path.join(wf, 'journal.jsonl'), [{ type: 'workflow_started', timestamp: new Date(ts).toISOString() }, { type: 'workflow_finished', timestamp: new Date(ts + MIN).toISOString() }]);
    }
    // Zero-usage `<synthetic>` lines (an interruption's placeholder) and one torn line.
    if (i % 4 === 2) {
      const r = w.response('<synthetic>', ts + MIN);
      r.usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      r.outputs = [0];
      r.extra = {};
      lines.push(...linesOf(ctx, r));
      lines.push({ broken: true, timestamp: new Date(ts + 2 * MIN).toISOString(), message: 'no usage here' });
    }
    write(file, lines);
    if (i % 4 === 2) fs.appendFileSync(file, '{"type":"assistant","message":{"usage":{"input_tokens":5\n');
  }

  // A resumed session replays its parent's last responses: most copies equal (the earlier file wins the tie), some
  // with more output (the replay wins and the response moves to the new session).
  for (const [from, at] of [[0, 6], [4, 10]] as const) {
    const parent = sessions[from]!;
    const ctx: SessionCtx = { ...parent.ctx, sessionId: `resumed-${w.uid('')}` };
    const tail = parent.responses.slice(-6);
    const lines: Rec[] = [];
    for (const r of tail) {
      const best = Math.max(...r.outputs);
      // A replayed response with an advisor part and more output: the response moves to the new session, its advisor
      // part (equal in both copies) stays in the earlier file's, since each part is deduplicated on its own output.
      const advised = Array.isArray(r.usage.iterations) && r.usage.iterations.some((it: Rec) => it.type === 'advisor_message');
      const more = advised || w.chance(0.4);
      if (advised) w.seen.add('advisor replayed with more output');
      lines.push(assistantLine(ctx, r, more ? best + w.int(1, 300) : best));
    }
    let ts = parent.responses.at(-1)!.ts + 30 * MIN + at * MIN;
    lines.push(userPrompt(ctx, ts, 'continue'));
    for (let k = 0; k < 6; k++) lines.push(...linesOf(ctx, w.response(parent.responses[0]!.model, (ts += w.int(1, 5) * MIN))));
    write(path.join(projects, parent.folder, `${ctx.sessionId}.jsonl`), lines);
  }

  // Claude Code 2.0.x: a 0-byte session file and the session's usage in a root agent-<id>.jsonl naming it.
  const old: SessionCtx = { sessionId: `old-${w.uid('')}`, cwd: repos[2]!.cwd, branch: '', version: '2.0.31' };
  write(path.join(projects, repos[2]!.folder, `${old.sessionId}.jsonl`), '');
  const oldTs = BASE + 2 * 86_400_000 + 7 * 3_600_000;
  const oldLines = [userPrompt(old, oldTs, 'Warmup'), ...Array.from({ length: 5 }, (_, k) => linesOf(old, w.response('claude-sonnet-4-5-20250929', oldTs + (k + 1) * MIN), { agentId: 'a0old' })).flat()];
  write(path.join(projects, repos[2]!.folder, 'agent-a0old.jsonl'), oldLines);

  // Older lines with their own costUSD, a model no catalogue prices, and ids missing (by session / none at all).
  const legacyCtx: SessionCtx = { sessionId: `costusd-${w.uid('')}`, cwd: repos[0]!.cwd, branch: 'main', version: '1.0.88' };
  const legacyTs = BASE + 3 * 86_400_000 + 18 * 3_600_000 + 10 * MIN;
  const legacyLines: Rec[] = [userPrompt(legacyCtx, legacyTs, 'old version')];
  for (let k = 0; k < 8; k++) {
    const r = w.response(k % 4 === 3 ? 'claude-mystery-9' : 'claude-sonnet-4-5-20250929', legacyTs + (k + 1) * 3 * MIN);
    r.usage = { input_tokens: r.usage.input_tokens, cache_creation_input_tokens: r.usage.cache_creation_input_tokens ?? 0, cache_read_input_tokens: r.usage.cache_read_input_tokens };
    if (k % 2 === 0) r.costUSD = Math.round(w.r() * 1e6) / 1e6;
    if (k === 5) r.req = null;
    if (k === 6) {
      r.req = null;
      r.id = '';
    }
    legacyLines.push(...linesOf(legacyCtx, r));
    if (k >= 5) legacyLines.push(...linesOf(legacyCtx, r)); // copies: one per session without a requestId, each without ids
  }
  write(path.join(projects, repos[0]!.folder, `${legacyCtx.sessionId}.jsonl`), legacyLines);

  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { dir: out, since: day(BASE - 86_400_000), until: day(BASE + (DAYS + 1) * 86_400_000), features: w.seen };
}

/**
 * The fixture catalogue as the history needs it, written to `file`: `claude-fable-5-2` added at Fable 5.1's prices
 * without a fast multiplier, and `claude-opus-4-7`'s multiplier taken out, so both take theirs from the rules' dated
 * table (6 and 2) instead of the catalogue.
 */
export function writeLateCatalogue(fixture: string, file: string): void {
  const cat = JSON.parse(fs.readFileSync(fixture, 'utf8')) as Record<string, Rec>;
  cat['claude-fable-5-2'] = { ...cat['claude-fable-5-1'] };
  const opus47 = { ...cat['claude-opus-4-7'] };
  delete opus47.provider_specific_entry;
  cat['claude-opus-4-7'] = opus47;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(cat));
}
