import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { IndexingState } from '../../../src/shared/api-types.ts';
import { api, HttpError } from '../api.ts';
import { indexingPhase } from '../indexing.ts';

const REFRESH_MS = 30_000;
/** While the first index build runs, totals grow quickly: refresh more often. */
const INDEXING_REFRESH_MS = 5_000;
/** While the start-up scan compares the transcripts with the index (no file to read known yet): a second or less. */
const CHECKING_REFRESH_MS = 1_000;
const TICK_MS = 1_000;

/**
 * When the views refetch: every 30 s (5 s while transcripts are read, with the progress asked for every second between,
 * and 1 s while the start-up scan is still looking for what to read) while the page is visible and its hub tab active,
 * and on demand. Views refetch when `refreshKey` changes; the indexing progress comes with every API answer.
 */
export class RefreshClock implements ReactiveController {
  refreshKey = 0;
  /** A manual refresh is clearing the server's cache. */
  refreshing = false;
  indexing: IndexingState | null = null;

  private active = true;
  private lastRefresh = Date.now();
  private timer: ReturnType<typeof setInterval> | null = null;
  private unsubscribe: (() => void) | null = null;

  /** `report` shows a failed manual refresh to the user. */
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly report: (message: string) => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.onVisibility);
    this.unsubscribe = api.onIndexing((s) => {
      const i = this.indexing;
      if (!i || s.done !== i.done || s.filesTotal !== i.filesTotal || s.filesDone !== i.filesDone || s.bytesDone !== i.bytesDone) {
        this.indexing = s;
        this.host.requestUpdate();
        // Done, as one answer says: the answers shown before it were read from a partial index (or said it was being
        // checked), and the next refresh would be 30 s away.
        if (i && !i.done && s.done) void this.refresh(false);
      }
    });
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearInterval(this.timer);
  }

  /** The hub's tab state: a hidden tab does not refresh, and catches up when shown. */
  setActive(active: boolean): void {
    this.active = active;
    if (active) this.tick();
  }

  /** Manual: also clears the server's 30 s cache. Auto: only our in-memory cache. Views refetch on the new key. */
  async refresh(manual: boolean): Promise<void> {
    if (this.refreshing) return;
    this.lastRefresh = Date.now();
    if (manual) {
      this.refreshing = true;
      this.host.requestUpdate();
      try {
        await api.post('/api/refresh');
      } catch (err) {
        this.report(`Refresh failed: ${(err as Error).message}`);
        // No answer at all (the server is down): the views' requests would fail the same way, one more toast each;
        // the figures on screen stay. A server that answered with an error may still serve them.
        if (!(err instanceof HttpError)) return;
      } finally {
        this.refreshing = false;
        this.host.requestUpdate();
      }
    }
    api.invalidate();
    this.refreshKey++;
    this.host.requestUpdate();
  }

  private tick(): void {
    if (document.hidden || !this.active) return;
    const phase = this.indexing ? indexingPhase(this.indexing) : 'done';
    const every = phase === 'done' ? REFRESH_MS : phase === 'checking' ? CHECKING_REFRESH_MS : INDEXING_REFRESH_MS;
    if (Date.now() - this.lastRefresh >= every) void this.refresh(false);
    // Between a build's refreshes, one small answer a second keeps the progress moving and tells "done" within a
    // second or two (the server keeps an answer 2 s while indexing) instead of at the next refresh.
    else if (phase === 'reading') {
      // Quiet: a server that went away is told by the refreshes, not once a second.
      api.get('/api/overview', { range: 'today' }, undefined, { force: true, quiet: true }).catch(() => {});
    }
  }

  private onVisibility = (): void => {
    if (!document.hidden) this.tick();
  };
}
