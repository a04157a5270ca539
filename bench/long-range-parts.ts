// Where a ranged overview's and insights' milliseconds go (issue 35): each sub-query of the two handlers, timed on
// its own over a built index (read only), per range; the median of N runs after one untimed run (statements
// prepared, pages cached).
//   node --import tsx bench/long-range-parts.ts <index file> [--runs N] [--ranges today,7,365,all]
// Run it with TZ=UTC as the bench's servers are (the local rollups are then of this process's zone).
import Database from 'better-sqlite3';
import fs from 'node:fs';
import { rangeFromQuery } from '../src/calendar/range.ts';
import { resolveRange } from '../src/calendar/resolve.ts';
import { systemZone } from '../src/calendar/zone.ts';
import { PriceTable } from '../src/pricing/table.ts';
import { blocksOverlapping, walkBlocks } from '../src/index-db/queries/blocks.ts';
import { createCauses } from '../src/index-db/queries/causes.ts';
import { createEntrypoints } from '../src/index-db/queries/entrypoints.ts';
import { createEstimatedFast } from '../src/index-db/queries/estimated-fast.ts';
import { totalsOf } from '../src/index-db/queries/fold.ts';
import { insights, MAX_BLOCKS } from '../src/index-db/queries/insights.ts';
import { overview } from '../src/index-db/queries/overview.ts';
import { projects } from '../src/index-db/queries/projects.ts';
import { Reader } from '../src/index-db/queries/reader.ts';
import { sliceOf } from '../src/index-db/queries/slice.ts';
import { withSpans } from '../src/index-db/queries/spans.ts';
import { PRICES_FILE } from '../test/helpers/paths.ts';
import { percentile } from './common.ts';

const args = process.argv.slice(2);
const file = args[0];
if (!file || !fs.existsSync(file)) throw new Error('usage: long-range-parts.ts <index file> [--runs N] [--ranges a,b]');
const argOf = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(argOf('--runs') ?? 15);
const ranges = (argOf('--ranges') ?? 'today,7,365,all').split(',');

const db = new Database(file, { readonly: true, fileMustExist: true });
const table = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')), PRICES_FILE);
const prices = (): PriceTable => table;
const reader = new Reader(db);
const entrypoints = createEntrypoints(db, reader);
const causes = createCauses(db);
const estimatedFast = createEstimatedFast(db, prices);
const now = Date.now();

/** The median ms of `fn` over `runs` runs, after one untimed run. */
function time(fn: () => unknown): number {
  fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return percentile(ms, 50);
}

for (const r of ranges) {
  const range = resolveRange(rangeFromQuery({ range: r })!, now, systemZone);
  const scope = withSpans({ range, project: null, now });
  const slice = () => sliceOf(reader, scope.span, range.bucket, scope.zone, null);
  const s = slice();
  const models = reader.models();
  const parts: [string, () => unknown][] = [
    ['overview (whole)', () => overview(reader, entrypoints, estimatedFast, scope, 'local')],
    ['insights (whole)', () => insights(reader, causes, table, scope)],
    ['projects (whole)', () => projects(reader, scope, 'local')],
    ['groups', () => slice().groups],
    ['modelGroups (insights)', () => slice().modelGroups],
    ['requests (overview)', () => reader.requests(s.span, null)],
    ['series', () => slice().series],
    ['sessionCounts', () => reader.sessionCounts(s.span, null)],
    ['firstHour', () => reader.firstHour(null)],
    ['today: modelGroups + sessions', () => {
      const days = { unit: 'day' as const, ...scope.today.days };
      return [reader.modelGroups(days, null), reader.sessionCounts(days, null)];
    }],
    ['entrypoints', () => entrypoints(range.fromMs, range.toMs, null)],
    ['estimatedFast', () => estimatedFast(range.fromMs, range.toMs, null, models)],
    ['blocks of the range', () => blocksOverlapping(reader, null, models, range.fromMs, range.toMs, now, MAX_BLOCKS)],
    // What a yardstick of its own costs (a range that holds now and the 30 days before takes it from its own walk).
    ['walk of the yardstick (30 d)', () => walkBlocks(reader, null, now - 30 * 86_400_000, now + 1)],
    ['localHours', () => reader.localHours(s.local, null)],
    ['topTools', () => reader.topTools(s.span, null, 15)],
    ['causes', () => causes(scope.span.hours, null, totalsOf(s.modelGroups))],
  ];
  console.log(`range ${r} (${range.from} .. ${range.to})`);
  for (const [name, fn] of parts) console.log(`  ${name.padEnd(32)} ${time(fn).toFixed(2).padStart(8)} ms`);
}
db.close();
