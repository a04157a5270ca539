// The readers of `messages` on two index files with two source trees, interleaved call by call, in-process (no HTTP):
//   node --import tsx bench/readers-ab.ts A.db A_SRC B.db B_SRC
// e.g. a v8 file with main's tree against the same history migrated with this one. Prints p50 / p95 per reader and says
// when an answer differs. Run it under the TZ to measure (a zone with :30 or :45 offsets reads entries at day edges).
// ONLY=text keeps the readers whose name contains it.
import Database from 'better-sqlite3';
import { PriceTable } from '../src/pricing/table.ts';
import { percentile } from './common.ts';

const [fileA, srcA, fileB, srcB] = process.argv.slice(2);
if (!fileA || !srcA || !fileB || !srcB) throw new Error('usage: bench/readers-ab.ts A.db A_SRC B.db B_SRC');

type Range = unknown;
interface Side {
  reader: { entries(fromMs: number, toMs: number, scope: number[] | null): unknown };
  status: { status(session: string | null, now: number): unknown };
  reports: { blocks(r: Range, p: null, now: number): unknown; days(r: Range, p: null): unknown; sessions(r: Range, p: null, m: string): unknown };
  queries: {
    insights(scope: object): unknown; overview(scope: object): unknown;
    projectSessions(project: string, scope: object): unknown; session(id: string, scope: object, machine: string): unknown;
  };
  range(days: string): Range;
}

/** One side: the index file, read only, through the query modules of source tree `src`. */
async function side(file: string, src: string): Promise<Side> {
  const db = new Database(file, { readonly: true });
  const mod = async (p: string) => import(`${src}/src/${p}`) as Promise<Record<string, (...args: unknown[]) => never>>;
  const { Reader } = (await import(`${src}/src/index-db/queries/reader.ts`)) as { Reader: new (db: Database.Database) => Side['reader'] };
  const { parseRange } = await mod('http/params.ts');
  const prices = PriceTable.builtin();
  return {
    reader: new Reader(db),
    status: (await mod('index-db/queries/status.ts')).createStatusQueries!(db),
    reports: (await mod('index-db/queries/reports.ts')).createReports!(db),
    queries: (await mod('index-db/queries/index.ts')).createQueries!(db, () => prices),
    range: (days) => parseRange!({ range: days }, 'all', now),
  };
}

const probe = new Database(fileB, { readonly: true });
const HOUR = 3_600_000;
const hours = probe.prepare('SELECT hour FROM usage_hourly_all').pluck().all() as number[];
const sessions = probe.prepare('SELECT sid FROM sessions').pluck().all() as string[];
const projects = probe.prepare('SELECT id, encoded FROM projects').raw(true).all() as [number, string][];
probe.close();
const now = (hours.at(-1)! + 1) * HOUR;
const sides = [await side(fileA, srcA), await side(fileB, srcB)] as const;

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
const cases: [string, number, (s: Side, i: number) => unknown][] = [
  ['entries of one hour, every project (a block end)', 60, (s, i) => s.reader.entries(pick(hours, i) * HOUR, (pick(hours, i) + 1) * HOUR, null)],
  ['entries of 45 min, one project (a :45 edge)', 60, (s, i) => s.reader.entries(pick(hours, i) * HOUR + 15 * 60e3, (pick(hours, i) + 1) * HOUR, [pick(projects, i)[0]])],
  ['statusline status (session cost, today, block)', 60, (s, i) => s.status.status(pick(sessions, i), now)],
  ['blocks report, 7 days', 60, (s) => s.reports.blocks(s.range('7'), null, now)],
  ['daily report, 365 days', 20, (s) => s.reports.days(s.range('365'), null)],
  ['sessions report, 30 days', 60, (s) => s.reports.sessions(s.range('30'), null, 'here')],
  ['project sessions, 365 days (branches, edges)', 20, (s, i) => s.queries.projectSessions(pick(projects, i)[1], { range: s.range('365'), project: pick(projects, i)[1], now })],
  ['session view', 60, (s, i) => s.queries.session(pick(sessions, i), { range: s.range('7'), project: null, now }, 'here')],
  ['insights, 365 days', 20, (s) => s.queries.insights({ range: s.range('365'), project: null, now })],
  ['insights, all time', 20, (s) => s.queries.insights({ range: s.range('all'), project: null, now })],
  ['overview, 365 days', 20, (s) => s.queries.overview({ range: s.range('365'), project: null, now })],
];

let seed = 7;
for (const [name, calls, run] of cases.filter(([n]) => !process.env.ONLY || n.includes(process.env.ONLY))) {
  const times: [number[], number[]] = [[], []];
  for (let c = 0; c < calls; c++) {
    const i = (seed = (seed * 48271) % 2147483647);
    const answers: string[] = [];
    for (const k of c % 2 ? [1, 0] : [0, 1]) {
      const started = performance.now();
      answers[k] = JSON.stringify(run(sides[k]!, i));
      times[k as 0 | 1].push(performance.now() - started);
    }
    if (answers[0] !== answers[1]) console.log(`  different answers: ${name}, call ${c}`);
  }
  console.log(`${name}: ${sides.map((_, k) => `${k ? 'B' : 'A'} p50 ${percentile(times[k as 0 | 1], 50).toFixed(2)} / p95 ${percentile(times[k as 0 | 1], 95).toFixed(2)} ms`).join('; ')}`);
}
