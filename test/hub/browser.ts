// The conformance hub's page as a test sees it in Chromium: an app's iframe, its reloads, the hub's message log.
import type { Frame, Page } from 'playwright-core';

/** The iframe of the app at `origin` inside the hub page (stays the same Frame across its reloads). */
export async function appFrame(page: Page, origin: string): Promise<Frame> {
  for (let i = 0; i < 100; i++) {
    const f = page.frames().find((fr) => fr.url().startsWith(origin));
    if (f) return f;
    await page.waitForTimeout(50);
  }
  throw new Error(`no frame from ${origin}`);
}

/**
 * Runs `trigger` (something that reloads the app's frame) and resolves once the frame holds the new document, so
 * what the test waits for next cannot be satisfied by the old one while it is being torn down.
 */
export async function reloadFrame(page: Page, frame: Frame, trigger: () => Promise<unknown>): Promise<void> {
  const navigated = page.waitForEvent('framenavigated', (f) => f === frame);
  await trigger();
  await navigated;
  await frame.waitForLoadState('domcontentloaded');
}

/** Messages the hub page logged (received from or sent to apps). */
export function hubLog(page: Page, kind: 'received' | 'sent' | 'dropped'): Promise<{ from?: string; to?: string; doc: number; msg: { type: string; [k: string]: unknown } }[]> {
  return page.evaluate((k) => (window as unknown as { hub: { log: Record<string, unknown[]> } }).hub.log[k], kind) as never;
}
