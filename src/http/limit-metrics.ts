// The plan limit families of GET /metrics (issue 33): each window's last used share and reset, and the hits per window.
import type { LimitsData } from '../shared/api-types.ts';
import type { Family } from './exposition.ts';

export function limitFamilies(data: LimitsData): Family[] {
  // A window whose reset has passed has no current figure: it is left out until the next reading.
  const current = data.windows.filter((w) => !w.ended && w.window !== 'extra_usage');
  return [
    {
      name: 'cost_dashboard_limit_used_ratio', help: 'Share of the plan limit window used at its last reading (1 = 100 %).', type: 'gauge',
      samples: current.map((w) => ({ labels: { window: w.window }, value: w.usedPercent / 100 })),
    },
    {
      name: 'cost_dashboard_limit_resets_at_seconds', help: 'When the plan limit window resets (Unix seconds), as last read.', type: 'gauge',
      samples: current.filter((w) => w.resetsAt !== null).map((w) => ({ labels: { window: w.window }, value: Date.parse(w.resetsAt!) / 1000 })),
    },
    {
      name: 'cost_dashboard_limit_hits_total', help: 'Turns a plan limit stopped, from the transcripts, by the window the message names.', type: 'counter',
      samples: Object.entries(data.hitCounts).map(([window, n]) => ({ labels: { window }, value: n })),
    },
  ];
}
