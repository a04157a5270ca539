// Report rows -> JSON with ccusage's field names (scripts written for ccusage keep working where the
// meaning is the same) and readable tables. Figures are the index's, untouched.
import type { Block, Totals } from '../shared/api-types.ts';
import type { DayUsage, ModelUsage, ReportBlock, SessionUsage, UsageGroup } from '../index-db/queries/reports.ts';
import { BLOCK_MS } from '../index-db/queries/blocks.ts';
import { addTotals } from '../index-db/queries/fold.ts';
import { duration, renderTable, tokens, usd, type Column } from './table.ts';
import type { TextSink } from './utf8-out.ts';

export type PeriodKind = 'daily' | 'weekly' | 'monthly';

/** A day, week (its Monday) or month (YYYY-MM) and its usage. */
export interface Period extends UsageGroup {
  key: string;
}

interface TokenFields {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
}

const tokenFields = (t: Totals): TokenFields => ({
  inputTokens: t.inputTokens, outputTokens: t.outputTokens, cacheCreationTokens: t.cacheCreationTokens,
  cacheReadTokens: t.cacheReadTokens, totalTokens: t.totalTokens,
});

const breakdown = (m: ModelUsage) => ({
  modelName: m.model, inputTokens: m.inputTokens, outputTokens: m.outputTokens,
  cacheCreationTokens: m.cacheCreationTokens, cacheReadTokens: m.cacheReadTokens, cost: m.cost,
});

const groupFields = (g: UsageGroup) => ({
  ...tokenFields(g.totals), totalCost: g.totals.cost, modelsUsed: g.models.map((m) => m.model), modelBreakdowns: g.models.map(breakdown),
});

const totalsJson = (t: Totals) => ({ ...tokenFields(t), totalCost: t.cost });

/** Monday of the week of a YYYY-MM-DD date (weeks start on Monday, as on the dashboard). */
export function weekOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** Days grouped by week or month (days as they are for 'daily'), model splits merged by name. */
export function periodsOf(days: DayUsage[], kind: PeriodKind): Period[] {
  if (kind === 'daily') return days.map((d) => ({ key: d.day, totals: d.totals, models: d.models }));
  const keyOf = kind === 'weekly' ? weekOf : (day: string) => day.slice(0, 7);
  const out: Period[] = [];
  for (const d of days) {
    const key = keyOf(d.day);
    let p = out.at(-1);
    if (p?.key !== key) out.push((p = { key, totals: { ...d.totals, cost: 0, messages: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0 }, models: [] }));
    addTotals(p.totals, d.totals);
    for (const m of d.models) {
      const into = p.models.find((x) => x.model === m.model);
      if (into) addTotals(into, m);
      else p.models.push({ ...m });
    }
  }
  for (const p of out) p.models.sort((a, b) => b.cost - a.cost || a.model.localeCompare(b.model));
  return out;
}


const PERIOD_FIELD = { daily: 'date', weekly: 'week', monthly: 'month' } as const;

export function periodJson(kind: PeriodKind, periods: Period[], totals: Totals): unknown {
  return {
    [kind]: periods.map((p) => ({ [PERIOD_FIELD[kind]]: p.key, ...groupFields(p) })),
    totals: totalsJson(totals),
  };
}

export function sessionJson(sessions: SessionUsage[], totals: Totals): unknown {
  return {
    sessions: sessions.map((s) => ({
      sessionId: s.sessionId, projectPath: s.project.id, projectName: s.project.name, machine: s.machine, title: s.title,
      ...groupFields(s), firstActivity: s.firstActivity, lastActivity: s.lastActivity,
    })),
    totals: totalsJson(totals),
  };
}

/** A string or a number as JSON.stringify writes it (a number that is not finite is null). */
const str = (s: string): string => JSON.stringify(s);
const num = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

/** The token fields of tokenFields(), one a line at `indent`, each followed by a comma. */
const tokenLines = (t: Totals, indent: string): string =>
  `${indent}"inputTokens": ${num(t.inputTokens)},\n${indent}"outputTokens": ${num(t.outputTokens)},\n` +
  `${indent}"cacheCreationTokens": ${num(t.cacheCreationTokens)},\n${indent}"cacheReadTokens": ${num(t.cacheReadTokens)},\n` +
  `${indent}"totalTokens": ${num(t.totalTokens)},\n`;

/**
 * `${JSON.stringify(sessionJson(sessions, totals), null, 2)}\n`, character for character, written field by field, a
 * session a piece: a big history's report (18 MB of JSON at 10 GiB) builds neither the objects of sessionJson nor one
 * string of all of it, which with its conversion to bytes in one piece cost more than its query (issue 35).
 * test/cli/session-json.test.ts compares the two; a field added to sessionJson must be added here.
 */
export function writeSessionJson(sessions: readonly SessionUsage[], totals: Totals, out: TextSink): void {
  // Folders, machines and models recur from session to session: each is quoted once.
  const quoted = new Map<string, string>();
  const q = (s: string): string => {
    let j = quoted.get(s);
    if (j === undefined) quoted.set(s, (j = str(s)));
    return j;
  };
  out.add(sessions.length ? '{\n  "sessions": [\n' : '{\n  "sessions": [],\n');
  for (let i = 0; i < sessions.length; i++) {
    const s = sessions[i]!;
    let text = `    {\n      "sessionId": ${str(s.sessionId)},\n      "projectPath": ${q(s.project.id)},\n      "projectName": ${q(s.project.name)},\n` +
      `      "machine": ${q(s.machine)},\n      "title": ${str(s.title)},\n${tokenLines(s.totals, '      ')}      "totalCost": ${num(s.totals.cost)},\n`;
    if (!s.models.length) {
      text += '      "modelsUsed": [],\n      "modelBreakdowns": [],\n';
    } else {
      text += '      "modelsUsed": [\n';
      for (let j = 0; j < s.models.length; j++) text += `        ${q(s.models[j]!.model)}${j < s.models.length - 1 ? ',\n' : '\n'}`;
      text += '      ],\n      "modelBreakdowns": [\n';
      for (let j = 0; j < s.models.length; j++) {
        const m = s.models[j]!;
        text += `        {\n          "modelName": ${q(m.model)},\n          "inputTokens": ${num(m.inputTokens)},\n          "outputTokens": ${num(m.outputTokens)},\n` +
          `          "cacheCreationTokens": ${num(m.cacheCreationTokens)},\n          "cacheReadTokens": ${num(m.cacheReadTokens)},\n          "cost": ${num(m.cost)}\n` +
          `        }${j < s.models.length - 1 ? ',\n' : '\n'}`;
      }
      text += '      ],\n';
    }
    text += `      "firstActivity": ${str(s.firstActivity)},\n      "lastActivity": ${str(s.lastActivity)}\n    }${i < sessions.length - 1 ? ',\n' : '\n'}`;
    out.add(text);
  }
  if (sessions.length) out.add('  ],\n');
  out.add(`  "totals": {\n${tokenLines(totals, '    ')}    "totalCost": ${num(totals.cost)}\n  }\n}\n`);
}

/** ccusage's block entries: the blocks, with a gap entry (until the next entry) wherever more than 5 h passed without usage. */
export function blocksJson(blocks: ReportBlock[]): unknown {
  const out: unknown[] = [];
  let prevLast: number | null = null;
  for (const b of blocks) {
    const start = Date.parse(b.start);
    if (prevLast !== null && start - prevLast > BLOCK_MS) {
      const gapStart = new Date(prevLast + BLOCK_MS).toISOString();
      out.push({
        id: `gap-${gapStart}`, startTime: gapStart, endTime: b.firstActivity, actualEndTime: null, isActive: false, isGap: true, entries: 0,
        tokenCounts: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
        totalTokens: 0, costUSD: 0, models: [], burnRate: null, projection: null,
      });
    }
    prevLast = Date.parse(b.lastActivity);
    out.push({
      id: b.start, startTime: b.start, endTime: b.end, actualEndTime: b.lastActivity, isActive: b.active, isGap: false,
      entries: b.messages,
      tokenCounts: {
        inputTokens: b.inputTokens, outputTokens: b.outputTokens,
        cacheCreationInputTokens: b.cacheCreationTokens, cacheReadInputTokens: b.cacheReadTokens,
      },
      totalTokens: b.totalTokens, costUSD: b.cost, models: b.models,
      burnRate: b.burn && { costPerHour: b.burn.costPerHour, tokensPerMinute: b.burn.tokensPerMinute },
      projection: b.burn && {
        totalTokens: Math.round(b.burn.tokensPerMinute * (BLOCK_MS / 60_000)),
        totalCost: b.burn.projectedCost,
        remainingMinutes: Math.round(b.burn.minutesLeft),
      },
      // Beyond ccusage's shape, only on a block that a plan limit hit stopped.
      ...(b.limitHit ? { limitHit: b.limitHit } : {}),
    });
  }
  return { blocks: out };
}

// ---- tables

const models = (g: UsageGroup): string => g.models.map((m) => shortModel(m.model)).join(', ');

/** claude-sonnet-4-5-20250929 -> sonnet-4-5: enough to tell models apart in a narrow column. */
function shortModel(name: string): string {
  return name.replace(/^(anthropic\/)?claude-/, '').replace(/-\d{8}$/, '');
}

const tokenColumns = <R>(totalsOf: (r: R) => Totals): Column<R>[] => [
  { header: 'Input', right: true, keep: 3, cell: (r) => tokens(totalsOf(r).inputTokens) },
  { header: 'Output', right: true, keep: 4, cell: (r) => tokens(totalsOf(r).outputTokens) },
  { header: 'Cache Create', right: true, keep: 1, cell: (r) => tokens(totalsOf(r).cacheCreationTokens) },
  { header: 'Cache Read', right: true, keep: 2, cell: (r) => tokens(totalsOf(r).cacheReadTokens) },
  { header: 'Total Tokens', right: true, keep: 6, cell: (r) => tokens(totalsOf(r).totalTokens) },
  { header: 'Cost (USD)', right: true, keep: Infinity, cell: (r) => usd(totalsOf(r).cost) },
];

const HEADER = { daily: 'Date', weekly: 'Week of', monthly: 'Month' } as const;

/** `--breakdown`: after each row, one row per model of its group (the dearest first), named in its first column. */
function withModels<R>(groups: readonly UsageGroup[], row: (g: UsageGroup, i: number) => R, modelRow: (m: ModelUsage) => R, breakdown: boolean): R[] {
  return groups.flatMap((g, i) => [row(g, i), ...(breakdown ? g.models.map(modelRow) : [])]);
}

const modelLabel = (m: ModelUsage): string => `  └ ${shortModel(m.model)}`;

export function periodTable(kind: PeriodKind, periods: Period[], totals: Totals, width: number, breakdown = false): string {
  if (!periods.length) return 'No usage in this range.\n';
  type Row = { key: string; models: string; totals: Totals };
  const rows = withModels<Row>(periods, (p, i) => ({ key: periods[i]!.key, models: models(p), totals: p.totals }),
    (m) => ({ key: modelLabel(m), models: '', totals: m }), breakdown);
  const columns: Column<Row>[] = [
    { header: HEADER[kind], keep: Infinity, cell: (r) => r.key },
    { header: 'Models', keep: 5, flex: true, cell: (r) => r.models },
    ...tokenColumns<Row>((r) => r.totals),
  ];
  return renderTable(columns, rows, { key: 'Total', models: '', totals }, width);
}

export function sessionTable(sessions: SessionUsage[], totals: Totals, width: number, breakdown = false): string {
  if (!sessions.length) return 'No usage in this range.\n';
  type Row = { title: string; project: string; machine: string; last: string; models: string; totals: Totals };
  const rows = withModels<Row>(sessions, (_, i) => {
    const s = sessions[i]!;
    return { title: s.title.replace(/\s+/g, ' '), project: s.project.name, machine: s.machine, last: s.lastActivity.slice(0, 10), models: models(s), totals: s.totals };
  }, (m) => ({ title: modelLabel(m), project: '', machine: '', last: '', models: '', totals: m }), breakdown);
  // The machine column only where the sessions come from more than one machine (one machine: the table as before).
  const machineColumn: Column<Row>[] = new Set(sessions.map((s) => s.machine)).size > 1 ? [{ header: 'Machine', keep: 7, cell: (r) => r.machine }] : [];
  const columns: Column<Row>[] = [
    { header: 'Session', keep: Infinity, flex: true, cell: (r) => r.title },
    { header: 'Project', keep: 7, cell: (r) => r.project },
    ...machineColumn,
    { header: 'Last Activity', keep: 8, cell: (r) => r.last },
    { header: 'Models', keep: 5, flex: true, cell: (r) => r.models },
    ...tokenColumns<Row>((r) => r.totals),
  ];
  return renderTable(columns, rows, { title: 'Total', project: '', machine: '', last: '', models: '', totals }, width);
}

/** Local 'YYYY-MM-DD HH:MM' of an instant. */
const localTime = (iso: string): string => {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};

export function blocksTable(blocks: Block[], width: number): string {
  if (!blocks.length) return 'No usage in this range.\n';
  const columns: Column<Block>[] = [
    { header: 'Block Start', keep: Infinity, cell: (b) => localTime(b.start) },
    // A finished block's length (its start to its last entry, as ccusage counts it); the active one's time left.
    {
      header: 'Duration / Status', keep: 9, cell: (b) =>
        b.burn ? `ACTIVE, ${duration(b.burn.minutesLeft)} left` : duration((Date.parse(b.lastActivity) - Date.parse(b.start)) / 60_000),
    },
    { header: 'Models', keep: 5, flex: true, cell: (b) => b.models.map(shortModel).join(', ') },
    { header: 'Messages', right: true, keep: 3, cell: (b) => tokens(b.messages) },
    { header: 'Tokens', right: true, keep: 6, cell: (b) => tokens(b.totalTokens) },
    { header: 'Cost (USD)', right: true, keep: Infinity, cell: (b) => usd(b.cost) },
    { header: 'Burn / Projected', right: true, keep: 7, cell: (b) => (b.burn ? `${usd(b.burn.costPerHour)}/h → ${usd(b.burn.projectedCost)}` : '') },
  ];
  return renderTable(columns, blocks, null, width);
}
