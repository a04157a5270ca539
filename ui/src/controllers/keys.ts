import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { commandFor } from '../keys.ts';
import type { Command } from '../keys.ts';

/** An open dialog or popover owns the keyboard (Escape closes it natively). */
function overlayOpen(): boolean {
  if (document.querySelector('dialog[open]')) return true;
  try {
    return document.querySelector(':popover-open') !== null;
  } catch {
    return false;
  }
}

/** The shell's shortcuts (keys.ts) on the window, while the host is connected; the host runs the commands. */
export class KeysController implements ReactiveController {
  constructor(
    host: ReactiveControllerHost,
    private readonly opts: { forwards: (e: KeyboardEvent) => boolean; run: (cmd: Command) => void },
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('keydown', this.onKeyDown);
  }

  hostDisconnected(): void {
    window.removeEventListener('keydown', this.onKeyDown);
  }

  private onKeyDown = (e: KeyboardEvent): void => {
    if (e.defaultPrevented || this.opts.forwards(e)) return;
    const cmd = commandFor(e);
    if (!cmd) return;
    // While an overlay is open only the usage combo still works.
    if (overlayOpen() && cmd !== 'usage') return;
    e.preventDefault();
    this.opts.run(cmd);
  };
}
