// Standalone theme CSS and the light/dark + color-theme preference. Under the hub, hub-bridge.ts hands the hub's choice
// here and the hub's inline vars win over this CSS (inline style beats any selector).
import themesJson from './themes.json' with { type: 'json' };
import { KEYS, readStore, writeStore } from './state.ts';

export type Mode = 'light' | 'dark';

export interface Swatch {
  bg: string;
  accent: string;
  ink: string;
  border: string;
}

export interface ThemeDef {
  id: string;
  label: string;
  swatch: Record<Mode, Swatch>;
  vars: Record<Mode, Record<string, string>>;
}

export const THEMES: readonly ThemeDef[] = (themesJson as { themes: ThemeDef[] }).themes;
export const DEFAULT_THEME = (themesJson as { default: string }).default;

export function isKnownTheme(id: string): boolean {
  return THEMES.some((t) => t.id === id);
}

const VAR_NAME = /^--[a-z0-9-]+$/;
const SAFE_VALUE = /^[#(),.%\w\s-]+$/;
const SAFE_ID = /^[a-z0-9-]+$/;

function declarations(vars: Record<string, string>): string {
  return Object.entries(vars)
    .filter(([k, v]) => VAR_NAME.test(k) && SAFE_VALUE.test(v))
    .map(([k, v]) => `${k}:${v};`)
    .join('');
}

/**
 * One rule per theme and mode on `body[data-theme=x].dark|.light`, the default theme also on plain `body.dark|.light`
 * (so an unknown or hub-only id falls back to it), and the `.theme-swatch-<id>` rules the hub SDK would add.
 */
export function themeCss(themes: readonly ThemeDef[] = THEMES, def: string = DEFAULT_THEME): string {
  const out: string[] = [];
  for (const t of themes) {
    if (!SAFE_ID.test(t.id)) continue;
    for (const mode of ['dark', 'light'] as const) {
      const sel = `body[data-theme="${t.id}"].${mode}`;
      out.push(`${t.id === def ? `body.${mode},` : ''}${sel}{${declarations(t.vars[mode])}}`);
    }
    const sw = (s: Swatch) => `--sw-bg:${s.bg};--sw-accent:${s.accent};--sw-ink:${s.ink};--sw-border:${s.border};`;
    out.push(`.theme-swatch-${t.id}{${sw(t.swatch.dark)}}`);
    out.push(`body.light .theme-swatch-${t.id}{${sw(t.swatch.light)}}`);
  }
  return out.join('\n');
}

/** Adds the generated theme CSS to the document once, ahead of the app's own stylesheet rules that derive from it. */
export function installThemeCss(doc: Document = document): void {
  if (doc.getElementById('cost-theme-css')) return;
  const style = doc.createElement('style');
  style.id = 'cost-theme-css';
  style.textContent = themeCss();
  doc.head.prepend(style);
}

export interface ThemePref {
  mode: Mode;
  colorTheme: string;
}

/** Stored choice; an unset mode follows the OS, an unset color theme is the default. */
export function loadThemePref(): ThemePref {
  const m = readStore(KEYS.theme);
  const mode: Mode =
    m === 'light' || m === 'dark' ? m : window.matchMedia?.('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
  const c = readStore(KEYS.colorTheme);
  return { mode, colorTheme: c && SAFE_ID.test(c) ? c : DEFAULT_THEME };
}

/** Persists a user's choice; the default color theme is stored as "unset". */
export function saveThemePref(pref: ThemePref): void {
  writeStore(KEYS.theme, pref.mode);
  writeStore(KEYS.colorTheme, pref.colorTheme === DEFAULT_THEME ? null : pref.colorTheme);
}

/**
 * Sets the mode class and theme attribute on body. Standalone, an id this app does not know shows the default theme
 * (hub protocol theme rule 9); under the hub the id is kept, since the hub's vars paint it.
 */
export function applyTheme(pref: ThemePref, framed = false): void {
  const body = document.body;
  body.classList.toggle('dark', pref.mode === 'dark');
  body.classList.toggle('light', pref.mode === 'light');
  const id = framed || isKnownTheme(pref.colorTheme) ? pref.colorTheme : DEFAULT_THEME;
  body.dataset.theme = id;
  document.documentElement.style.colorScheme = pref.mode;
}
