import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The host element's content width, kept current by a ResizeObserver; the host re-renders when it changes. */
export class WidthController implements ReactiveController {
  width: number;
  private readonly observer = new ResizeObserver((entries) => {
    const w = Math.floor(entries[0]?.contentRect.width ?? 0);
    if (w > 0 && w !== this.width) {
      this.width = w;
      this.host.requestUpdate();
    }
  });

  /** `initial` is used until the first measurement. */
  constructor(
    private readonly host: ReactiveControllerHost & Element,
    initial: number,
  ) {
    this.width = initial;
    host.addController(this);
  }

  hostConnected(): void {
    this.observer.observe(this.host);
  }

  hostDisconnected(): void {
    this.observer.disconnect();
  }
}
