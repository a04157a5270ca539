// One colour per model, shared by every chart of a view so a model keeps its colour across the
// series chart, the model bars and the legends. Colours come from the theme (--series-1..8).

const SLOTS = 8;
/** The last slot is kept for "Other" once there are more models than slots. */
export const OTHER = 'Other';

/** Used only while a theme defines no --series-N (colour-blind-safe Okabe–Ito order). */
const FALLBACK = ['#e69f00', '#56b4e9', '#009e73', '#cc79a7', '#0072b2', '#d55e00', '#f0e442', '#999999'];

export function seriesVar(slot: number): string {
  const i = slot % SLOTS;
  return `var(--series-${i + 1}, ${FALLBACK[i]})`;
}

/**
 * Model -> CSS colour, biggest cost first. With more than 8 models the smallest share the last
 * slot, and `group(model)` names the bucket they are drawn in.
 */
export interface ModelPalette {
  color(model: string): string;
  group(model: string): string;
  /** Drawing order, biggest first, "Other" last when used. */
  order: string[];
}

export function modelPalette(costByModel: Iterable<[string, number]>): ModelPalette {
  const ranked = [...costByModel].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([m]) => m);
  const overflow = ranked.length > SLOTS;
  const named = overflow ? ranked.slice(0, SLOTS - 1) : ranked;
  const slot = new Map(named.map((m, i) => [m, i]));
  const order = overflow ? [...named, OTHER] : named;
  return {
    order,
    group: (m) => (slot.has(m) ? m : OTHER),
    color: (m) => seriesVar(slot.get(m) ?? SLOTS - 1),
  };
}

/** Sums the per-bucket model costs of a series, the input `modelPalette` ranks by. */
export function totalsByModel(points: { byModel: Record<string, number> }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of points) for (const [m, c] of Object.entries(p.byModel)) out.set(m, (out.get(m) ?? 0) + c);
  return out;
}
