// CSV and JSON downloads of what a view shows. `toCsv` is pure (tested in Node); `download` needs a DOM.

export type Cell = string | number | boolean | null | undefined;

/**
 * RFC 4180 CSV with CRLF line ends. Text that a spreadsheet would run as a formula (= + - @ at the
 * start) gets a leading apostrophe; fractions are rounded to 6 decimals (sums of costs carry float noise such as
 * 110.28603722000004; a millionth of a dollar is below any price of one token batch that matters).
 */
export function toCsv(header: string[], rows: Cell[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function csvCell(v: Cell): string {
  if (v == null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(Number.isInteger(v) ? v : Math.round(v * 1e6) / 1e6) : '';
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * "cost-overview-2025-03-01_2025-03-30.csv": the view and the range, safe for any file system. All time starts at the
 * epoch on the wire; its file says "all-time" up to its last day instead.
 */
export function exportName(view: string, range: { from: string; to: string; kind?: string }, ext: 'csv' | 'json'): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '');
  return `cost-${safe(view)}-${range.kind === 'all' ? 'all-time' : safe(range.from)}_${safe(range.to)}.${ext}`;
}

export function download(filename: string, text: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoke later: Chromium reads the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadCsv(filename: string, header: string[], rows: Cell[][]): void {
  download(filename, toCsv(header, rows), 'text/csv;charset=utf-8');
}

export function downloadJson(filename: string, data: unknown): void {
  download(filename, JSON.stringify(data, null, 2) + '\n', 'application/json');
}
