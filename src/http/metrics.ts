// The metric families of GET /metrics (decisions.md "Several machines") from one MetricsSnapshot.
import type { MetricsSnapshot } from '../index-db/types.ts';
import { renderLabels, type Family } from './exposition.ts';

const TOKEN_TYPES = [
  ['input', 'input'],
  ['output', 'output'],
  ['cache_creation', 'cacheCreate'],
  ['cache_read', 'cacheRead'],
] as const;

type Series = MetricsSnapshot['series'][number];

/**
 * The all-time counters of every series: they change only when the index does. `machine`: this machine's name, the
 * label of the series read from unlabelled dirs. `labelTexts`: each series' labels as rendered text, by its identity,
 * kept by the caller across scrapes: after a write only values change, and rendering every label of a big history's
 * thousands of series was most of making the text again.
 */
export function counterFamilies(series: readonly Series[], machine: string, labelTexts = new Map<string, string>()): Family[] {
  const labelsOf = (s: Series): string => {
    const key = seriesKey(s, machine);
    let text = labelTexts.get(key);
    if (text === undefined) labelTexts.set(key, (text = renderLabels({ machine: s.machine ?? machine, project: s.project, project_name: s.projectName, model: s.model })));
    return text;
  };
  return [
    {
      name: 'cost_dashboard_cost_usd_total', help: 'Cost in USD of every usage entry in the index, all time.', type: 'counter',
      samples: lazily(series, (s) => [{ labels: labelsOf(s), value: s.cost }]),
    },
    {
      name: 'cost_dashboard_tokens_total', help: 'Tokens of every usage entry in the index, all time, by type.', type: 'counter',
      samples: lazily(series, (s) => {
        const labels = labelsOf(s);
        return TOKEN_TYPES.map(([type, key]) => ({ labels: `${labels},type="${type}"`, value: s[key] }));
      }),
    },
    {
      name: 'cost_dashboard_messages_total', help: 'Usage entries (deduplicated API responses) in the index, all time.', type: 'counter',
      samples: lazily(series, (s) => [{ labels: labelsOf(s), value: s.messages }]),
    },
  ];
}

/** What tells a series from the others: its labels (`machine`: the label of the series read from unlabelled dirs). */
export function seriesKey(s: Series, machine: string): string {
  return `${s.machine ?? machine}\0${s.project}\0${s.projectName}\0${s.model}`;
}

/** The gauges of now. */
export function gaugeFamilies(snap: Omit<MetricsSnapshot, 'series'>): Family[] {
  const gauge = (name: string, help: string, v: number | null): Family => ({ name, help, type: 'gauge', samples: v === null ? [] : [{ labels: {}, value: v }] });
  return [
    gauge('cost_dashboard_today_cost_usd', 'Cost in USD of the local day (server time zone).', snap.todayCost),
    gauge('cost_dashboard_block_cost_usd', 'Cost in USD of the active 5-hour block (0 without one).', snap.blockCost),
    gauge('cost_dashboard_block_remaining_seconds', 'Seconds left in the active 5-hour block (0 without one).', snap.blockRemainingSeconds),
    gauge('cost_dashboard_last_entry_timestamp_seconds', 'Time of the newest usage entry (absent while the index is empty).', snap.lastEntrySeconds),
    gauge('cost_dashboard_skipped_lines', 'Transcript lines skipped as malformed or oversized.', snap.skippedLines),
  ];
}

/**
 * The samples of each series, made as they are read: built up front, a big history's samples outlived the young
 * generation while the text was written and were promoted with every scrape.
 */
function lazily<T, S>(series: readonly T[], samplesOf: (s: T) => S[]): Iterable<S> {
  return {
    *[Symbol.iterator]() {
      for (const s of series) yield* samplesOf(s);
    },
  };
}
