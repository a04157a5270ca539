// The counters' part of GET /metrics (a sample per project x model x kind: megabytes of a big history's scrape) as one
// Buffer, kept while the index holds still and, once it moved, while the all-time sums it is made from did not: most
// writes (a cursor, a limit reading, a file gone from disk) leave them as they were, and making the text costs about
// ten times more than reading the sums (bench/RESULTS.md, "/metrics at 10 GiB").
import type { MetricsSnapshot } from '../index-db/types.ts';
import { expositionChunks } from './exposition.ts';
import { counterFamilies } from './metrics.ts';

type Series = MetricsSnapshot['series'];

export class CounterText {
  private kept: { generation: number; series: Series; text: Buffer } | null = null;
  /** Each series' rendered labels (counterFamilies), kept while the server runs: a folder or model is rarely new. */
  private readonly labelTexts = new Map<string, string>();

  /** `read`: the all-time series now; `machine`: the label of the series read from unlabelled dirs. */
  constructor(
    private readonly read: () => Series,
    private readonly machine: string,
  ) {}

  /** The text at index generation `generation`: the kept Buffer itself while its series are unchanged. */
  text(generation: number): Buffer {
    if (this.kept?.generation === generation) return this.kept.text;
    const series = this.read();
    const text = this.kept && sameSeries(this.kept.series, series)
      ? this.kept.text
      : Buffer.concat([...expositionChunks(counterFamilies(series, this.machine, this.labelTexts))].map((c) => Buffer.from(c)));
    this.kept = { generation, series, text };
    return text;
  }
}

/** Whether two readings hold the same series in the same order, every label and value equal. */
function sameSeries(a: Series, b: Series): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (
      x.machine !== y.machine || x.project !== y.project || x.projectName !== y.projectName || x.model !== y.model || x.messages !== y.messages
      || x.input !== y.input || x.output !== y.output || x.cacheCreate !== y.cacheCreate || x.cacheRead !== y.cacheRead || !Object.is(x.cost, y.cost)
    ) return false;
  }
  return true;
}
