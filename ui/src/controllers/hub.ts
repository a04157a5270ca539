import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { connectHub } from '../hub-bridge.ts';
import type { HubBridge, HubCallbacks, HubKeyRow } from '../hub-bridge.ts';
import type { Mode } from '../theme.ts';

/**
 * The hub connection for the host's lifetime (hub-bridge.ts speaks the protocol). Before it connects, and standalone,
 * it answers as no hub: not framed, no keys forwarded, no hub keys.
 */
export class HubController implements ReactiveController {
  private bridge: HubBridge | null = null;

  constructor(
    host: ReactiveControllerHost,
    private readonly callbacks: HubCallbacks,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.bridge = connectHub(this.callbacks);
  }

  get framed(): boolean {
    return this.bridge?.framed ?? false;
  }

  pickTheme(mode: Mode, colorTheme: string): void {
    this.bridge?.pickTheme(mode, colorTheme);
  }

  /** True for a key press the hub binds: the app's own keys leave it alone. */
  forwards(e: KeyboardEvent): boolean {
    return this.bridge?.forwards(e) ?? false;
  }

  hubKeys(): HubKeyRow[] {
    return this.bridge?.hubKeys() ?? [];
  }
}
