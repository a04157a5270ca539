import { LitElement, css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { loadSort, saveSort } from '../state.ts';
import type { SortSpec } from '../state.ts';
import { downloadCsv } from '../export.ts';
import type { Cell } from '../export.ts';

export interface Column<T> {
  key: string;
  label: string;
  /** The value sorted on and written to CSV. */
  value: (row: T) => string | number | null;
  /** What the cell shows; defaults to the value. */
  render?: (row: T) => unknown;
  numeric?: boolean;
  /** Header tooltip: how the column is computed. */
  title?: string;
  sortable?: boolean;
  /** false: left out of the CSV (icon columns). */
  csv?: boolean;
}

/** Nulls last in both directions; strings compare naturally ("run 2" < "run 10"). */
function compare(a: string | number | null, b: string | number | null, dir: 1 | -1): number {
  if (a == null || b == null) return a == null ? (b == null ? 0 : 1) : -1;
  if (typeof a === 'number' && typeof b === 'number') return (a - b) * dir;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' }) * dir;
}

/**
 * Rows a view's long list (the overview's projects; the sessions of the Sessions view, a project and a repository; a
 * session's messages) shows before "Show more": the first by its sort; its count, filter, sort and CSV export take
 * every row. Drawing every row of a big history held the page's main thread (bench/RESULTS.md).
 */
export const LONG_LIST_PAGE = 50;

/**
 * A sortable table of rows. Click a header to sort (kept per `view` in localStorage); arrow keys
 * or j/k move the selected row, Enter or a click opens it. With `childrenOf`, a row that has children shows a
 * disclosure button (or ArrowRight / ArrowLeft on the selected row): expanded, its children follow it, sorted alike.
 *
 * @fires row-open - `{row}` when a row is opened.
 */
export class CostTable<T = unknown> extends LitElement {
  static override properties = {
    columns: { attribute: false },
    rows: { attribute: false },
    rowKey: { attribute: false },
    view: {},
    caption: {},
    defaultSort: { attribute: false },
    exportFile: { attribute: 'export-file' },
    pageSize: { type: Number, attribute: 'page-size' },
    rowClass: { attribute: false },
    childrenOf: { attribute: false },
    filter: {},
    _sort: { state: true },
    _query: { state: true },
    _more: { state: true },
    _expanded: { state: true },
    _selected: { state: true },
    _limit: { state: true },
  };

  declare columns: Column<T>[];
  declare rows: T[];
  declare rowKey: (row: T) => string;
  /** Sort storage key: `cost:sort:<view>`. */
  declare view: string;
  declare caption: string;
  declare defaultSort: SortSpec | null;
  /** File name without extension; shows an "Export CSV" button when set. */
  declare exportFile: string;
  declare pageSize: number;
  declare rowClass: ((row: T) => string) | null;
  declare childrenOf: ((row: T) => T[]) | null;
  /** Placeholder of a filter box over the rows (shown when set): a row stays when a column's value holds the text. */
  declare filter: string;
  private declare _sort: SortSpec | null;
  private declare _query: string;
  /** Columns lie beyond the right edge (a narrow window): the bar says so. */
  private declare _more: boolean;
  private readonly _resize = new ResizeObserver(() => this._measure());
  private declare _expanded: ReadonlySet<string>;
  private declare _selected: string | null;
  private declare _limit: number;

  constructor() {
    super();
    this.columns = [];
    this.rows = [];
    this.rowKey = (r) => String((r as { id?: unknown }).id ?? '');
    this.view = '';
    this.caption = '';
    this.defaultSort = null;
    this.exportFile = '';
    this.pageSize = 200;
    this.rowClass = null;
    this.childrenOf = null;
    this.filter = '';
    this._sort = null;
    this._query = '';
    this._more = false;
    this._expanded = new Set();
    this._selected = null;
    this._limit = 0;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this._resize.disconnect();
  }

  protected override firstUpdated(): void {
    const scroll = this.renderRoot.querySelector('.scroll');
    const table = this.renderRoot.querySelector('table');
    if (scroll) this._resize.observe(scroll);
    if (table) this._resize.observe(table);
  }

  /** Whether columns are hidden to the right: wider than the box and not scrolled to the end. */
  private _measure(): void {
    const s = this.renderRoot.querySelector<HTMLElement>('.scroll');
    const more = s !== null && s.scrollWidth - s.clientWidth - s.scrollLeft > 2;
    if (more !== this._more) this._more = more;
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('view') || (changed.has('defaultSort') && !this._sort)) {
      this._sort = (this.view && loadSort(this.view)) || this.defaultSort;
    }
    if (!this._limit) this._limit = this.pageSize;
  }

  /** The rows in display order (all of them, not only the rendered page). */
  get sortedRows(): T[] {
    const top = this._sorted(this._filtered(this.rows));
    const kids = this.childrenOf;
    if (!kids || !this._expanded.size) return top;
    return top.flatMap((r) => (this._expanded.has(this.rowKey(r)) ? [r, ...this._sorted(kids(r))] : [r]));
  }

  /** The rows whose column values (or a child's) hold the filter text, in any case; all of them without one. */
  private _filtered(rows: T[]): T[] {
    const q = this._query.trim().toLowerCase();
    if (!q) return rows;
    const holds = (r: T): boolean => this.columns.some((c) => String(c.value(r) ?? '').toLowerCase().includes(q));
    return rows.filter((r) => holds(r) || (this.childrenOf?.(r) ?? []).some(holds));
  }

  private _sorted(rows: T[]): T[] {
    const s = this._sort;
    const col = s && this.columns.find((c) => c.key === s.key);
    if (!s || !col) return rows;
    const dir = s.dir === 'asc' ? 1 : -1;
    return rows
      .map((row, i) => ({ row, i, v: col.value(row) }))
      .sort((a, b) => compare(a.v, b.v, dir) || a.i - b.i)
      .map((x) => x.row);
  }

  /** Expands or collapses a row that has children. */
  toggle(key: string, open = !this._expanded.has(key)): void {
    const next = new Set(this._expanded);
    if (open) next.add(key);
    else next.delete(key);
    this._expanded = next;
  }

  /**
   * Selects and focuses the row keyed `key` (or `<anything>/key`, the key of a row that also names its project), or the
   * first row for null; false when there is no such row (yet).
   */
  focusRow(key: string | null): boolean {
    const rows = this.sortedRows;
    const i = key === null ? (rows.length ? 0 : -1) : rows.findIndex((r) => {
      const k = this.rowKey(r);
      return k === key || k.endsWith(`/${key}`);
    });
    if (i < 0) return false;
    void this._move(rows, i);
    return true;
  }

  get selectedKey(): string | null {
    return this._selected;
  }

  private _sortBy(col: Column<T>): void {
    const dir = this._sort?.key === col.key ? (this._sort.dir === 'asc' ? 'desc' : 'asc') : col.numeric ? 'desc' : 'asc';
    this._sort = { key: col.key, dir };
    if (this.view) saveSort(this.view, this._sort);
  }

  private _open(row: T): void {
    this.dispatchEvent(new CustomEvent('row-open', { detail: { row }, bubbles: true }));
  }

  private async _move(rows: T[], index: number): Promise<void> {
    const i = Math.max(0, Math.min(rows.length - 1, index));
    const row = rows[i];
    if (row === undefined) return;
    if (i >= this._limit) this._limit = i + this.pageSize;
    this._selected = this.rowKey(row);
    await this.updateComplete;
    const tr = this.renderRoot.querySelector<HTMLElement>(`tr[data-index="${i}"]`);
    tr?.focus();
    tr?.scrollIntoView({ block: 'nearest' });
  }

  private _onKey(e: KeyboardEvent, rows: T[]): void {
    const at = rows.findIndex((r) => this.rowKey(r) === this._selected);
    const step: Record<string, number> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: 10, PageUp: -10 };
    if (e.key in step) {
      e.preventDefault();
      void this._move(rows, at < 0 ? 0 : at + (step[e.key] ?? 0));
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      void this._move(rows, e.key === 'Home' ? 0 : rows.length - 1);
    } else if ((e.key === 'ArrowRight' || e.key === 'ArrowLeft') && at >= 0 && this.childrenOf?.(rows[at] as T).length) {
      e.preventDefault();
      this.toggle(this.rowKey(rows[at] as T), e.key === 'ArrowRight');
    } else if (e.key === 'Enter' && at >= 0) {
      e.preventDefault();
      this._open(rows[at] as T);
    }
  }

  private _exportCsv(): void {
    const cols = this.columns.filter((c) => c.csv !== false);
    const rows: Cell[][] = this.sortedRows.map((r) => cols.map((c) => c.value(r)));
    downloadCsv(`${this.exportFile}.csv`, cols.map((c) => c.label), rows);
  }

  override render() {
    const rows = this.sortedRows;
    const shown = rows.slice(0, this._limit);
    const selectedAt = rows.findIndex((r) => this.rowKey(r) === this._selected);
    // Roving tab stop: the selected row, else the first one.
    const tabAt = selectedAt >= 0 && selectedAt < shown.length ? selectedAt : 0;
    const children = new Set(this.childrenOf ? this.rows.flatMap((r) => this.childrenOf!(r).map((c) => this.rowKey(c))) : []);
    return html`
      <div class="bar">
        <span class="caption" id="cap">${this.caption}${this.caption
          ? html` <span class="count">${this._query.trim() ? `${this._filtered(this.rows).length} of ${this.rows.length}` : this.rows.length}</span>`
          : nothing}</span>
        ${this.filter
          ? html`<input class="filter" type="search" placeholder=${this.filter} aria-label=${this.filter} .value=${this._query}
              @input=${(e: Event) => (this._query = (e.target as HTMLInputElement).value)}>`
          : nothing}
        ${this._more ? html`<span class="more-hint" title="Scroll the table sideways (or Shift + wheel) for the other columns">More columns →</span>` : nothing}
        <slot name="actions"></slot>
        ${this.exportFile ? html`<button class="export" @click=${this._exportCsv} ?disabled=${!rows.length}>Export CSV</button>` : nothing}
      </div>
      <div class=${this._more ? 'scroll more' : 'scroll'} @scroll=${() => this._measure()}>
        <table aria-labelledby="cap">
          <thead>
            <tr>
              ${this.columns.map((c) => {
                const sorted = this._sort?.key === c.key ? (this._sort.dir === 'asc' ? 'ascending' : 'descending') : 'none';
                return html`<th class=${c.numeric ? 'num' : ''} aria-sort=${c.sortable === false ? nothing : sorted} title=${c.title ?? nothing} scope="col">
                  ${c.sortable === false
                    ? c.label
                    : html`<button class="sort" data-key=${c.key} @click=${() => this._sortBy(c)}>
                        ${c.label}<span class="arrow" aria-hidden="true">${sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : ''}</span>
                      </button>`}
                </th>`;
              })}
            </tr>
          </thead>
          <tbody @keydown=${(e: KeyboardEvent) => this._onKey(e, rows)}>
            ${repeat(
              shown,
              (r) => this.rowKey(r),
              (r, i) => {
                const key = this.rowKey(r);
                const selected = key === this._selected;
                return html`<tr
                  data-index=${i}
                  data-key=${key}
                  class=${`${this.rowClass?.(r) ?? ''}${children.has(key) ? ' child' : ''}`}
                  tabindex=${i === tabAt ? 0 : -1}
                  aria-selected=${selected ? 'true' : 'false'}
                  @focus=${() => (this._selected = key)}
                  @click=${() => {
                    this._selected = key;
                    this._open(r);
                  }}
                >
                  ${this.columns.map((c, ci) => html`<td class=${c.numeric ? 'num' : ''}>${ci === 0 ? this._disclosure(r, key) : nothing}${c.render ? c.render(r) : c.value(r) ?? '—'}</td>`)}
                </tr>`;
              },
            )}
          </tbody>
        </table>
      </div>
      ${rows.length > shown.length
        ? html`<button class="more" @click=${() => (this._limit += this.pageSize)}>
            Show ${Math.min(this.pageSize, rows.length - shown.length)} more (${rows.length - shown.length} hidden)
          </button>`
        : nothing}
    `;
  }

  /** The expand / collapse button of a row that has children. */
  private _disclosure(row: T, key: string) {
    const n = this.childrenOf?.(row).length ?? 0;
    if (!n) return nothing;
    const open = this._expanded.has(key);
    return html`<button class="disclose" aria-expanded=${open} aria-label=${`${open ? 'Hide' : 'Show'} ${n} rows under this one`} tabindex="-1"
      @click=${(e: Event) => { e.stopPropagation(); this.toggle(key); }}>${open ? '▾' : '▸'}</button>`;
  }

  static override styles = css`
    :host { display: block; min-width: 0; }
    .bar { display: flex; align-items: center; gap: 8px; margin-bottom: 8px; }
    .caption { font-weight: 600; color: var(--ink-1); flex: 1; }
    .count { color: var(--ink-3); font-weight: 400; font-size: 0.85em; margin-left: 4px; }
    button.export, button.more {
      font: inherit; font-size: 12px; color: var(--ink-2); background: var(--bg-elevated);
      border: 1px solid var(--border); border-radius: 6px; padding: 4px 10px; cursor: pointer;
    }
    button.export:hover, button.more:hover { background: var(--bg-hover); color: var(--ink-1); }
    button.more { margin-top: 8px; }
    input.filter { font: inherit; font-size: 12px; color: var(--ink-1); background: var(--bg-elevated); border: 1px solid var(--border);
      border-radius: 6px; padding: 4px 8px; width: 16em; min-width: 0; }
    .more-hint { font-size: 12px; color: var(--ink-3); white-space: nowrap; }
    .scroll.more { box-shadow: inset -14px 0 10px -10px var(--ink-3); }
    input.filter:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
    .scroll { overflow: auto; max-height: var(--table-max-height, none); border: 1px solid var(--border); border-radius: 8px; }
    table { width: 100%; border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
    th { position: sticky; top: 0; z-index: 1; background: var(--bg-elevated); text-align: left; font-weight: 500;
      color: var(--ink-3); border-bottom: 1px solid var(--border); padding: 0; white-space: nowrap; }
    th.num, td.num { text-align: right; }
    th:not(:has(button)) { padding: 8px 10px; }
    button.sort { all: unset; display: block; box-sizing: border-box; width: 100%; padding: 8px 10px; cursor: pointer; text-align: inherit; }
    button.sort:hover { color: var(--ink-1); }
    button.sort:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
    .arrow { display: inline-block; width: 1em; font-size: 0.7em; margin-left: 2px; color: var(--ink-accent); }
    td { padding: 7px 10px; border-bottom: 1px solid var(--border); color: var(--ink-2); white-space: nowrap;
      max-width: 420px; overflow: hidden; text-overflow: ellipsis; }
    tbody tr { cursor: pointer; }
    tbody tr:last-child td { border-bottom: none; }
    /* Hovered and selected rows turn their text to --ink-1: the dimmer inks miss 4.5:1 on --bg-hover in some themes. */
    tbody tr:hover td, tbody tr:hover .tag { background: var(--bg-hover); color: var(--ink-1); }
    tbody tr[aria-selected='true'] td { background: var(--selected-bg); color: var(--ink-1); }
    tbody tr:focus { outline: none; }
    tbody tr:focus-visible td { box-shadow: inset 0 2px 0 var(--accent), inset 0 -2px 0 var(--accent); }
    tbody tr:focus-visible td:first-child { box-shadow: inset 2px 2px 0 var(--accent), inset 0 -2px 0 var(--accent); }
    tbody tr:focus-visible td:last-child { box-shadow: inset -2px 2px 0 var(--accent), inset 0 -2px 0 var(--accent); }
    tr.sub td { color: var(--ink-3); }
    /* Cell parts the views render (cells live in this shadow root, so their styles must too). */
    td b { font-weight: 600; color: var(--ink-1); }
    .primary { color: var(--ink-1); }
    /* Long text (a session's first prompt): two lines, the whole text in its title and on the focused row. */
    .clamp { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; white-space: normal;
      overflow-wrap: anywhere; min-width: 16ch; max-width: 360px; }
    tbody tr:focus .clamp { -webkit-line-clamp: unset; }
    .branch { font-family: ui-monospace, monospace; font-size: 12px; }
    .tag { font-size: 11px; color: var(--ink-3); border: 1px solid var(--border); border-radius: 999px; padding: 0 6px; }
    .tag.sub { color: var(--ink-accent); border-color: var(--accent-dim); }
    .tag.live { color: var(--success, #3fb950); border-color: var(--success, #3fb950); }
    .tag.hit { color: var(--error, #f85149); border-color: var(--error, #f85149); }
    button.icon { display: inline-grid; place-items: center; padding: 3px; border: 1px solid transparent; border-radius: 5px;
      background: none; color: var(--ink-3); cursor: pointer; }
    button.icon:hover { border-color: var(--border); color: var(--ink-1); }
    button.icon:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
    button.icon.on { color: var(--accent); border-color: var(--accent-dim); }
    tr.sub td:first-child { border-left: 3px solid var(--accent-dim); }
    tr.child td:first-child { padding-left: 26px; }
    tr.child td { background: var(--bg-elevated); }
    button.disclose { all: unset; display: inline-block; width: 1.2em; margin-right: 4px; cursor: pointer; color: var(--ink-2); text-align: center; }
    button.disclose:hover { color: var(--ink-1); }
  `;
}

customElements.define('cost-table', CostTable);

declare global {
  interface HTMLElementTagNameMap {
    'cost-table': CostTable;
  }
}
