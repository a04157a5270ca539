// The counters' part of GET /metrics (a sample per project x model x kind: megabytes of a big history's scrape) as one
// Buffer, kept while the index holds still and, once it moved, while the all-time sums it is made from did not: most
// writes (a cursor, a limit reading, a file gone from disk) leave them as they were. When they moved, only the series
// whose sums moved are rendered again: a write while someone works changes one or two of a big history's thousands,
// and rendering all of them cost ~30-55 ms a scrape at 10 GiB (bench/RESULTS.md, stop 23).
import type { MetricsSnapshot } from '../index-db/types.ts';
import { familyHead, sampleLines } from './exposition.ts';
import { counterFamilies, seriesKey } from './metrics.ts';

type Series = MetricsSnapshot['series'];
type OneSeries = Series[number];

/** One series' lines in each counter family (in counterFamilies' order), as rendered from `series`. */
interface SeriesLines {
  series: OneSeries;
  lines: Buffer[];
}

export class CounterText {
  private kept: { generation: number; series: Series; text: Buffer } | null = null;
  /** Each series' rendered labels (counterFamilies), kept while the server runs: a folder or model is rarely new. */
  private readonly labelTexts = new Map<string, string>();
  /** Each series' lines, by seriesKey, as of the last text made. */
  private lines = new Map<string, SeriesLines>();
  /** The families' heads, in counterFamilies' order. */
  private readonly heads: Buffer[];
  /** How many series the last text made rendered anew; the others' lines were kept. */
  renderedSeries = 0;

  /** `read`: the all-time series now; `machine`: the label of the series read from unlabelled dirs. */
  constructor(
    private readonly read: () => Series,
    private readonly machine: string,
  ) {
    this.heads = counterFamilies([], machine).map((f) => Buffer.from(familyHead(f)));
  }

  /** The text at index generation `generation`: the kept Buffer itself while its series are unchanged. */
  text(generation: number): Buffer {
    if (this.kept?.generation === generation) return this.kept.text;
    const series = this.read();
    const text = this.kept && sameSeries(this.kept.series, series) ? this.kept.text : this.render(series);
    this.kept = { generation, series, text };
    return text;
  }

  /** The families' heads, each followed by every series' lines in reading order; unchanged series' lines reused. */
  private render(series: Series): Buffer {
    const parts = this.heads.map((head) => [head]);
    const next = new Map<string, SeriesLines>();
    this.renderedSeries = 0;
    for (const s of series) {
      const key = seriesKey(s, this.machine);
      let kept = this.lines.get(key);
      if (!kept || !sameValues(kept.series, s)) {
        kept = { series: s, lines: counterFamilies([s], this.machine, this.labelTexts).map((f) => Buffer.from(sampleLines(f))) };
        this.renderedSeries++;
      }
      next.set(key, kept);
      for (let i = 0; i < parts.length; i++) parts[i]!.push(kept.lines[i]!);
    }
    this.lines = next;
    return Buffer.concat(parts.flat());
  }
}

/** Whether two readings hold the same series in the same order, every label and value equal. */
function sameSeries(a: Series, b: Series): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.machine !== y.machine || x.project !== y.project || x.projectName !== y.projectName || x.model !== y.model || !sameValues(x, y)) return false;
  }
  return true;
}

/** Whether two readings of a series hold the same sums. */
function sameValues(x: OneSeries, y: OneSeries): boolean {
  return x.messages === y.messages && x.input === y.input && x.output === y.output && x.cacheCreate === y.cacheCreate
    && x.cacheRead === y.cacheRead && Object.is(x.cost, y.cost);
}
