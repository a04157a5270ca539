import { LitElement } from 'lit';
import type { PropertyDeclarations } from 'lit';
import { DEFAULT_RANGE } from '../state.ts';
import type { RangeSel } from '../state.ts';

/**
 * What the shell hands every data view: the range, the scope (a project folder or repository scope, state.ts; null
 * for all) and `refreshKey`, bumped to refetch silently. Subclasses add what they show (a project, a session...).
 */
export class DataView extends LitElement {
  // Typed as the general declarations so subclasses declare only their own (Lit merges them with these).
  static override properties: PropertyDeclarations = {
    range: { attribute: false },
    scope: { attribute: false },
    refreshKey: { type: Number, attribute: 'refresh-key' },
  };

  declare range: RangeSel;
  declare scope: string | null;
  declare refreshKey: number;

  constructor() {
    super();
    this.range = DEFAULT_RANGE;
    this.scope = null;
    this.refreshKey = 0;
  }
}
