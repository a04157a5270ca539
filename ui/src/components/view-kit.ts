// What the four data views share: loading their data for the current arguments, the loading / error placeholder,
// header parts and the common styles. Failed requests are toasted by the shell (api.onError), so views only keep the
// last good data on screen; a refresh (new refreshKey) refetches silently because the shell has cleared the cache.
import { Task } from '@lit/task';
import { css, html, nothing } from 'lit';
import type { ReactiveControllerHost, TemplateResult } from 'lit';
import type { RangeInfo } from '../../../src/shared/api-types.ts';
import { api, isAbort } from '../api.ts';
import { formatDayRange } from '../format.ts';
import { downloadJson } from '../export.ts';
import { joinRound } from '../refresh-rounds.ts';
import './cost-skeleton.ts';
import './cost-empty.ts';

export interface ViewDataOptions<A extends readonly unknown[], D> {
  /** What the data depends on, refreshKey excluded; compared as JSON to tell stale data while the next loads. */
  args: () => A;
  refreshKey: () => number;
  load: (args: A, signal: AbortSignal) => Promise<D>;
  /** An error after which the old data must go (e.g. a 404: the thing is gone). */
  drops?: (err: Error) => boolean;
}

/** The last data a view loaded, and the error of the last failed load (null after a success). */
export class ViewData<A extends readonly unknown[], D> {
  loaded: { data: D; key: string } | null = null;
  error: Error | null = null;
  readonly task: Task<readonly [...A, number], { data: D; key: string }>;

  constructor(
    host: ReactiveControllerHost,
    private readonly opts: ViewDataOptions<A, D>,
  ) {
    this.task = new Task(host, {
      args: () => [...opts.args(), opts.refreshKey()] as const,
      task: async (all, { signal }) => {
        const args = all.slice(0, -1) as unknown as A;
        const done = joinRound(all[all.length - 1] as number);
        try {
          return { data: await opts.load(args, signal), key: JSON.stringify(args) };
        } finally {
          // Shown with the rest of its refresh (refresh-rounds.ts).
          await done();
        }
      },
      onComplete: (v) => {
        this.loaded = v;
        this.error = null;
      },
      onError: (e) => {
        if (isAbort(e)) return;
        this.error = e instanceof Error ? e : new Error(String(e));
        if (opts.drops?.(this.error)) this.loaded = null;
      },
    });
  }

  /** True while the data on screen answers other arguments than the current ones (a new range is loading). */
  get stale(): boolean {
    return this.loaded !== null && this.loaded.key !== JSON.stringify(this.opts.args());
  }

  /**
   * Before the first data: a skeleton of the view's shape, or the error with an action (default "Try again").
   */
  placeholder(failed: string, shape: { cards: number; rows: number }, action?: TemplateResult): TemplateResult {
    if (!this.error) return html`<cost-skeleton cards=${shape.cards} rows=${shape.rows}></cost-skeleton>`;
    return html`<cost-empty heading=${failed} message=${this.error.message}>
      ${action ?? html`<button @click=${() => void this.task.run()}>Try again</button>`}
    </cost-empty>`;
  }
}

/** Whether the index holds any usage at all (a project, all time): what tells an empty range from an empty index. */
export async function anyIndexed(signal: AbortSignal): Promise<boolean> {
  return (await api.get<unknown[]>('/api/projects', {}, signal)).length > 0;
}

/** The empty state of a view while transcripts are still being read. */
export function indexingEmpty(): TemplateResult {
  return html`<cost-empty heading="Indexing…" message="Transcripts are still being read; figures appear as soon as they are indexed."></cost-empty>`;
}

/** A bubbling, composed event for the shell (`navigate`, `scope`, `open-usage`). */
export function emit(from: HTMLElement, name: string, detail?: object): void {
  from.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}

/** A range as the end of a sentence ("No usage between Mar 1 – Mar 5"; "… so far" for the whole history). */
export function rangeClause(range: Pick<RangeInfo, 'from' | 'to' | 'kind'>): string {
  return range.kind === 'all' ? 'so far' : `between ${formatDayRange(range.from, range.to)}`;
}

/** The range label of a view's header: "All time" for the whole history (its `from` is the epoch, not the first activity). */
export function rangeText(range: Pick<RangeInfo, 'from' | 'to' | 'kind'>): TemplateResult {
  return html`<span class="range">${range.kind === 'all' ? 'All time' : formatDayRange(range.from, range.to)}</span>`;
}

export function exportJsonButton(file: string, data: unknown): TemplateResult {
  return html`<button class="export-json" @click=${() => downloadJson(file, data)}>Export JSON</button>`;
}

/** The view's content, dimmed and marked busy while it is stale. */
export function viewBody(stale: boolean, content: unknown): TemplateResult {
  return html`<div class="body ${stale ? 'stale' : ''}" aria-busy=${stale}>${content ?? nothing}</div>`;
}

/** Text uses the shell's --ink-* colours, which keep 4.5:1 on every surface in every theme (app.css). */
export const viewStyles = css`
  :host { display: block; color: var(--ink-1); }
  header { display: flex; align-items: center; gap: 10px; flex-wrap: wrap; margin-bottom: 14px; }
  h2 { margin: 0; font-size: 18px; overflow-wrap: anywhere; }
  .range { color: var(--ink-3); font-size: 13px; }
  .spacer { flex: 1; }
  button { font: inherit; font-size: 12px; color: var(--ink-2); background: var(--bg-elevated); border: 1px solid var(--border);
    border-radius: 6px; padding: 4px 10px; cursor: pointer; }
  button:hover { background: var(--bg-hover); color: var(--ink-1); }
  button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
  button.receipt { display: block; margin-top: 8px; padding: 2px 8px; font-size: 12px; color: var(--ink-2); }
  .body { transition: opacity 0.15s; }
  .body.stale { opacity: 0.55; }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 12px; margin-bottom: 16px; }
  .grid { display: grid; grid-template-columns: minmax(0, 2fr) minmax(260px, 1fr); gap: 16px; margin-bottom: 16px; }
  @media (max-width: 900px) { .grid { grid-template-columns: minmax(0, 1fr); } }
  .panel { background: var(--bg-surface); border: 1px solid var(--border); border-radius: 10px; padding: 14px 16px; min-width: 0; }
  h3 { margin: 0 0 10px; font-size: 13px; font-weight: 600; color: var(--ink-2); }
`;
