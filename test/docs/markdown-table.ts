// Reads a Markdown table out of a document, for the tests that hold docs to the code. Only the plain form the docs
// use: a header row, a `|---|` row, one row per line; `\|` inside a cell is a literal bar.

/** The body rows (cells trimmed) of the first table under the heading `title` whose first header cell is `first`. */
export function markdownTable(doc: string, title: string, first: string): string[][] {
  const lines = doc.split('\n');
  const start = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, '').trim() === title);
  if (start < 0) throw new Error(`no heading "${title}"`);
  for (let i = start + 1; i < lines.length && !/^#{1,2} /.test(lines[i]!); i++) {
    const header = cells(lines[i]!);
    if (header?.[0] !== first || !/^\|[-|: ]+\|$/.test(lines[i + 1]?.trim() ?? '')) continue;
    const rows: string[][] = [];
    for (let j = i + 2; j < lines.length; j++) {
      const row = cells(lines[j]!);
      if (!row) break;
      if (row.length !== header.length) throw new Error(`"${title}": row ${lines[j]} has ${row.length} cells, the header ${header.length}`);
      rows.push(row);
    }
    return rows;
  }
  throw new Error(`no table under "${title}" whose first column is "${first}"`);
}

/** A table line's cells, or null when the line is not a table row. */
function cells(line: string): string[] | null {
  const l = line.trim();
  if (!l.startsWith('|') || !l.endsWith('|')) return null;
  return l.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}
