// Where one GET /metrics scrape's milliseconds go, per gauge family, on an existing index (issue 35):
//   node --import tsx bench/metrics-profile.ts INDEX DIR[,DIR…] [runs]
// Reads the index through the server's own modules (a reader, as a second server would), each part `runs` times with
// a new generation before each (what the first scrape after a write computes: the retention service's per-generation
// side is made again; "counters" makes their text as it was made before the route kept it while the sums hold), then
// the parts a scrape computes while the generation holds; prints the median and p95 per part.
import path from 'node:path';
import { openIndexReader } from '../src/index-db/index.ts';
import { createRetentionService } from '../src/main/retention.ts';
import { createKeeping } from '../src/main/keeping.ts';
import { counterFamilies, gaugeFamilies } from '../src/http/metrics.ts';
import { limitFamilies } from '../src/http/limit-metrics.ts';
import { retentionFamilies } from '../src/http/retention-metrics.ts';
import { expositionChunks, type Family } from '../src/http/exposition.ts';
import { percentile } from './common.ts';
import { systemZone } from '../src/calendar/zone.ts';

const [file, dirList, runsArg] = process.argv.slice(2);
if (!file || !dirList) throw new Error('usage: bench/metrics-profile.ts INDEX DIR[,DIR…] [runs]');
const dirs = dirList.split(',');
const runs = Number(runsArg ?? 20);
const index = openIndexReader(file);
let generation = 0;
const moving = { ...index, generation: () => generation, writable: () => null };
const keeping = createKeeping({ dir: null, projectsDirs: dirs.map((d) => path.join(d, 'projects')), log: () => {} });
const retention = createRetentionService({ index: moving, indexPath: file, dirs, dirMachines: dirs.map(() => null), machine: 'bench', keeping, offerDir: `${file}.transcripts`, log: () => {} });
const now = Date.now();
const text = (families: Family[]): number => [...expositionChunks(families)].reduce((n, c) => n + c.length, 0);

const parts: Record<string, () => unknown> = {
  'counters (usage_total series + text)': () => text(counterFamilies(index.queries.metrics(now).series, 'bench')),
  'gauges (today, block, last entry, skipped)': () => text(gaugeFamilies(index.queries.metrics(now, false))),
  'limits': () => text(limitFamilies(index.queries.limits(now))),
  'retention (dirs)': () => text(retentionFamilies(retention.dirs(now))),
  'retention: dirFiles': () => dirs.map((d) => index.queries.retention.dirFiles(path.join(d, 'projects'), systemZone).live.length),
};
// The gauges' parts, one by one.
const t: Record<string, number[]> = Object.fromEntries(Object.keys(parts).map((k) => [k, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, run] of Object.entries(parts)) {
    generation++;
    const s = performance.now();
    run();
    t[name]!.push(performance.now() - s);
  }
}
for (const [name, v] of Object.entries(t)) console.log(`${name.padEnd(44)} p50 ${percentile(v, 50).toFixed(2).padStart(8)} ms  p95 ${percentile(v, 95).toFixed(2).padStart(8)} ms`);
// What a scrape computes while the generation holds still (the counters' text and the retention side kept).
const stable: Record<string, () => unknown> = {
  'stable: gauges': () => text(gaugeFamilies(index.queries.metrics(now, false))),
  'stable: retention dirs': () => text(retentionFamilies(retention.dirs(now))),
  'stable: counters text to buffers': () => [...expositionChunks(counterFamilies(index.queries.metrics(now).series, 'bench'))].map((c) => Buffer.from(c)).length,
  'stable: series query only': () => index.queries.metrics(now).series.length,
};
const u: Record<string, number[]> = Object.fromEntries(Object.keys(stable).map((k) => [k, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, run] of Object.entries(stable)) {
    const s = performance.now();
    run();
    u[name]!.push(performance.now() - s);
  }
}
for (const [name, v] of Object.entries(u)) console.log(`${name.padEnd(44)} p50 ${percentile(v, 50).toFixed(2).padStart(8)} ms  p95 ${percentile(v, 95).toFixed(2).padStart(8)} ms`);
const live = dirs.map((d) => index.queries.retention.liveFiles(path.join(d, 'projects')));
const cut = now - 30 * 86_400_000;
console.log(`live files ${live.flat().length}, older than 30 days ${live.flat().filter((f) => f.mtimeMs < cut).length}, within 37 days ${live.flat().filter((f) => f.mtimeMs < cut + 7 * 86_400_000).length}`);
index.close();
