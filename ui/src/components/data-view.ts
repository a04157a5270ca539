import { LitElement } from 'lit';
import type { PropertyDeclarations } from 'lit';
import { DEFAULT_RANGE } from '../state.ts';
import type { RangeSel } from '../state.ts';

/**
 * What the shell hands every element that fetches for the page's scope: the scope (a project folder or repository
 * scope, state.ts; null for all) and `refreshKey`, bumped to refetch silently. The strip, the monthly table and the
 * budget banner are such elements; the data views add the range.
 */
export class ScopedView extends LitElement {
  // Typed as the general declarations so subclasses declare only their own (Lit merges them with these).
  static override properties: PropertyDeclarations = {
    scope: { attribute: false },
    refreshKey: { type: Number, attribute: 'refresh-key' },
  };

  declare scope: string | null;
  declare refreshKey: number;

  constructor() {
    super();
    this.scope = null;
    this.refreshKey = 0;
  }
}

/** A data view: a scoped element with the range the shell shows. Subclasses add what they show (a project, a session...). */
export class DataView extends ScopedView {
  static override properties: PropertyDeclarations = {
    range: { attribute: false },
  };

  declare range: RangeSel;

  constructor() {
    super();
    this.range = DEFAULT_RANGE;
  }
}
