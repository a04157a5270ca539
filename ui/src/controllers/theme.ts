import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { THEMES, applyTheme, isKnownTheme, loadThemePref, saveThemePref } from '../theme.ts';
import type { Mode } from '../theme.ts';

export interface ThemeHub {
  /** The page runs in a hub's frame: the hub's vars paint a theme id this app does not know. */
  framed(): boolean;
  /** Reports the user's pick to the hub. */
  pickTheme(mode: Mode, colorTheme: string): void;
}

/**
 * The light/dark mode and colour theme on <body>: the stored choice at start, the user's picks (stored and reported
 * to the hub), the hub's theme and its list of themes for the picker.
 */
export class ThemeController implements ReactiveController {
  mode: Mode;
  colorTheme: string;
  /** The picker's list: the app's own themes, or the hub's once it sends them. */
  themes: { id: string; label: string }[];

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly hub: ThemeHub,
  ) {
    const pref = loadThemePref();
    this.mode = pref.mode;
    this.colorTheme = isKnownTheme(pref.colorTheme) ? pref.colorTheme : THEMES[0]?.id ?? 'ember';
    this.themes = THEMES.map(({ id, label }) => ({ id, label }));
    host.addController(this);
  }

  hostConnected(): void {
    applyTheme({ mode: this.mode, colorTheme: this.colorTheme });
  }

  /** The user's pick (picker or key). */
  pick(mode: Mode, colorTheme: string): void {
    this.set(mode, colorTheme);
    applyTheme({ mode, colorTheme }, this.hub.framed());
    saveThemePref({ mode, colorTheme });
    this.hub.pickTheme(mode, colorTheme);
  }

  toggleMode(): void {
    this.pick(this.mode === 'dark' ? 'light' : 'dark', this.colorTheme);
  }

  /** The hub's theme (its vars are already inline on <body>). */
  fromHub(mode: Mode, colorTheme: string): void {
    this.set(mode, colorTheme);
    applyTheme({ mode, colorTheme }, true);
    // Kept so boot.js paints the hub's mode on the next load, matching the hub's cached vars.
    saveThemePref({ mode, colorTheme });
  }

  setThemes(themes: { id: string; label: string }[]): void {
    if (!themes.length) return;
    this.themes = themes;
    this.host.requestUpdate();
  }

  private set(mode: Mode, colorTheme: string): void {
    this.mode = mode;
    this.colorTheme = colorTheme;
    this.host.requestUpdate();
  }
}
