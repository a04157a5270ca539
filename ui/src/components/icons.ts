// Inline SVG icons for the shell (stroke icons, 24-unit grid, drawn in currentColor). No network fonts or sprites.
import { svg } from 'lit';
import type { SVGTemplateResult } from 'lit';

function icon(body: SVGTemplateResult, size = 16) {
  return svg`<svg class="icon" width=${size} height=${size} viewBox="0 0 24 24" fill="none" stroke="currentColor"
    stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${body}</svg>`;
}

export const icons = {
  palette: () =>
    icon(svg`<circle cx="13.5" cy="6.5" r="1.5"/><circle cx="17.5" cy="10.5" r="1.5"/><circle cx="8.5" cy="7.5" r="1.5"/>
      <circle cx="6.5" cy="12.5" r="1.5"/><path d="M12 2a10 10 0 0 0 0 20c1.1 0 2-.9 2-2 0-.5-.2-1-.5-1.3-.3-.4-.5-.8-.5-1.3
      0-1.1.9-2 2-2h2.3A5.7 5.7 0 0 0 22 9.7C22 5.4 17.5 2 12 2z"/>`),
  sun: () =>
    icon(svg`<circle cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2
      M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"/>`),
  moon: () => icon(svg`<path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z"/>`),
  gauge: () => icon(svg`<path d="M12 14l4-4"/><path d="M3.3 19a10 10 0 1 1 17.4 0"/>`),
  refresh: () =>
    icon(svg`<path d="M21 12a9 9 0 0 1-15.5 6.2L3 16"/><path d="M3 21v-5h5"/><path d="M3 12A9 9 0 0 1 18.5 5.8L21 8"/>
      <path d="M21 3v5h-5"/>`),
  help: () =>
    icon(svg`<circle cx="12" cy="12" r="10"/><path d="M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3"/><path d="M12 17h.01"/>`),
  close: (size = 16) => icon(svg`<path d="M18 6 6 18M6 6l12 12"/>`, size),
  calendar: () =>
    icon(svg`<rect x="3" y="4" width="18" height="18" rx="2"/><path d="M16 2v4M8 2v4M3 10h18"/>`),
  folder: (size = 14) =>
    icon(svg`<path d="M4 20h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-7.9a2 2 0 0 1-1.7-.9l-.8-1.2A2 2 0 0 0 7.9 3H4a2 2 0 0 0-2 2v13
      c0 1.1.9 2 2 2z"/>`, size),
  check: (size = 14) => icon(svg`<path d="M20 6 9 17l-5-5"/>`, size),
  alert: () =>
    icon(svg`<path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z"/><path d="M12 9v4M12 17h.01"/>`),
  info: () => icon(svg`<circle cx="12" cy="12" r="10"/><path d="M12 16v-4M12 8h.01"/>`),
};
