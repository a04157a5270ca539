// The overview's note beside the unpriced-models chip: the range's models whose fast entries were priced at an
// estimated multiplier (decisions.md: never silently 1x). It renders inside the overview, whose styles give the chip
// and its tip (a native title would not show on focus).
import { html, nothing } from 'lit';
import type { EstimatedFastModel } from '../../../src/shared/api-types.ts';
import { formatInt, formatUsd } from '../format.ts';

export function estimatedFastChip(models: readonly EstimatedFastModel[]) {
  if (!models.length) return nothing;
  const reset = (e: Event) => (e.currentTarget as HTMLElement).classList.remove('dismissed');
  return html`<span class="estimated" @mouseenter=${reset} @focusin=${reset}>
    <span class="chip note" tabindex="0" aria-describedby="estimated-tip">
      Estimated fast price: ${models.map((m) => m.model).join(', ')}</span>
    <span class="tip" id="estimated-tip" role="tooltip">
      <span class="tip-head">No known fast-mode multiplier for these models: their fast entries are priced at an estimate.</span>
      ${models.map((m) => html`<span class="tip-row" data-model=${m.model}><b>${m.model}</b>
        ${formatUsd(m.cost)} in ${formatInt(m.messages)} fast message${m.messages === 1 ? '' : 's'} at ${m.multiplier}×</span>`)}
    </span>
  </span>`;
}
