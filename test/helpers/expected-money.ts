// The expected cost and tokens of a config dir, per local day, per model and per session, computed from the
// transcripts, a LiteLLM catalogue and the rules of decisions.md ("What counts, and what it costs") alone. It imports
// nothing from src/ on purpose: a test that compares the index with it checks the index's reading of the rules
// against a second, independent reading, not the index's code against itself.
import fs from 'node:fs';
import path from 'node:path';

type Rec = Record<string, unknown>;

export interface Figures {
  cost: number;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}

export interface Group extends Figures {
  /** By the model that served each part (`<…>` models left out). */
  models: Map<string, Figures>;
}

/** A workflow run's figures: its agents (`<session>/subagents/workflows/<runId>/agent-*.jsonl`, empty ones too). */
export interface Run extends Figures {
  agents: number;
}

export interface Expected {
  days: Map<string, Group>;
  sessions: Map<string, Group>;
  /** Session -> workflow run id -> its figures. */
  workflows: Map<string, Map<string, Run>>;
  totals: Group;
  /** How many usage entries counted after the dedup (advisor iterations are parts of their entry). */
  entries: number;
}

/**
 * The rules that differ between this dashboard and ccusage 20.0.24, as switches, so that a test can reckon what each
 * tool should show and name every difference (docs/counting-rules.md lists them).
 */
export interface Rules {
  /** `inference_geo: "us"`: the entry's cost × 1.1 (ccusage: × 1). */
  usOnly: boolean;
  /** $0.01 a web search (ccusage: free). */
  webSearch: boolean;
  /** Fast mode on a model without a known multiplier: 2 (ccusage: 1). */
  fastEstimate: boolean;
  /** 'request': past 200k tokens in a request every token at the long-context prices; 'tiered' (ccusage): per token kind, the tokens above 200k. */
  longContext: 'request' | 'tiered';
  /** 'max': cache writes = max(top-level, 5m + 1h); 'breakdown' (ccusage): the breakdown's sum when there is one. */
  cacheWrites: 'max' | 'breakdown';
  /** Copies with equal output: 'firstTimestamp' the file with the earliest line, then path; 'path' (ccusage): path order. */
  tie: 'firstTimestamp' | 'path';
  /**
   * Subagent usage streamed into `progress` lines: 'count' as any copy; 'preferred' (ccusage's daily) the streamed
   * copy counts instead of the subagent file's, whatever their output; 'none' (ccusage's session report).
   */
  progress: 'count' | 'preferred' | 'none';
  /** 'ours': decisions.md's layout; 'ccusage': a file's session is its name, or its folder's (`subagents/` aside). */
  sessions: 'ours' | 'ccusage';
}

export const OUR_RULES: Rules = { usOnly: true, webSearch: true, fastEstimate: true, longContext: 'request', cacheWrites: 'max', tie: 'firstTimestamp', progress: 'count', sessions: 'ours' };
export const CCUSAGE_RULES: Rules = { usOnly: false, webSearch: false, fastEstimate: false, longContext: 'tiered', cacheWrites: 'breakdown', tie: 'path', progress: 'preferred', sessions: 'ccusage' };

interface Rates {
  input: number;
  output: number;
  cacheRead: number;
  write5m: number;
  write1h: number;
}

interface Price {
  base: Rates;
  long: Rates | null;
  fast: number | null;
}

/** One copy of a part of a usage entry as a file holds it: the response's own usage, or one advisor iteration. */
interface Copy {
  key: string;
  file: number;
  line: number;
  session: string;
  ts: number;
  output: number;
  advisor: boolean;
  model: string;
  usage: Rec;
  /** The entry's `inference_geo` is "us" (an advisor iteration shares its entry's). */
  us: boolean;
  /** The figures of the workflow run the file belongs to, or null. */
  workflow: Run | null;
  costUSD: number | null;
  progress: boolean;
}

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

const LONG_CONTEXT = 200_000;
const WEB_SEARCH_USD = 0.01;
const US_ONLY = 1.1;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else if (e.name.endsWith('.jsonl')) out.push(p);
  }
  return out;
}

/** The session of a file from its place: `<p>/<s>.jsonl`, `<p>/<s>/subagents/**`; else null (each line names it). */
function sessionOfPath(rel: string[], rules: Rules): string | null {
  const base = path.basename(rel.at(-1)!, '.jsonl');
  if (rules.sessions === 'ccusage') return rel.length === 2 ? base : rel.at(-2) === 'subagents' ? rel.at(-3)! : rel.at(-2)!;
  if (rel.length === 2) return base.startsWith('agent-') ? null : base;
  if (rel.length > 3 && rel[2] === 'subagents') return rel[1]!;
  return null;
}

/** Every copy of every usage entry under `<dir>/projects`, with each file's first timestamp. */
/** `<p>/<s>/subagents/workflows/<runId>/agent-*.jsonl`: the run id, else null. */
function workflowOf(rel: string[]): string | null {
  return rel.length === 6 && rel[2] === 'subagents' && rel[3] === 'workflows' && rel[5]!.startsWith('agent-') ? rel[4]! : null;
}

function readCopies(dir: string, rules: Rules): { copies: Copy[]; firstTs: number[]; paths: string[]; workflows: Map<string, Map<string, Run>> } {
  const projects = path.join(dir, 'projects');
  const paths = files(projects).sort();
  const copies: Copy[] = [];
  const firstTs: number[] = [];
  const workflows = new Map<string, Map<string, Run>>();
  let unique = 0;
  paths.forEach((file, f) => {
    const rel = path.relative(projects, file).split(path.sep);
    const fromPath = sessionOfPath(rel, rules);
    const runId = workflowOf(rel);
    const workflow = runId === null ? null : getOr(getOr(workflows, rel[1]!, () => new Map<string, Run>()), runId, () => ({ ...zero(), agents: 0 }));
    if (workflow) workflow.agents++;
    let first = Infinity;
    fs.readFileSync(file, 'utf8').split('\n').forEach((raw, n) => {
      let line: unknown;
      try {
        line = JSON.parse(raw);
      } catch {
        return; // blank or torn: skipped
      }
      if (!isRec(line)) return;
      const own = Date.parse(text(line.timestamp));
      if (Number.isFinite(own)) first = Math.min(first, own);
      // A progress line carries a subagent's response: its usage, ids and time are the nested message's.
      const nested = line.type === 'progress' && isRec(line.data) && line.data.type === 'agent_progress' && isRec(line.data.message) ? line.data.message : null;
      const holder = nested ?? line;
      const message = holder.message;
      if (!isRec(message) || !isRec(message.usage)) return;
      const ts = Date.parse(text(holder.timestamp));
      if (!Number.isFinite(ts)) return;
      const session = fromPath ?? text(line.sessionId);
      const id = text(message.id);
      const req = text(holder.requestId);
      const key = id && req ? `r\0${id}\0${req}` : id ? `s\0${session}\0${id}` : `u\0${unique++}`;
      const cost = nested ? undefined : line.costUSD;
      const usage = message.usage;
      const part = { file: f, line: n, session, ts, us: usage.inference_geo === 'us', progress: nested !== null, workflow };
      copies.push({ ...part, key, output: num(usage.output_tokens), advisor: false, model: text(message.model), usage, costUSD: typeof cost === 'number' ? cost : null });
      // Advisor iterations: extra usage under their own model, in the same entry (time, session, geo, dedup key: one
      // copy of each per response); other iteration types add nothing.
      const advisors = (Array.isArray(usage.iterations) ? usage.iterations : []).filter((it): it is Rec => isRec(it) && it.type === 'advisor_message');
      advisors.forEach((it, k) => copies.push({ ...part, key: key.startsWith('u') ? `u\0${unique++}` : `${key}\0advisor\0${k}`, output: num(it.output_tokens), advisor: true, model: text(it.model) || text(message.model), usage: it, costUSD: null }));
    });
    firstTs.push(first);
  });
  return { copies, firstTs, paths, workflows };
}

/** One copy per response: the most output tokens, on a tie the earliest file (first timestamp, then path). */
function dedup(copies: Copy[], firstTs: number[], paths: string[], rules: Rules): Copy[] {
  const best = new Map<string, Copy>();
  const byTime = rules.tie === 'firstTimestamp';
  const better = (a: Copy, b: Copy): boolean =>
    a.output !== b.output ? a.output > b.output
      : a.file !== b.file ? (byTime && firstTs[a.file]! !== firstTs[b.file]! ? firstTs[a.file]! < firstTs[b.file]! : paths[a.file]! < paths[b.file]!)
      : a.line < b.line;
  for (const c of copies) {
    const held = best.get(c.key);
    if (!held || better(c, held)) best.set(c.key, c);
  }
  return [...best.values()];
}

/**
 * The copies that count. 'preferred' is ccusage's daily: a streamed response counts instead of the file's copy, and
 * without advisor iterations (it reads none in a progress line), which come from the files' copies.
 */
function counted(copies: Copy[], firstTs: number[], paths: string[], rules: Rules): Copy[] {
  if (rules.progress === 'count') return dedup(copies, firstTs, paths, rules);
  const lines = dedup(copies.filter((c) => !c.progress), firstTs, paths, rules);
  if (rules.progress === 'none') return lines;
  const streamed = dedup(copies.filter((c) => c.progress && !c.advisor), firstTs, paths, rules);
  const held = new Set(streamed.map((c) => c.key));
  return [...lines.filter((c) => !held.has(c.key)), ...streamed];
}

function rates(e: Rec, model: string): Price {
  const n = (k: string): number | null => (typeof e[k] === 'number' ? (e[k] as number) : null);
  const need = (k: string): number => {
    const v = n(k);
    if (v === null) throw new Error(`expected-money: ${model} has no ${k} in the catalogue`);
    return v;
  };
  const base: Rates = {
    input: need('input_cost_per_token'),
    output: need('output_cost_per_token'),
    cacheRead: need('cache_read_input_token_cost'),
    write5m: need('cache_creation_input_token_cost'),
    write1h: n('cache_creation_input_token_cost_above_1hr') ?? 2 * need('input_cost_per_token'),
  };
  const inputLong = n('input_cost_per_token_above_200k_tokens');
  const outputLong = n('output_cost_per_token_above_200k_tokens');
  const readLong = n('cache_read_input_token_cost_above_200k_tokens');
  const writeLong = n('cache_creation_input_token_cost_above_200k_tokens');
  const long = inputLong === null && outputLong === null && readLong === null && writeLong === null ? null : {
    input: inputLong ?? base.input,
    output: outputLong ?? base.output,
    cacheRead: readLong ?? base.cacheRead,
    write5m: writeLong ?? base.write5m,
    // A 1-hour write costs twice the input price: in a long-context request, twice the long-context input price.
    write1h: n('cache_creation_input_token_cost_above_1hr_above_200k_tokens') ?? (inputLong !== null ? 2 * inputLong : base.write1h),
  };
  const specific = e.provider_specific_entry;
  const fast = isRec(specific) && typeof specific.fast === 'number' ? specific.fast : null;
  return { base, long, fast };
}

/** decisions.md "Model lookup": exact, anthropic/, '.'/'@' as '-', then the longest key at a name boundary. */
function lookup(catalogue: Rec, name: string): string | null {
  const priced = (k: string): boolean => isRec(catalogue[k]) && typeof (catalogue[k] as Rec).input_cost_per_token === 'number' && typeof (catalogue[k] as Rec).output_cost_per_token === 'number';
  const direct = (n: string): string | null => (priced(n) ? n : priced(`anthropic/${n}`) ? `anthropic/${n}` : null);
  const norm = name.replace(/[.@]/g, '-');
  const found = direct(name) ?? direct(norm);
  if (found) return found;
  let bestKey: string | null = null;
  let bestLen = -1;
  for (const key of Object.keys(catalogue)) {
    if (!priced(key)) continue;
    const plain = key.startsWith('anthropic/') ? key.slice('anthropic/'.length) : key;
    if (plain.includes('/')) continue;
    const stem = plain.replace(/[.@]/g, '-');
    if (!norm.startsWith(stem) || norm.length === stem.length || !/[-_:/]/.test(norm[stem.length]!)) continue;
    const next = norm.slice(stem.length + 1).split(/[-_:/]/)[0]!;
    if (/^\d+$/.test(next) && !/^\d{8}$/.test(next)) continue; // a version after the key: another model
    const better = stem.length > bestLen || (stem.length === bestLen && !key.startsWith('anthropic/'));
    if (better) [bestKey, bestLen] = [key, stem.length];
  }
  return bestKey;
}

/** The fast multiplier when the catalogue gives none: the rules' dated table, else 2 (an estimate, never 1). */
function datedFast(model: string, rules: Rules): number {
  return /opus-4-[67](?![0-9])/.test(model) ? 6 : /opus-(4-8|5)|fable-5-2/.test(model) || rules.fastEstimate ? 2 : 1;
}

interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  write: number;
  write1h: number;
}

/** Tokens of a usage object (top-level or an iteration); cache writes by the larger of the count and its breakdown. */
function tokensOf(u: Rec, rules: Rules): Tokens {
  const split = isRec(u.cache_creation) ? u.cache_creation : null;
  const parts = split ? num(split.ephemeral_5m_input_tokens) + num(split.ephemeral_1h_input_tokens) : 0;
  const write = rules.cacheWrites === 'breakdown' && split ? parts : Math.max(num(u.cache_creation_input_tokens), parts);
  return { input: num(u.input_tokens), output: num(u.output_tokens), cacheRead: num(u.cache_read_input_tokens), write, write1h: Math.min(num(split?.ephemeral_1h_input_tokens), write) };
}

function tokenCost(p: Price, t: Tokens, rules: Rules): number {
  const kinds: [number, keyof Rates][] = [[t.input, 'input'], [t.output, 'output'], [t.cacheRead, 'cacheRead'], [t.write - t.write1h, 'write5m'], [t.write1h, 'write1h']];
  const long = p.long;
  if (!long) return kinds.reduce((a, [n, k]) => a + n * p.base[k], 0);
  if (rules.longContext === 'tiered') {
    return kinds.reduce((a, [n, k]) => a + Math.min(n, LONG_CONTEXT) * p.base[k] + Math.max(n - LONG_CONTEXT, 0) * long[k], 0);
  }
  const r = t.input + t.cacheRead + t.write > LONG_CONTEXT ? long : p.base;
  return kinds.reduce((a, [n, k]) => a + n * r[k], 0);
}

const zero = (): Figures => ({ cost: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 });
const group = (): Group => ({ ...zero(), models: new Map() });

function add(into: Figures, cost: number, t: Tokens): void {
  into.cost += cost;
  into.inputTokens += t.input;
  into.outputTokens += t.output;
  into.cacheCreationTokens += t.write;
  into.cacheReadTokens += t.cacheRead;
}

export interface ExpectedOptions {
  /** IANA zone of the local days. */
  timeZone: string;
  /** 'auto': a line's costUSD is its cost (the default); 'calculate': always from tokens. */
  mode?: 'auto' | 'calculate';
  /** The name a model is reported under (default: as the transcript writes it). */
  modelName?: (model: string) => string;
  /** Default: OUR_RULES. */
  rules?: Rules;
}

/** Expected figures of the config dir `dir` priced from `catalogue` (LiteLLM's JSON, parsed). */
export function expectedMoney(dir: string, catalogue: Rec, opts: ExpectedOptions): Expected {
  const rules = opts.rules ?? OUR_RULES;
  const { copies, firstTs, paths, workflows } = readCopies(dir, rules);
  const winners = counted(copies, firstTs, paths, rules);
  const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: opts.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const prices = new Map<string, Price | null>();
  const priceOf = (model: string): Price | null => {
    const bare = model.replace(/\[[^\]]*\]$/, '');
    if (!prices.has(bare)) {
      const key = bare.startsWith('<') ? null : lookup(catalogue, bare);
      prices.set(bare, key === null ? null : rates(catalogue[key] as Rec, key));
    }
    return prices.get(bare)!;
  };
  const nameOf = opts.modelName ?? ((m: string) => m);
  const out: Expected = { days: new Map(), sessions: new Map(), workflows, totals: group(), entries: winners.filter((w) => !w.advisor).length };
  const part = (c: Copy, model: string, cost: number, t: Tokens): void => {
    const day = dayOf.format(c.ts);
    const targets = [out.totals, getOr(out.days, day, group), getOr(out.sessions, c.session, group)];
    if (c.workflow) add(c.workflow, cost, t);
    for (const g of targets) {
      add(g, cost, t);
      if (!model.startsWith('<')) add(getOr(g.models, nameOf(model), zero), cost, t);
    }
  };
  for (const c of winners) {
    const u = c.usage;
    const geo = c.us && rules.usOnly ? US_ONLY : 1;
    const t = tokensOf(u, rules);
    const p = priceOf(c.model);
    let cost = 0;
    if (c.costUSD !== null && opts.mode !== 'calculate') cost = c.costUSD;
    else if (p) {
      // An advisor iteration is fast when its own usage says so, as a response is.
      const fast = u.speed === 'fast' ? p.fast ?? datedFast(c.model, rules) : 1;
      const server = isRec(u.server_tool_use) && rules.webSearch ? u.server_tool_use : {};
      cost = (tokenCost(p, t, rules) * fast + num(server.web_search_requests) * WEB_SEARCH_USD) * geo;
    }
    part(c, c.model, cost, t);
  }
  return out;
}

function getOr<K, V>(m: Map<K, V>, k: K, make: () => V): V {
  let v = m.get(k);
  if (v === undefined) m.set(k, (v = make()));
  return v;
}
