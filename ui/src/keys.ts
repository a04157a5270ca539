// Keyboard shortcuts of the shell: event -> command, and the "is the user typing" test. Pure apart from reading the event.

export type Command = 'toggle-mode' | 'usage' | 'help' | 'up' | 'refresh' | 'overview' | 'insights' | 'sessions' | 'first-row' | 'range-prev' | 'range-next';

/** Shown by the help overlay, in this order. `keys` lists alternatives; a combo is written 'Ctrl+Shift+S'. */
export const SHORTCUTS: { keys: string[]; label: string }[] = [
  { keys: ['1'], label: 'Overview' },
  { keys: ['2'], label: 'Insights' },
  { keys: ['3'], label: 'Sessions' },
  { keys: ['[', ']'], label: 'Previous / next range preset' },
  { keys: ['r'], label: 'Refresh now' },
  { keys: ['t'], label: 'Switch light / dark' },
  { keys: ['Ctrl+Shift+S'], label: 'Plan usage' },
  { keys: ['Backspace'], label: 'Go up (session → project → overview), back on the row you came from' },
  { keys: ['Esc'], label: 'Close a dialog, or go up' },
  { keys: ['?'], label: 'This help' },
  // Handled by cost-table on its focused row, listed here so the overlay tells them.
  { keys: ['g'], label: 'Table: jump to the first row' },
  { keys: ['↑', '↓', 'j', 'k'], label: 'Table: previous / next row' },
  { keys: ['PageUp', 'PageDown', 'Home', 'End'], label: 'Table: 10 rows up / down, first / last row' },
  { keys: ['Enter'], label: 'Table: open the selected row' },
  { keys: ['←', '→'], label: 'Table: collapse / expand a grouped row' },
];

/** True when the key press belongs to a text field (looks through shadow roots via the composed path). */
export function isTyping(e: Event): boolean {
  const path = typeof e.composedPath === 'function' ? e.composedPath() : [];
  const first = (path[0] ?? e.target) as Element | null;
  if (!first || typeof (first as Element).tagName !== 'string') return false;
  const tag = first.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (first as HTMLInputElement).type;
    return !['button', 'checkbox', 'radio', 'range', 'reset', 'submit', 'color', 'file', 'image'].includes(type);
  }
  return (first as HTMLElement).isContentEditable === true;
}

/** The command for a key press, or null when the shell should leave it alone. */
export function commandFor(e: KeyboardEvent): Command | null {
  if (e.ctrlKey && e.shiftKey && !e.altKey && !e.metaKey && (e.code === 'KeyS' || e.key.toLowerCase() === 's')) return 'usage';
  if (e.ctrlKey || e.altKey || e.metaKey || e.isComposing) return null;
  if (isTyping(e)) return null;
  switch (e.key) {
    case 't':
      return 'toggle-mode';
    case '?':
      return 'help';
    case 'Backspace':
    case 'Escape':
      return 'up';
    case 'r':
      return 'refresh';
    case '1':
      return 'overview';
    case '2':
      return 'insights';
    case '3':
      return 'sessions';
    case 'g':
      return 'first-row';
    case '[':
      return 'range-prev';
    case ']':
      return 'range-next';
    default:
      return null;
  }
}
