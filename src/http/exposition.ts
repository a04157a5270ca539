// Prometheus text exposition format 0.0.4: one `# HELP` / `# TYPE` pair per metric family, then its samples.
// A dozen lines instead of a client library: the values are read from the index on each scrape, while the
// libraries are built around counters incremented in-process.
export const EXPOSITION_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type Labels = Record<string, string>;

export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  samples: { labels: Labels; value: number }[];
}

function labelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function value(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  return String(n);
}

export function formatExposition(families: Family[]): string {
  const out: string[] = [];
  for (const f of families) {
    out.push(`# HELP ${f.name} ${f.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) {
      const labels = Object.entries(s.labels).map(([k, v]) => `${k}="${labelValue(v)}"`).join(',');
      out.push(`${f.name}${labels ? `{${labels}}` : ''} ${value(s.value)}`);
    }
  }
  return `${out.join('\n')}\n`;
}
