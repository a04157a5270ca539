import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Budgets, Insights, PeriodPace } from '../../../src/shared/api-types.ts';
import { api, isAbort } from '../api.ts';
import { isAlert } from '../budgets.ts';
import { formatDuration, formatUsd } from '../format.ts';
import { scopeParams } from '../state.ts';

/** A background tab is still told: its title and icon are asked for this often even while the page is hidden. */
const EVERY_MS = 60_000;
const ICON = '<rect width="32" height="32" rx="8" fill="#e86f33"/><text x="16" y="23" font-family="system-ui, sans-serif" font-size="20" font-weight="700" text-anchor="middle" fill="#16181c">$</text>';
/** The alert state: the same icon with a red dot, so a pinned or background tab shows it. */
const ALERT_DOT = '<circle cx="25" cy="7" r="7" fill="#d62828" stroke="#fff" stroke-width="2"/>';

export interface TabState {
  /** Today's cost for the page's scope. */
  today: number;
  /** The active block's time left (minutes); null without one. */
  blockLeft: number | null;
  /** A budget alert is on (not snoozed). */
  alert: boolean;
}

/** "$12.34 today · 2h 10m left · my-project — Cost": what a background tab's title says. */
export function tabTitle(s: TabState, what: string | null): string {
  const parts = [`${formatUsd(s.today)} today`];
  if (s.blockLeft !== null) parts.push(`${formatDuration(s.blockLeft * 60_000)} left`);
  if (what) parts.push(what);
  return `${s.alert ? '! ' : ''}${parts.join(' · ')} — Cost`;
}

export function iconHref(alert: boolean): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${ICON}${alert ? ALERT_DOT : ''}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/**
 * Built for a background tab: document.title carries today's cost, the active block's time left and what is open (a
 * project, a session), and the favicon gets a red dot while a budget alert is on. Asked for on every refresh of the
 * page and every minute, also while the page is hidden (the views are not).
 */
export class TabTitle implements ReactiveController {
  private timer: ReturnType<typeof setInterval> | null = null;
  private controller: AbortController | null = null;
  private state: TabState | null = null;
  private scoped: string | null = null;

  constructor(
    host: ReactiveControllerHost,
    private readonly scope: () => string | null,
    private readonly what: () => string | null,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.timer = setInterval(() => void this.load(true), EVERY_MS);
    void this.load(false);
  }

  hostDisconnected(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.controller?.abort();
  }

  /** Asks again (after a refresh of the page, a push of the live feed, a new scope). */
  refresh(force = false): void {
    void this.load(force);
  }

  /** Sets the title from what is known now (a navigation changed what is open). */
  hostUpdated(): void {
    if (this.scope() !== this.scoped) return void this.load(false);
    if (this.state) this.apply(this.state);
  }

  private async load(force: boolean): Promise<void> {
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    this.scoped = this.scope();
    const p = scopeParams(this.scoped);
    const opts = { force, quiet: true };
    try {
      const [pace, today, budgets] = await Promise.all([
        api.get<PeriodPace[]>('/api/pace', p, controller.signal, opts),
        api.get<Insights>('/api/insights', { range: 'today', ...p }, controller.signal, opts),
        api.get<Budgets>('/api/budgets', {}, controller.signal, opts),
      ]);
      const block = today.activeBlock?.burn ?? null;
      this.state = {
        today: pace.find((x) => x.period === 'daily')?.use ?? 0,
        blockLeft: block ? block.minutesLeft : null,
        alert: budgets.budgets.some((b) => isAlert(b) && !b.snoozed),
      };
      this.apply(this.state);
    } catch (err) {
      if (!isAbort(err)) return; // the views tell a failing server; the title keeps the last figures
    }
  }

  private apply(s: TabState): void {
    const title = tabTitle(s, this.what());
    if (document.title !== title) document.title = title;
    const href = iconHref(s.alert);
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.append(link);
    }
    if (link.getAttribute('href') !== href) {
      link.type = 'image/svg+xml';
      link.href = href;
    }
  }
}
