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
 * Model -> CSS colour. A model's slot comes from its name, not its cost rank, so it keeps its colour across ranges,
 * views and charts (`modelSlot`); only when two models of one chart prefer the same slot does the older one (by
 * its release date) take the next free one, so the model in use now keeps its colour. The last slot is "Other":
 * with more than 7 models the cheapest share it, and `group(model)` names the bucket they are drawn in.
 */
export interface ModelPalette {
  color(model: string): string;
  group(model: string): string;
  /** Drawing order, biggest first, "Other" last when used. */
  order: string[];
}

const NAMED = SLOTS - 1;

/** Slots of the Claude families (the rest: any named slot): an Opus, a Sonnet and a Haiku never share a colour. */
const FAMILY_SLOTS: [RegExp, number[]][] = [[/opus/, [0, 3]], [/sonnet/, [1, 4]], [/haiku/, [2, 5]]];
const ANY_SLOT = Array.from({ length: NAMED }, (_, i) => i);

/** A model's preferred slot: its family's, picked by an FNV-1a hash of the name without its date (-YYYYMMDD). */
export function modelSlot(model: string): number {
  const name = model.replace(/-\d{8}$/, '');
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  const slots = FAMILY_SLOTS.find(([re]) => re.test(name))?.[1] ?? ANY_SLOT;
  return slots[h % slots.length]!;
}

/**
 * How new a model is: its version numbers (opus-4-6 after opus-4-1, claude-3-5-sonnet before sonnet-4), then its date.
 * An id without a date suffix (claude-opus-4-6) is ordered by its version like any other, not as the oldest.
 */
export function newer(a: string, b: string): number {
  const parts = (m: string) => (m.match(/\d+/g) ?? []).filter((n) => n.length < 8).map(Number);
  const va = parts(a);
  const vb = parts(b);
  for (let i = 0; i < Math.max(va.length, vb.length); i++) {
    const d = (vb[i] ?? -1) - (va[i] ?? -1);
    if (d) return d;
  }
  const date = (m: string) => /-(\d{8})$/.exec(m)?.[1] ?? '';
  return date(b).localeCompare(date(a)) || b.localeCompare(a);
}

export function modelPalette(costByModel: Iterable<[string, number]>): ModelPalette {
  const ranked = [...costByModel].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([m]) => m);
  const overflow = ranked.length > NAMED;
  const named = overflow ? ranked.slice(0, NAMED) : ranked;
  const slot = new Map<string, number>();
  const taken = new Set<number>();
  // The newest model (by its version, then date and name) keeps its slot; an older one of the same family yields.
  for (const m of [...named].sort(newer)) {
    let s = modelSlot(m);
    while (taken.has(s)) s = (s + 1) % NAMED;
    taken.add(s);
    slot.set(m, s);
  }
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
