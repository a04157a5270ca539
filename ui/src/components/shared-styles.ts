// Styles that several shell elements use, and how the light-DOM elements get their own. The rule (ARCHITECTURE.md
// "UI"): an element's styles live beside it, in its shadow root; an element renders in light DOM only where a
// document-level rule or query must reach its content, and then its styles are adopted by the document.
import { css } from 'lit';
import type { CSSResult } from 'lit';

/** What every shell element's content assumes: border-box sizing, the focus ring, screen-reader-only text, icons. */
export const base = css`
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }

  :focus-visible {
    outline: none;
    box-shadow: var(--focus-ring);
  }

  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }

  .icon {
    flex: none;
    display: block;
  }
`;

/** .btn and .icon-btn. */
export const buttons = css`
  .btn,
  .icon-btn {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 6px;
    height: 32px;
    padding: 0 var(--space-3);
    border: 1px solid var(--border);
    border-radius: 8px;
    background: var(--bg-elevated);
    color: var(--ink-1);
    font: 500 var(--fs-sm) / 1 var(--font-sans);
    white-space: nowrap;
    cursor: pointer;
    transition:
      background-color 0.12s,
      border-color 0.12s;
  }

  .icon-btn {
    width: 32px;
    padding: 0;
  }

  .btn:hover,
  .icon-btn:hover {
    background: var(--bg-hover);
  }

  .btn:disabled {
    opacity: 0.6;
    cursor: default;
  }

  .btn.ghost,
  .icon-btn.ghost {
    border-color: transparent;
    background: transparent;
  }

  .btn.ghost:hover,
  .icon-btn.ghost:hover {
    background: var(--bg-hover);
  }

  .btn.primary {
    border-color: var(--accent);
    background: var(--selected-bg);
    color: var(--ink-1);
  }

  .btn.primary:hover {
    background: color-mix(in srgb, var(--accent) 26%, var(--bg-surface));
  }
`;

/** A spinning icon (.spin) and a spinner, for a control that waits. */
export const spinners = css`
  .spin,
  .spin .icon {
    display: inline-block;
    animation: spin 0.9s linear infinite;
  }

  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }

  .spinner {
    display: inline-block;
    width: 12px;
    height: 12px;
    border: 2px solid color-mix(in srgb, var(--accent) 30%, transparent);
    border-top-color: var(--accent);
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
    flex: none;
  }

  @media (prefers-reduced-motion: reduce) {
    .spin,
    .spin .icon,
    .spinner {
      animation-duration: 3s;
    }
  }
`;

/** A row of buttons of which one is pressed (range presets, light / dark). */
export const segmented = css`
  .segmented {
    display: inline-flex;
    align-items: center;
    gap: 2px;
    padding: 3px;
    border: 1px solid var(--border);
    border-radius: 9px;
    background: var(--bg-deep);
    max-width: 100%;
    overflow-x: auto;
    scrollbar-width: none;
  }

  .seg {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    height: 26px;
    padding: 0 10px;
    border: 0;
    border-radius: 6px;
    background: transparent;
    color: var(--ink-2);
    font: 550 var(--fs-sm) / 1 var(--font-sans);
    white-space: nowrap;
    cursor: pointer;
  }

  .seg:hover {
    color: var(--ink-1);
    background: var(--bg-hover);
  }

  .seg[aria-pressed='true'] {
    background: var(--bg-elevated);
    color: var(--ink-1);
    box-shadow:
      0 0 0 1px var(--border),
      0 1px 2px rgb(0 0 0 / 0.12);
  }

  .seg[aria-pressed='true']:focus-visible,
  .seg:focus-visible {
    box-shadow: var(--focus-ring);
  }

  .segmented.small .seg {
    height: 24px;
    padding: 0 8px;
  }
`;

/** A [popover] panel under its button (custom range, theme picker). */
export const popover = css`
  .popover {
    inset: auto;
    margin: 0;
    padding: var(--space-4);
    border: 1px solid var(--border);
    border-radius: var(--radius);
    background: var(--bg-elevated);
    color: var(--ink-1);
    box-shadow: var(--shadow-lg);
    font: inherit;
  }

  .popover-title {
    font-weight: 650;
    font-size: var(--fs-md);
  }
`;

/** A modal <dialog> with a head and a body (plan usage, keyboard shortcuts). */
export const dialog = css`
  .dialog {
    width: min(560px, calc(100vw - 32px));
    max-height: calc(100vh - 64px);
    padding: 0;
    border: 1px solid var(--border);
    border-radius: var(--radius-lg);
    background: var(--bg-elevated);
    color: var(--ink-1);
    box-shadow: var(--shadow-lg);
  }

  .dialog::backdrop {
    background: var(--backdrop);
  }

  .dialog-head {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: var(--space-3);
    padding: var(--space-4) var(--space-5);
    border-bottom: 1px solid var(--line);
  }

  .dialog-head h2 {
    margin: 0;
    font-size: var(--fs-lg);
    font-weight: 650;
  }

  .dialog-head-actions {
    display: flex;
    gap: var(--space-2);
  }

  .dialog-body {
    padding: var(--space-4) var(--space-5) var(--space-5);
  }
`;

/**
 * A light-DOM element's styles, adopted by the document once each, in the order first asked for (after app.css, whose
 * page rules they build on). Called when the element's module loads, shared sheets first.
 */
export function adoptDocumentStyles(...sheets: CSSResult[]): void {
  for (const s of sheets) {
    const sheet = s.styleSheet;
    if (sheet && !document.adoptedStyleSheets.includes(sheet)) document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
}
