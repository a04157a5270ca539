// What the project and the repository view show alike of their scope: the tokens card, and the cost over the range
// beside its split by model (one palette for both, so a model has one colour in the two).
import { html, type TemplateResult } from 'lit';
import type { ModelCost, SeriesBucket, SeriesPoint, Totals } from '../../../src/shared/api-types.ts';
import { modelPalette } from '../chart-colors.ts';
import { formatCount, formatInt, formatTokens, formatUsd, shortModel } from '../format.ts';
import './cost-chart-series.ts';
import './cost-chart-bars.ts';
import './cost-stat-card.ts';

export function tokensCard(t: Totals): TemplateResult {
  return html`<cost-stat-card data-stat="tokens" label="Tokens" value=${formatTokens(t.totalTokens)} sub=${`in ${formatTokens(t.inputTokens)} · out ${formatTokens(t.outputTokens)}`}
    hint=${`Input ${formatInt(t.inputTokens)}, output ${formatInt(t.outputTokens)}, cache write ${formatInt(t.cacheCreationTokens)}, cache read ${formatInt(t.cacheReadTokens)}.`}></cost-stat-card>`;
}

/**
 * `label`: the series chart's accessible name ("Project cost"). Long ranges come summed by week or month (the server's
 * bucketing).
 */
export function costPanels(series: { bucket: SeriesBucket; points: SeriesPoint[] }, costByModel: readonly ModelCost[], label: string): TemplateResult {
  const pal = modelPalette(costByModel.map((m) => [m.model, m.cost]));
  return html`<div class="grid">
    <section class="panel">
      <h3>Cost per ${series.bucket}</h3>
      <cost-chart-series .points=${series.points} .palette=${pal} bucket=${series.bucket} label=${label}></cost-chart-series>
    </section>
    <section class="panel">
      <h3>Cost by model</h3>
      <cost-chart-bars label="Cost by model" .format=${formatUsd}
        .items=${costByModel.map((m) => ({ label: shortModel(m.model), value: m.cost, color: pal.color(m.model), detail: `${m.model}: ${formatUsd(m.cost)} · ${formatCount(m.messages, 'message')}` }))}></cost-chart-bars>
    </section>
  </div>`;
}
