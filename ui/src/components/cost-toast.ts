import { LitElement, css, html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { icons } from './icons.ts';
import { base, buttons } from './shared-styles.ts';

interface Toast {
  id: number;
  message: string;
  kind: 'error' | 'info';
  count: number;
}

const LIFETIME_MS = 8000;

/**
 * Stack of transient messages in the bottom corner. Errors never replace data on screen; they land here.
 * The same message again bumps a counter instead of stacking a copy.
 */
export class CostToast extends LitElement {
  static override properties = { _items: { state: true } };

  private declare _items: Toast[];
  private nextId = 1;
  private timers = new Map<number, ReturnType<typeof setTimeout>>();

  constructor() {
    super();
    this._items = [];
  }

  show(message: string, kind: Toast['kind'] = 'error'): void {
    const same = this._items.find((t) => t.message === message && t.kind === kind);
    if (same) {
      this._items = this._items.map((t) => (t === same ? { ...t, count: t.count + 1 } : t));
      this.arm(same.id);
      return;
    }
    const t: Toast = { id: this.nextId++, message, kind, count: 1 };
    this._items = [...this._items.slice(-3), t];
    this.arm(t.id);
  }

  dismiss(id: number): void {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    this._items = this._items.filter((t) => t.id !== id);
  }

  private arm(id: number): void {
    clearTimeout(this.timers.get(id));
    this.timers.set(id, setTimeout(() => this.dismiss(id), LIFETIME_MS));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  static override styles = [
    base,
    buttons,
    css`
      .toasts {
        position: fixed;
        right: var(--space-4);
        bottom: var(--space-4);
        z-index: 50;
        display: flex;
        flex-direction: column;
        gap: var(--space-2);
        max-width: min(420px, calc(100vw - 32px));
      }

      .toast {
        display: flex;
        align-items: flex-start;
        gap: var(--space-2);
        padding: var(--space-3) var(--space-2) var(--space-3) var(--space-3);
        border: 1px solid var(--border);
        border-left: 3px solid var(--accent);
        border-radius: var(--radius);
        background: var(--bg-elevated);
        color: var(--ink-1);
        box-shadow: var(--shadow-lg);
        font-size: var(--fs-sm);
        animation: toast-in 0.18s ease-out;
      }

      .toast-error {
        border-left-color: var(--error);
      }

      .toast-error .toast-icon {
        color: var(--error);
      }

      .toast-icon {
        padding-top: 1px;
      }

      .toast-msg {
        flex: 1;
        padding-top: 1px;
        word-break: break-word;
      }

      .toast-count {
        color: var(--ink-3);
      }

      .toast .icon-btn {
        width: 24px;
        height: 24px;
      }

      @keyframes toast-in {
        from {
          opacity: 0;
          transform: translateY(6px);
        }
      }
    `,
  ];

  protected override render() {
    return html`<div class="toasts" role="region" aria-label="Notifications">
      ${repeat(
        this._items,
        (t) => t.id,
        (t) => html`<div class="toast toast-${t.kind}" role=${t.kind === 'error' ? 'alert' : 'status'}>
          <span class="toast-icon">${t.kind === 'error' ? icons.alert() : icons.info()}</span>
          <span class="toast-msg">${t.message}${t.count > 1 ? html` <span class="toast-count">×${t.count}</span>` : ''}</span>
          <button class="icon-btn ghost" type="button" aria-label="Dismiss" @click=${() => this.dismiss(t.id)}>
            ${icons.close(14)}
          </button>
        </div>`,
      )}
    </div>`;
  }
}

customElements.define('cost-toast', CostToast);

declare global {
  interface HTMLElementTagNameMap {
    'cost-toast': CostToast;
  }
}
