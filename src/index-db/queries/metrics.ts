// GET /metrics' figures: all-time sums per project x model from the all-time rollup (a row per project x model x
// main/subagent however long the history, so a scrape costs milliseconds and the series count is bounded by projects x
// models), plus the gauges of now. Counters come from the index, so they survive restarts.
import type { MetricsSnapshot } from '../types.ts';
import { blocksOverlapping } from './blocks.ts';
import { type Reader } from './reader.ts';
import type Database from 'better-sqlite3';
import { todaySpan } from '../../calendar/resolve.ts';
import { systemZone } from '../../calendar/zone.ts';
import { totalsOf } from './fold.ts';
import { changeMark, untilChange } from './until-change.ts';

type SumRow = [project: number, model: number, messages: number, input: number, output: number, cacheCreate: number, cacheRead: number, cost: number];

export function createMetrics(db: Database.Database, reader: Reader): (now: number, withSeries?: boolean) => MetricsSnapshot {
  const sums = db.prepare(`SELECT project_id, model_id, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost)
    FROM usage_total GROUP BY project_id, model_id`).raw(true);
  // The latest hour (the end of its primary key), then the latest entry in it.
  const lastEntry = db.prepare('SELECT last_ts FROM usage_hourly_all ORDER BY hour DESC LIMIT 1').pluck();
  // A sum over every file's row (1.2 ms a scrape at 10 GiB): again only once the index changed.
  const skippedSt = db.prepare('SELECT total(malformed) + total(giant) FROM files').pluck();
  const skipped = untilChange(changeMark(db), () => skippedSt.get() as number);

  return function metrics(now: number, withSeries = true): MetricsSnapshot {
    const models = reader.models();
    const projects = reader.projects();
    const series: MetricsSnapshot['series'] = [];
    for (const [p, m, messages, input, output, cacheCreate, cacheRead, cost] of withSeries ? (sums.all() as SumRow[]) : []) {
      const model = models.get(m);
      const project = projects.get(p);
      // Names like <synthetic> stay out of model breakdowns (decisions.md); they cost 0.
      if (!model || model.hidden || !project) continue;
      series.push({ machine: project.machine, project: project.id, projectName: project.name, model: model.name, messages, input, output, cacheCreate, cacheRead, cost });
    }
    const today = todaySpan(now, systemZone).days;
    const block = blocksOverlapping(reader, null, models, now, now + 1, now).blocks.find((b) => b.active) ?? null;
    const last = (lastEntry.get() as number | null | undefined) ?? null;
    return {
      series,
      todayCost: totalsOf(reader.modelGroups({ unit: 'day', from: today.from, to: today.to }, null)).cost,
      blockCost: block?.cost ?? 0,
      blockRemainingSeconds: block ? Math.max(0, (Date.parse(block.end) - now) / 1000) : 0,
      lastEntrySeconds: last === null ? null : last / 1000,
      skippedLines: skipped(),
    };
  };
}
