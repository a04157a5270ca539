// Plain-text tables that fit the terminal: columns that do not fit are left out, least important first,
// and a flexible column (model names, titles) is shortened with an ellipsis before that.

export interface Column<R> {
  header: string;
  cell(row: R): string;
  right?: boolean;
  /** Left out first when the table is too wide: lower goes first; Infinity never. */
  keep: number;
  /** Shortened (down to a few characters) before any column is left out. */
  flex?: boolean;
}

const GAP = '  ';
const MIN_FLEX = 12;

// East Asian wide and fullwidth characters (CJK, kana, hangul, fullwidth forms) take two terminal columns.
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;

/** Terminal columns of a string. */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += WIDE.test(ch) ? 2 : 1;
  return w;
}

/** At most `w` columns, an ellipsis marking a cut. */
function clip(s: string, w: number): string {
  if (displayWidth(s) <= w) return s;
  let out = '';
  let used = 0;
  for (const ch of s) {
    const cw = WIDE.test(ch) ? 2 : 1;
    if (used + cw > w - 1) break;
    out += ch;
    used += cw;
  }
  return `${out}…`;
}

const pad = (s: string, w: number, right: boolean): string => {
  const fill = ' '.repeat(Math.max(0, w - displayWidth(s)));
  return right ? fill + s : s + fill;
};

/** `rows`, then a rule and `footer` (totals) when given, within `width` characters where the kept columns allow. */
export function renderTable<R>(columns: Column<R>[], rows: R[], footer: R | null, width: number): string {
  const all = footer ? [...rows, footer] : rows;
  let cols = columns.map((c) => ({ c, cells: all.map((r) => c.cell(r)), w: 0 }));
  for (const col of cols) col.w = Math.max(col.c.header.length, ...col.cells.map(displayWidth));
  const total = (): number => cols.reduce((n, col) => n + col.w, 0) + GAP.length * (cols.length - 1);
  const shrinkFlex = (): void => {
    for (const col of cols) {
      if (col.c.flex && total() > width) col.w = Math.max(MIN_FLEX, col.c.header.length, col.w - (total() - width));
    }
  };
  shrinkFlex();
  while (total() > width) {
    const droppable = cols.filter((col) => Number.isFinite(col.c.keep));
    if (!droppable.length) break;
    const drop = droppable.reduce((a, b) => (b.c.keep < a.c.keep ? b : a));
    cols = cols.filter((col) => col !== drop);
    // Leaving a column out frees room the flexible one may take back.
    for (const col of cols) if (col.c.flex) col.w = Math.max(col.c.header.length, ...col.cells.map(displayWidth));
    shrinkFlex();
  }
  const line = (cells: string[]): string =>
    cells.map((s, i) => pad(clip(s, cols[i]!.w), cols[i]!.w, cols[i]!.c.right ?? false)).join(GAP).trimEnd();
  const rule = cols.map((col) => '─'.repeat(col.w)).join(GAP);
  const out = [line(cols.map((col) => col.c.header)), rule];
  for (let i = 0; i < rows.length; i++) out.push(line(cols.map((col) => col.cells[i]!)));
  if (footer) out.push(rule, line(cols.map((col) => col.cells[rows.length]!)));
  return `${out.join('\n')}\n`;
}

export const tokens = (n: number): string => Math.round(n).toLocaleString('en-US');
export const usd = (n: number): string => `$${n.toFixed(2)}`;

/** Minutes as '2h 41m' or '41m'. */
export const duration = (minutes: number): string => {
  const m = Math.max(0, Math.round(minutes));
  return m >= 60 ? `${Math.floor(m / 60)}h ${m % 60}m` : `${m}m`;
};

/** The terminal's width; a pipe or file gets a wide table (COLUMNS overrides both). */
export function terminalWidth(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): number {
  const fromEnv = Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return stream.isTTY && stream.columns ? stream.columns : 160;
}
