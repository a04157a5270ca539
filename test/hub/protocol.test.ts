// The client SDK (test/hub/sdk: keys.js + client.js, as served at /vendor/claude-hub-sdk.js) against
// the conformance hub page, in Chromium, through the hub's second app "caller" (no dashboard process
// needed): handshake, themes, cached vars, sticky events, actions, keys, active state, closeGuard
// and a hub that speaks only v2.
/* eslint-disable @typescript-eslint/no-explicit-any */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { ROOT } from '../helpers/paths.ts';
import { appFrame, hubLog, reloadFrame } from './browser.ts';
import { CLIENT_BUNDLE, loadThemes, startHub, type RunningHub } from './conformance-hub.ts';

const THEMES = loadThemes();
const vars = (id: string, mode: 'light' | 'dark') => THEMES.find((t) => t.id === id)!.vars[mode];
const OTHER = THEMES[1]!.id; // a second built-in theme

let browser: Browser;

async function open(hub: RunningHub, ctx?: BrowserContext): Promise<{ ctx: BrowserContext; page: Page; frame: Frame }> {
  // The hub has no stored theme (first run): it follows the OS preference, here dark.
  const context = ctx ?? (await browser.newContext({ colorScheme: 'dark' }));
  const page = await context.newPage();
  await page.goto(hub.hubUrl);
  const frame = await appFrame(page, hub.callerUrl);
  return { ctx: context, page, frame };
}

const status = (frame: Frame) => frame.waitForFunction((s) => (window as any).caller?.status === s, 'live');
const inlineAccent = (frame: Frame) => frame.evaluate(() => document.body.style.getPropertyValue('--accent'));
const cached = (frame: Frame) => frame.evaluate(() => localStorage.getItem('claude-hub:vars'));

const test = suite('client SDK under the conformance hub');
let hub: RunningHub;

test.before(async () => {
  browser = await launchBrowser();
  hub = await startHub({ app: false, idleTabs: 2 });
});
test.after(async () => {
  await hub?.stop();
  await browser?.close();
});

test('handshake: hello after load, welcome, theme replay, then active', async () => {
  const { ctx, page, frame } = await open(hub);
  try {
    await status(frame);
    const received = await hubLog(page, 'received');
    assert.equal(received[0]!.msg, { type: 'hub:hello', protocol: [1], subscribes: ['theme.changed', 'project.changed', 'caller.note'] });
    const sent = (await hubLog(page, 'sent')).map((s) => s.msg.type + (s.msg.topic ? ` ${s.msg.topic}` : ''));
    assert.equal(sent, ['hub:welcome', 'hub:event theme.changed', 'hub:active']);
    // First run: the OS preference, no colour theme yet (the default theme's colours).
    const first = (await hubLog(page, 'sent'))[1]!.msg.payload as any;
    assert.equal([first.theme, first.colorTheme, first.vars], ['dark', undefined, vars('ember', 'dark')]);
    // SDK 1.4: welcome carries the hub's key labels, read with keyLabel().
    const welcome = (await hubLog(page, 'sent'))[0]!.msg as any;
    assert.equal(welcome.keys['hub.projectPicker'], ['Ctrl', 'Alt', 'P']);
    assert.equal(await frame.evaluate(() => (window as any).caller.keyLabel(['hub.prevApp', 'hub.nextApp'])), ['Ctrl', 'Alt', '←/→']);
    assert.equal(await frame.evaluate(() => (window as any).caller.keyLabel('hub.appByNumber')), ['Alt', '1…9']);
    assert.is(await frame.evaluate(() => (window as any).caller.keyLabel('hub.noSuchAction')), null);
    const seen = await frame.evaluate(() => (window as any).seen);
    assert.equal(seen.active, [true]);
    assert.equal(seen.status, ['waiting', 'live']);
    // Theme rule 7: the picker list, after the swatch rules are on the page.
    assert.is(seen.themes.length, THEMES.length);
    assert.equal(seen.themes[0], { id: 'ember', label: 'Ember' });
    const css = await frame.evaluate(() => document.querySelector('style[data-claude-hub]')?.textContent ?? '');
    assert.match(css, `.theme-swatch-ember { --sw-bg: ${THEMES[0]!.swatch.dark.bg};`);
    assert.match(css, `body.light .theme-swatch-ember { --sw-bg: ${THEMES[0]!.swatch.light.bg};`);
    // Rules 2 and 4: vars inline on <body> and cached.
    assert.is(await inlineAccent(frame), vars('ember', 'dark')['--accent']);
    assert.equal(JSON.parse((await cached(frame))!), vars('ember', 'dark'));
  } finally {
    await ctx.close();
  }
});

test('theme both ways: hub pick, app pick echoed to the sender, unknown id', async () => {
  const { ctx, page, frame } = await open(hub);
  try {
    await status(frame);
    await page.evaluate((id) => (window as any).hub.setTheme('light', id), OTHER);
    await frame.waitForFunction((a) => document.body.style.getPropertyValue('--accent') === a, vars(OTHER, 'light')['--accent']);
    assert.equal(await frame.evaluate(() => (window as any).mode), { theme: 'light', colorTheme: OTHER });
    // The app reports a pick; the hub stores it and echoes it with vars to every live app, the sender included.
    await frame.evaluate(() => {
      (window as any).mode = { theme: 'dark', colorTheme: 'ember' };
      (window as any).report();
    });
    await frame.waitForFunction((a) => document.body.style.getPropertyValue('--accent') === a, vars('ember', 'dark')['--accent']);
    const themeMsgs = (await hubLog(page, 'received')).filter((r) => r.msg.type === 'hub:theme');
    assert.equal(themeMsgs.map((r) => r.msg), [{ type: 'hub:theme', theme: 'dark', colorTheme: 'ember' }]);
    assert.equal((await page.evaluate(() => (window as any).hub.state())).theme, { theme: 'dark', colorTheme: 'ember' });
    // Report only on change: the same pick again sends nothing; the hub sends nothing for an unchanged theme.
    await frame.evaluate(() => (window as any).report());
    const themeEvents = (await hubLog(page, 'sent')).filter((s) => s.msg.topic === 'theme.changed').length;
    await frame.evaluate(() => window.parent.postMessage({ type: 'hub:theme', theme: 'dark', colorTheme: 'ember' }, '*'));
    await page.evaluate(() => (window as any).hub.setTheme('dark', 'ember'));
    await page.waitForFunction(() => (window as any).hub.log.received.filter((r: any) => r.msg.type === 'hub:theme').length === 2);
    assert.is((await hubLog(page, 'sent')).filter((s) => s.msg.topic === 'theme.changed').length, themeEvents);
    // An id the hub does not know: the hub falls back to its default and the app follows it.
    await frame.evaluate(() => {
      (window as any).mode = { theme: 'light', colorTheme: 'no-such-theme' };
      (window as any).report();
    });
    await frame.waitForFunction(() => (window as any).mode.colorTheme === 'ember' && (window as any).mode.theme === 'light');
    assert.is(await inlineAccent(frame), vars('ember', 'light')['--accent']);
    assert.is((await hubLog(page, 'received')).filter((r) => r.msg.type === 'hub:theme').length, 3);
  } finally {
    await ctx.close();
  }
});

test('a theme.changed with no vars removes the inline and cached set', async () => {
  const bare = await startHub({ app: false, registry: false });
  const { ctx, page, frame } = await open(bare);
  try {
    await frame.evaluate(() => localStorage.setItem('claude-hub:vars', JSON.stringify({ '--accent': '#123456' })));
    await reloadFrame(page, frame, () => frame.evaluate(() => location.reload()));
    await status(frame);
    await frame.waitForFunction(() => (window as any).mode.theme === 'dark');
    assert.is(await inlineAccent(frame), '');
    assert.is(await cached(frame), null);
  } finally {
    await ctx.close();
    await bare.stop();
  }
});

test('cached vars: applied framed before first paint and before /hub-config; never standalone', async () => {
  const ctx = await browser.newContext({ colorScheme: 'dark' });
  const accent = '#0badc0';
  try {
    // Standalone (top level) with a cached set: the cache is not applied.
    const top = await ctx.newPage();
    await top.goto(hub.callerUrl);
    await top.evaluate((a) => localStorage.setItem('claude-hub:vars', JSON.stringify({ '--accent': a })), accent);
    await top.reload();
    await top.waitForFunction(() => (window as any).caller.status === 'standalone');
    assert.is(await top.evaluate(() => document.body.style.getPropertyValue('--accent')), '');
    assert.is(await top.evaluate(() => (window as any).seen.status.join()), 'standalone');

    // Framed: when the first visible element of <body> is parsed (nothing can be painted before
    // it), the cached colour is already computed on <body>, while /hub-config is still held.
    const page = await ctx.newPage();
    await page.addInitScript(() => {
      if (window.top === window) return;
      new MutationObserver((records, observer) => {
        for (const r of records) {
          for (const n of r.addedNodes) {
            if (!(n instanceof HTMLElement) || n.tagName === 'SCRIPT' || n.parentNode !== document.body) continue;
            (window as any).firstContent = {
              accent: getComputedStyle(document.body).getPropertyValue('--accent').trim(),
              sdk: typeof (window as any).ClaudeHub,
            };
            return observer.disconnect();
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(`${hub.callerUrl}/hub-config`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(hub.hubUrl);
    const frame = await appFrame(page, hub.callerUrl);
    await frame.waitForFunction(() => (window as any).firstContent && (window as any).caller);
    assert.equal(await frame.evaluate(() => (window as any).firstContent), { accent, sdk: 'object' });
    assert.is(await frame.evaluate(() => (window as any).caller.status), 'connecting');
    release();
    await status(frame);
    assert.is(await inlineAccent(frame), vars('ember', 'dark')['--accent']);
  } finally {
    await ctx.close();
  }
});

test('sticky project: live change, replay on reload, a new pick; the hub never sends null', async () => {
  const { ctx, page, frame } = await open(hub);
  try {
    await status(frame);
    await page.evaluate(() => (window as any).hub.setProject('/work/demo-app'));
    const want = { project: '/work/demo-app', encoded: '-work-demo-app', name: 'demo-app' };
    await frame.waitForFunction(() => (window as any).seen.events.length === 1);
    assert.equal(await frame.evaluate(() => (window as any).seen.events), [{ topic: 'project.changed', p: want }]);
    await reloadFrame(page, frame, () => page.evaluate(() => (window as any).hub.reload('caller')));
    await frame.waitForFunction(() => (window as any).seen?.events.length === 1);
    assert.equal(await frame.evaluate(() => (window as any).seen.events), [{ topic: 'project.changed', p: want }]);
    await page.evaluate(() => (window as any).hub.setProject(null));
    await page.evaluate(() => (window as any).hub.setProject('/work/other'));
    await frame.waitForFunction(() => (window as any).seen.events.length === 2);
    assert.equal(await frame.evaluate(() => (window as any).seen.events[1].p), { project: '/work/other', encoded: '-work-other', name: 'other' });
  } finally {
    await ctx.close();
  }
});

test('actions: unhandled, bad-params, message mode, url mode without project replay, closeGuard', async () => {
  const { ctx, page, frame } = await open(hub);
  try {
    await page.evaluate(() => (window as any).hub.setProject('/work/demo-app'));
    await status(frame);
    const invoke = (action: string, params: unknown) => frame.evaluate(([a, p]) => (window as any).caller.invoke(a, p), [action, params] as const);
    assert.equal(await invoke('nope.view', {}), { ok: false, reason: 'unhandled' });
    assert.equal(await invoke('caller.echo', {}), { ok: false, reason: 'bad-params' });
    assert.equal(await invoke('caller.echo', { text: 1 }), { ok: false, reason: 'bad-params' });
    assert.equal(await invoke('caller.echo', { text: 'a', extra: 'b' }), { ok: false, reason: 'bad-params' });
    assert.equal(await invoke('caller.echo', { text: 'hi' }), { ok: true, handledBy: 'caller' });
    await frame.waitForFunction(() => (window as any).seen.actions.length === 1);
    assert.equal(await frame.evaluate(() => (window as any).seen.actions[0].params), { text: 'hi' });
    // The handler gets the caller's id, not one the hub made up.
    const invokeId = (await hubLog(page, 'received')).filter((r) => r.msg.type === 'hub:invoke').at(-1)!.msg.id;
    assert.is(await frame.evaluate(() => (window as any).seen.actions[0].meta.id), invokeId);
    // An invoke with no params: the hub takes them as {} (caller.open's only param is optional).
    await frame.evaluate(() => window.parent.postMessage({ type: 'hub:invoke', id: 'raw-1', action: 'caller.open' }, '*'));
    await page.waitForFunction(() => (window as any).hub.log.sent.some((s: any) => s.msg.type === 'hub:result' && s.msg.id === 'raw-1'));
    const raw = (await hubLog(page, 'sent')).find((s) => s.msg.id === 'raw-1')!.msg;
    assert.equal(raw, { type: 'hub:result', id: 'raw-1', ok: true, handledBy: 'caller' });
    assert.is(await page.evaluate(() => (window as any).hub.frameUrl('caller')), `${hub.callerUrl}/`);
    assert.ok(await frame.evaluate(() => (window as any).caller.can('caller.echo')));
    assert.not.ok(await frame.evaluate(() => (window as any).caller.can('nope.view')));

    // closeGuard on: a url-mode action only switches tabs.
    await frame.evaluate(() => (window as any).caller.closeGuard(true));
    await page.waitForFunction(() => (window as any).hub.state().guards.caller === true);
    assert.equal(await invoke('caller.open', { what: 'x' }), { ok: true, handledBy: 'caller' });
    assert.is(await page.evaluate(() => (window as any).hub.frameUrl('caller')), `${hub.callerUrl}/`);
    await frame.evaluate(() => (window as any).caller.closeGuard(false));
    await page.waitForFunction(() => (window as any).hub.state().guards.caller === false);
    // A missing template param: only a tab switch.
    assert.equal(await invoke('caller.open', {}), { ok: true, handledBy: 'caller' });
    assert.is(await page.evaluate(() => (window as any).hub.frameUrl('caller')), `${hub.callerUrl}/`);

    // url mode: the hub loads the filled URL; that document gets no project replay.
    const docs = await page.evaluate(() => (window as any).hub.state().docs.caller);
    assert.equal(await invoke('caller.open', { what: 'a b/c' }), { ok: true, handledBy: 'caller' });
    await page.waitForFunction((d) => (window as any).hub.state().docs.caller > d && (window as any).hub.state().live.caller, docs);
    await status(frame);
    assert.is(frame.url(), `${hub.callerUrl}/?open=a%20b%2Fc`);
    const toNewDoc = (await hubLog(page, 'sent')).filter((s) => s.to === 'caller' && s.doc === docs + 1).map((s) => s.msg.type + (s.msg.topic ? ` ${s.msg.topic}` : ''));
    assert.equal(toNewDoc, ['hub:welcome', 'hub:event theme.changed', 'hub:active']);
    // Later changes still reach it.
    await page.evaluate(() => (window as any).hub.setProject('/work/other'));
    await frame.waitForFunction(() => (window as any).seen.events.length === 1);
  } finally {
    await ctx.close();
  }
});

test('keys: bound combos go to the hub with preventDefault, others stay in the app; hub:active', async () => {
  const { ctx, page, frame } = await open(hub);
  try {
    await status(frame);
    await frame.evaluate(() => {
      (window as any).pressed = [];
      document.addEventListener('keydown', (e) => {
        if (!['Control', 'Alt', 'Shift', 'Meta'].includes(e.key)) (window as any).pressed.push([e.key, e.defaultPrevented]);
      });
    });
    await frame.locator('body').click();
    await page.keyboard.press('t');
    await page.keyboard.press('Control+Alt+p');
    await page.waitForFunction(() => (window as any).hub.state().paletteOpen);
    await frame.locator('body').click(); // the palette took the focus
    await page.keyboard.press('Alt+3');
    await page.waitForFunction(() => (window as any).hub.state().onScreen === 'idle-2');
    assert.equal(await page.evaluate(() => (window as any).hub.log.keys), ['ctrl+alt+p', 'alt+3']);
    // A hidden tab keeps its layout (its charts keep their size) and takes no input.
    const hidden = await page.$eval('iframe[data-app="caller"]', (f) => {
      const cs = getComputedStyle(f);
      return [cs.visibility, cs.pointerEvents, f.getBoundingClientRect().width > 0];
    });
    assert.equal(hidden, ['hidden', 'none', true]);
    assert.ok(await page.evaluate(() => (window as any).hub.state().paletteOpen));
    assert.equal(await frame.evaluate(() => (window as any).pressed), [
      ['t', false],
      ['p', true],
      ['3', true],
    ]);
    const keydowns = (await hubLog(page, 'received')).filter((r) => r.msg.type === 'hub:keydown').map((r) => r.msg);
    assert.equal(keydowns, [
      { type: 'hub:keydown', key: 'p', code: 'KeyP', ctrl: true, alt: true, shift: false, meta: false },
      { type: 'hub:keydown', key: '3', code: 'Digit3', ctrl: false, alt: true, shift: false, meta: false },
    ]);
    await frame.waitForFunction(() => (window as any).seen.active.join() === 'true,false');
    await page.evaluate(() => (window as any).hub.switchTo('caller'));
    await frame.waitForFunction(() => (window as any).seen.active.join() === 'true,false,true');
  } finally {
    await ctx.close();
  }
});

test('publish, openExternal; a message from a stranger is dropped', async () => {
  const { ctx, page, frame } = await open(hub);
  try {
    await status(frame);
    await frame.evaluate(() => {
      (window as any).caller.publish('caller.note', { n: 1 });
      (window as any).caller.publish('not.declared', { n: 2 });
      (window as any).caller.openExternal('https://example.com/x');
    });
    await page.waitForFunction(() => (window as any).hub.log.external.length === 1);
    const dropped = await hubLog(page, 'dropped');
    assert.ok(dropped.some((d) => (d as any).why === 'undeclared topic'));
    assert.ok((await page.evaluate(() => (window as any).hub.log.events)).some((e: any) => e.topic === 'caller.note'));
    // The page itself (not an app iframe) posting to the hub window is dropped.
    await page.evaluate(() => window.postMessage({ type: 'hub:hello', protocol: [1] }, '*'));
    await page.waitForFunction(() => (window as any).hub.log.dropped.some((d: any) => d.why === 'unknown sender'));
  } finally {
    await ctx.close();
  }
});

test('a hub that speaks only protocol 2: no welcome, status unanswered, cache removed, calls unhandled', async () => {
  const v2 = await startHub({ app: false, protocols: [2] });
  const ctx = await browser.newContext();
  try {
    const top = await ctx.newPage();
    await top.goto(v2.callerUrl);
    await top.evaluate(() => localStorage.setItem('claude-hub:vars', JSON.stringify({ '--accent': '#0badc0' })));
    await top.close();
    const { page, frame } = await open(v2, ctx);
    await frame.waitForFunction(() => (window as any).caller?.status === 'waiting');
    // A call made while waiting waits for the 2 s end, then resolves unhandled.
    const pending = frame.evaluate(() => (window as any).caller.invoke('caller.echo', { text: 'x' }));
    assert.is(await inlineAccent(frame), '#0badc0');
    assert.equal(await pending, { ok: false, reason: 'unhandled' });
    assert.is(await frame.evaluate(() => (window as any).caller.status), 'unanswered');
    assert.is(await inlineAccent(frame), '');
    assert.is(await cached(frame), null);
    assert.not.ok(await frame.evaluate(() => (window as any).caller.can('caller.echo')));
    assert.equal((await hubLog(page, 'sent')).length, 0);
    assert.equal((await hubLog(page, 'received')).map((r) => r.msg.type), ['hub:hello']);
    // Keys stay in the app: with no welcome nothing is forwarded.
    await frame.locator('body').click();
    await page.keyboard.press('Control+Alt+p');
    await page.waitForTimeout(100);
    assert.equal((await hubLog(page, 'received')).map((r) => r.msg.type), ['hub:hello']);
    // A document that is not live still counts for the hub (the public page drops nothing by liveness).
    await frame.evaluate(() => (window as any).caller.closeGuard(true));
    await page.waitForFunction(() => (window as any).hub.state().guards.caller === true);
  } finally {
    await ctx.close();
    await v2.stop();
  }
});

test('the client SDK and the stub expose the same functions', async () => {
  const ctx = await browser.newContext();
  try {
    const page = await ctx.newPage();
    const names = async (content: string) => {
      await page.setContent('<body></body>');
      await page.addScriptTag({ content });
      return page.evaluate(() => {
        const hubObj = ((window as any).AgentHub ?? (window as any).ClaudeHub).connect();
        return Object.keys(hubObj).filter((k) => typeof hubObj[k] === 'function').sort();
      });
    };
    const stub = await names(fs.readFileSync(path.join(ROOT, 'ui/vendor/agent-hub-sdk.js'), 'utf8'));
    assert.equal(stub, await names(CLIENT_BUNDLE));
    for (const fn of ['subscribe', 'publish', 'bindTheme', 'onThemes', 'onActive', 'onStatus', 'handle', 'invoke', 'can', 'forwards', 'keyLabel', 'closeGuard', 'openExternal', 'terminalToken']) {
      assert.ok(stub.includes(fn), fn);
    }
  } finally {
    await ctx.close();
  }
});

test.run();
