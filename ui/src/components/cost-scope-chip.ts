import { LitElement, css, html, nothing } from 'lit';
import { icons } from './icons.ts';
import { scopeRepository } from '../state.ts';
import { base } from './shared-styles.ts';

/**
 * The project or repository the overview and insights are limited to, with a button to clear it. Hidden when there is no scope.
 *
 * @fires scope-clear - the user cleared the scope.
 * @fires machine-clear - the user cleared the machine filter.
 */
export class CostScopeChip extends LitElement {
  static override properties = {
    project: {},
    name: {},
    machine: {},
  };

  /** Encoded project folder name, a repository scope (state.ts), or null for all projects. */
  declare project: string | null;
  /** Display name; the encoded name is shown until it is known. */
  declare name: string | null;
  /** The machine filter (decisions.md "Several machines"), null for every machine. */
  declare machine: string | null;

  constructor() {
    super();
    this.project = null;
    this.name = null;
    this.machine = null;
  }

  static override styles = [
    base,
    css`
      .chip {
        display: inline-flex;
        align-items: center;
        gap: 6px;
        height: 28px;
        padding: 0 4px 0 10px;
        border: 1px solid var(--accent);
        border-radius: 999px;
        background: var(--selected-bg);
        color: var(--ink-1);
        font-size: var(--fs-sm);
        font-weight: 550;
        max-width: 320px;
      }

      .chip-label {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }

      .chip-clear {
        display: inline-grid;
        place-items: center;
        width: 20px;
        height: 20px;
        border: 0;
        border-radius: 50%;
        background: transparent;
        color: var(--ink-1);
        cursor: pointer;
      }

      .chip-clear:hover {
        background: var(--bg-hover);
      }
    `,
  ];

  protected override render() {
    return html`${this.renderScope()}${this.renderMachine()}`;
  }

  private renderMachine() {
    if (!this.machine) return nothing;
    return html`<span class="chip" data-scope="machine" title=${`Totals limited to machine ${this.machine}`}>
      <span class="chip-label">${this.machine}</span>
      <button class="chip-clear" type="button" aria-label=${`Clear machine filter ${this.machine}`}
        @click=${() => this.dispatchEvent(new CustomEvent('machine-clear', { bubbles: true, composed: true }))}>${icons.close(12)}</button>
    </span>`;
  }

  private renderScope() {
    if (!this.project) return nothing;
    const repository = scopeRepository(this.project);
    const id = repository ?? this.project;
    const label = this.name || (repository === null ? id : id.split(/[\\/]+/).filter(Boolean).pop() ?? id);
    const what = repository === null ? 'project' : 'repository';
    return html`<span class="chip" data-scope=${what} title=${`Totals limited to ${what} ${label} (${id})`}>
      ${icons.folder()}
      <span class="chip-label">${label}</span>
      <button
        class="chip-clear"
        type="button"
        aria-label=${`Clear ${what} scope ${label}`}
        @click=${() => this.dispatchEvent(new CustomEvent('scope-clear', { bubbles: true, composed: true }))}
      >
        ${icons.close(12)}
      </button>
    </span>`;
  }
}

customElements.define('cost-scope-chip', CostScopeChip);

declare global {
  interface HTMLElementTagNameMap {
    'cost-scope-chip': CostScopeChip;
  }
}
