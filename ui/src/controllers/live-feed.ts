import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { LiveChange } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';

/** Pushes and answers that come close together make one refetch. */
const COALESCE_MS = 60;
/** Refetches are at least this far apart, so a busy index does not keep the page refetching. */
const MIN_GAP_MS = 700;

/**
 * Live figures: listens to GET /api/events (the server says when the index moved) and to the generation of every
 * answer (X-Index-Generation), and asks for a refetch of the page when either shows that something on it is older
 * than the newest generation heard of. So a new line shows within about a second, and answers computed on both sides
 * of a write (cards that would disagree) are fetched again until they all come from one generation. While the first
 * build runs the refresh clock's slower schedule stays in charge; a hidden page refetches when shown again.
 */
export class LiveFeed implements ReactiveController {
  /** When the newest answer reached the page (epoch ms); null before the first. */
  updatedAt: number | null = null;
  /** The stream is open: figures follow the index as it changes. */
  connected = false;

  private latest = -1;
  private done = false;
  private source: EventSource | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pending = false;
  private lastRun = 0;
  private unsubscribe: (() => void)[] = [];

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly refetch: () => void,
    /** Told of every move of the index, also while the page is hidden (the tab's title follows it). */
    private readonly moved: () => void = () => {},
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.unsubscribe = [api.onGeneration((g) => this.onAnswer(g)), api.onIndexing((s) => (this.done = s.done))];
    document.addEventListener('visibilitychange', this.onVisibility);
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events');
    source.addEventListener('change', (e) => this.onChange(JSON.parse((e as MessageEvent<string>).data) as LiveChange));
    source.addEventListener('open', () => this.setConnected(true));
    // EventSource reconnects by itself (the server asks for 1 s); meanwhile the refresh clock's polls go on.
    source.addEventListener('error', () => this.setConnected(false));
    this.source = source;
  }

  hostDisconnected(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.source?.close();
    this.source = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private setConnected(connected: boolean): void {
    if (this.connected === connected) return;
    this.connected = connected;
    this.host.requestUpdate();
  }

  private onChange(c: LiveChange): void {
    this.done = c.done;
    if (c.generation <= this.latest) return;
    const known = this.latest >= 0;
    this.latest = c.generation;
    if (known && c.done) this.moved();
    // The first event of a stream only says where the index is; the page's own answers tell whether they are older.
    if (known && c.done) this.schedule();
  }

  private onAnswer(generation: number): void {
    this.updatedAt = Date.now();
    this.host.requestUpdate();
    if (this.latest < 0) {
      this.latest = generation;
      return;
    }
    if (generation === this.latest) return;
    // Older: this answer is behind what another card shows. Newer: the others are behind it.
    this.latest = Math.max(this.latest, generation);
    if (this.done) this.schedule();
  }

  private schedule(): void {
    if (document.hidden) {
      this.pending = true;
      return;
    }
    if (this.timer) return;
    const wait = Math.max(COALESCE_MS, this.lastRun + MIN_GAP_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.lastRun = Date.now();
      this.refetch();
    }, wait);
  }

  private onVisibility = (): void => {
    if (document.hidden || !this.pending) return;
    this.pending = false;
    this.schedule();
  };
}
