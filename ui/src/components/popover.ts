// Anchors a [popover] panel under its button. Popovers live in the top layer, so they are placed with fixed
// coordinates, kept inside the viewport (narrow windows included).

const GAP = 6;
const MARGIN = 8;

export function placePopover(pop: HTMLElement | null, anchor: Element | null): void {
  if (!pop || !anchor) return;
  const a = anchor.getBoundingClientRect();
  const w = pop.offsetWidth;
  const vw = document.documentElement.clientWidth;
  // Right-align under anchors in the right half of the window, left-align otherwise.
  const preferred = a.left + a.width / 2 > vw / 2 ? a.right - w : a.left;
  const left = Math.max(MARGIN, Math.min(preferred, vw - w - MARGIN));
  pop.style.position = 'fixed';
  pop.style.margin = '0';
  pop.style.top = `${Math.round(a.bottom + GAP)}px`;
  pop.style.left = `${Math.round(left)}px`;
}
