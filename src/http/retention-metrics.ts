// The retention gauges of GET /metrics (issue 34), per config dir: what only the index holds, and what Claude Code's
// cleanup deletes at its next start or within 7 days.
import type { RetentionDir } from '../shared/retention-types.ts';
import type { Family } from './exposition.ts';

export function retentionFamilies(dirs: readonly RetentionDir[]): Family[] {
  const labels = (d: RetentionDir) => ({ machine: d.machine, dir: d.dir });
  const due = (d: RetentionDir, pick: (c: RetentionDir['dueForCleanup']) => number) => [
    { labels: { ...labels(d), when: 'next_start' }, value: pick(d.dueForCleanup) },
    { labels: { ...labels(d), when: 'within_7_days' }, value: pick(d.dueWithin7Days) },
  ];
  return [
    {
      name: 'cost_dashboard_only_in_index_sessions', help: 'Sessions whose transcripts are all gone from disk: kept only in the index.', type: 'gauge',
      samples: dirs.map((d) => ({ labels: labels(d), value: d.onlyInIndex.sessions })),
    },
    {
      name: 'cost_dashboard_only_in_index_cost_usd', help: 'Cost in USD of the usage entries whose transcripts are gone from disk.', type: 'gauge',
      samples: dirs.map((d) => ({ labels: labels(d), value: d.onlyInIndex.cost })),
    },
    {
      name: 'cost_dashboard_cleanup_due_sessions', help: "Sessions Claude Code's cleanup deletes at its next start (when=next_start) or within 7 days.", type: 'gauge',
      samples: dirs.flatMap((d) => due(d, (c) => c.sessions)),
    },
    {
      name: 'cost_dashboard_cleanup_due_cost_usd', help: "Cost in USD of the transcripts Claude Code's cleanup deletes at its next start or within 7 days.", type: 'gauge',
      samples: dirs.flatMap((d) => due(d, (c) => c.cost)),
    },
  ];
}
