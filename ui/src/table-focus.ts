// Keyboard reach into the view's tables, which sit in the views' shadow roots: the first table row on a key press,
// and, after going up a level, the row of the session or project the user came from.
import type { CostTable } from './components/cost-table.ts';

/** The cost-tables under `root`, through open shadow roots, in document order. */
export function tablesIn(root: ParentNode): CostTable[] {
  const out: CostTable[] = [];
  for (const el of root.querySelectorAll('*')) {
    if (el.tagName === 'COST-TABLE') out.push(el as CostTable);
    if (el.shadowRoot) out.push(...tablesIn(el.shadowRoot));
  }
  return out;
}

/** Focuses the first row of the first table under `root` that has one; false when none has. */
export function focusFirstRow(root: ParentNode): boolean {
  return tablesIn(root).some((t) => t.focusRow(null));
}

/**
 * Focuses the row keyed `key` once a table under `root` shows it (the view loads after the navigation), giving up
 * after `ms` or as soon as `stillThere` turns false (the user moved on).
 */
export async function focusRowWhenShown(root: ParentNode, key: string, stillThere: () => boolean, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until && stillThere()) {
    if (tablesIn(root).some((t) => t.focusRow(key))) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
