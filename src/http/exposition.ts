// Prometheus text exposition format 0.0.4: one `# HELP` / `# TYPE` pair per metric family, then its samples.
// A dozen lines instead of a client library: the values are read from the index on each scrape, while the
// libraries are built around counters incremented in-process.
export const EXPOSITION_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type Labels = Record<string, string>;

export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  /**
   * Read once, as the text is written: a big history's samples need not all be held at once. Labels as a string are
   * taken as `renderLabels` made them (a caller that keeps them across scrapes).
   */
  samples: Iterable<Sample>;
}

export interface Sample {
  labels: Labels | string;
  value: number;
}

/**
 * Labels as the text between a sample's braces, each value escaped as the format says. `escaped`: values escaped
 * before (a series' machine, project and model repeat across families and samples), kept by the caller.
 */
export function renderLabels(labels: Labels, escaped?: Map<string, string>): string {
  let text = '';
  for (const k in labels) {
    const v = labels[k]!;
    let e = escaped?.get(v);
    if (e === undefined) {
      e = labelValue(v);
      escaped?.set(v, e);
    }
    text += `${text ? ',' : ''}${k}="${e}"`;
  }
  return text;
}

/** A label value as the format quotes it; most values need no escape, so the regex runs only when one does. */
function labelValue(v: string): string {
  return NEEDS_ESCAPE.test(v) ? v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"') : v;
}
const NEEDS_ESCAPE = /[\\\n"]/;

function value(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  return String(n);
}

/** Characters per piece of `expositionChunks`: well under V8's large-object size, so each piece dies young. */
const CHUNK_CHARS = 32 * 1024;

/**
 * The exposition text in pieces of about CHUNK_CHARS characters. A big history's scrape is megabytes; written as one
 * string, each scrape left a string of that size in V8's large-object space until a full GC, and scrapes back to back
 * raised the server's peak memory by that much each (bench/RESULTS.md).
 */
export function* expositionChunks(families: Family[]): Generator<string> {
  // A series' label values (machine, project, model) repeat across families and samples: each is escaped once.
  const escaped = new Map<string, string>();
  let chunk = '';
  for (const f of families) {
    chunk += familyHead(f);
    for (const s of f.samples) {
      chunk += sampleLine(f.name, s, escaped);
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
  }
  if (chunk) yield chunk;
}

/** A family's `# HELP` and `# TYPE` lines. */
export function familyHead(f: Pick<Family, 'name' | 'help' | 'type'>): string {
  return `# HELP ${f.name} ${f.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n# TYPE ${f.name} ${f.type}\n`;
}

/** The lines of a family's samples, without its head: what one series adds to the family's text. */
export function sampleLines(f: Family, escaped?: Map<string, string>): string {
  let text = '';
  for (const s of f.samples) text += sampleLine(f.name, s, escaped);
  return text;
}

function sampleLine(name: string, s: Sample, escaped?: Map<string, string>): string {
  const labels = typeof s.labels === 'string' ? s.labels : renderLabels(s.labels, escaped);
  return `${name}${labels ? `{${labels}}` : ''} ${value(s.value)}\n`;
}
