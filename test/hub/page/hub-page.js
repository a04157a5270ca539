// The conformance hub's page: one iframe per app, and the hub side of hub protocol v1 (message
// rules, handshake, sticky events, themes, actions, keys, hub:active, closeGuard), behaving as the
// public hub's page does where the two differ. Tests drive it through window.hub; `npm run dev:hub`
// through the pickers in the top bar.
(() => {
  'use strict';

  const cfg = JSON.parse(document.getElementById('hub-config').textContent);
  const HUB_TOPICS = new Set(['project.changed', 'theme.changed']);
  const TOPIC_RE = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/;
  const MAX_PAYLOAD = 16 * 1024;
  const themesById = new Map(cfg.themes.map((t) => [t.id, t]));

  const log = { received: [], sent: [], dropped: [], keys: [], external: [], events: [] };
  const sticky = new Map();
  let onScreen = 0;
  let paletteOpen = false;
  let hubCalls = 0;
  // First run (nothing stored): the OS preference, and no colour theme until one is picked.
  const osTheme = () => (window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark');
  let theme = cfg.theme || { theme: osTheme(), colorTheme: undefined };

  const tabsEl = document.getElementById('tabs');
  const framesEl = document.getElementById('frames');

  /** Skips an action declaration the way the spec says (hub.* names, url with '#'). */
  function validActions(id, handles) {
    const out = {};
    for (const [name, decl] of Object.entries(handles || {})) {
      if (name.startsWith('hub.') || (decl.url || '').includes('#')) {
        console.warn(`hub: skipping action ${name} of ${id}`);
        continue;
      }
      out[name] = { params: decl.params || {}, url: decl.url || '', mode: decl.mode === 'message' ? 'message' : 'url' };
    }
    return out;
  }

  const tabs = cfg.apps.map((a) => ({
    id: a.id,
    name: a.name,
    src: a.src,
    origin: new URL(a.src).origin,
    actions: validActions(a.id, a.actions),
    publishes: new Set(a.publishes),
    frame: null,
    loaded: false,
    doc: 0,
    live: false,
    helloSeen: false,
    subscribes: new Set(),
    guard: false,
    fromAction: false,
    pendingAction: false,
    missed: new Map(),
  }));
  for (let i = 0; i < cfg.idleTabs; i++) tabs.push({ id: `idle-${i + 1}`, name: `Idle ${i + 1}`, idle: true, live: false });

  const appTabs = () => tabs.filter((t) => !t.idle);
  const actionNames = () => [...new Set(appTabs().flatMap((t) => Object.keys(t.actions)))].sort();

  function post(tab, msg) {
    // Before its first load the iframe's window is still on the hub's origin: nothing is posted.
    if (!tab.loaded || !tab.frame.contentWindow) return;
    log.sent.push({ to: tab.id, doc: tab.doc, msg });
    tab.frame.contentWindow.postMessage(msg, tab.origin);
  }

  function themePayload() {
    const t = themesById.get(theme.colorTheme || 'ember');
    const p = { theme: theme.theme, colorTheme: theme.colorTheme };
    if (cfg.registry && t) p.vars = { ...t.vars[theme.theme] };
    return p;
  }
  sticky.set('theme.changed', themePayload());

  /** Event rule 2: only to live apps that subscribe; app topics only to the app on screen. */
  function broadcast(topic, payload, except) {
    sticky.set(topic, payload);
    log.events.push({ topic, payload });
    for (const tab of appTabs()) {
      if (tab === except || !tab.live || !tab.subscribes.has(topic)) continue;
      if (HUB_TOPICS.has(topic) || tabs[onScreen] === tab) post(tab, { type: 'hub:event', topic, payload });
      else tab.missed.set(topic, payload);
    }
  }

  function switchTo(index) {
    if (index < 0 || index >= tabs.length || index === onScreen) return;
    const prev = tabs[onScreen];
    onScreen = index;
    render();
    if (prev.live) post(prev, { type: 'hub:active', active: false });
    const next = tabs[onScreen];
    if (!next.live) return;
    for (const [topic, payload] of next.missed) post(next, { type: 'hub:event', topic, payload });
    next.missed.clear();
    post(next, { type: 'hub:active', active: true });
  }

  function onHello(tab, m) {
    if (tab.helloSeen) return;
    tab.helloSeen = true;
    const theirs = Array.isArray(m.protocol) ? m.protocol.filter(Number.isInteger) : [];
    const common = cfg.protocols.filter((v) => theirs.includes(v));
    if (!common.length) return; // no common version: no answer
    tab.live = true;
    tab.subscribes = new Set(Array.isArray(m.subscribes) ? m.subscribes.filter((s) => typeof s === 'string') : []);
    post(tab, {
      type: 'hub:welcome',
      protocol: Math.max(...common),
      forward: cfg.forward,
      keys: cfg.keyLabels,
      themes: cfg.themes.map((t) => ({ id: t.id, label: t.label, swatch: t.swatch })),
      actions: actionNames(),
    });
    const visible = tabs[onScreen] === tab;
    for (const topic of tab.subscribes) {
      if (!sticky.has(topic)) continue;
      if (topic === 'project.changed' && tab.fromAction) continue; // event rule 5: the link keeps its project
      if (!HUB_TOPICS.has(topic) && !visible) {
        tab.missed.set(topic, sticky.get(topic));
        continue;
      }
      post(tab, { type: 'hub:event', topic, payload: sticky.get(topic) });
    }
    post(tab, { type: 'hub:active', active: visible });
  }

  function checkParams(decl, params) {
    if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
    for (const [k, v] of Object.entries(params)) if (!(k in decl.params) || typeof v !== 'string') return false;
    return Object.entries(decl.params).every(([k, type]) => type !== 'string' || k in params);
  }

  /** Actions rules 3-7, for a call with the caller's id and params ({} when it sent none). Returns the hub:result payload (without type and id). */
  function dispatch(id, action, params = {}) {
    const handler = appTabs().find((t) => t.actions[action]);
    if (!handler) return { ok: false, reason: 'unhandled' };
    const decl = handler.actions[action];
    if (!checkParams(decl, params)) return { ok: false, reason: 'bad-params' };
    switchTo(tabs.indexOf(handler));
    if (decl.mode === 'message' && handler.live) {
      post(handler, { type: 'hub:action', id, action, params });
      return { ok: true, handledBy: handler.id };
    }
    const names = [...decl.url.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]);
    if (handler.guard || !names.every((n) => typeof params[n] === 'string')) return { ok: true, handledBy: handler.id };
    const filled = decl.url.replace(/\{([^}]+)\}/g, (_, n) => encodeURIComponent(params[n]));
    const first = new URL(handler.src);
    const target = new URL(filled, first);
    if (target.origin !== handler.origin) return { ok: true, handledBy: handler.id }; // refused: not on its origin
    target.hash = first.hash;
    handler.pendingAction = true;
    handler.frame.src = target.href;
    return { ok: true, handledBy: handler.id };
  }

  // Keys rule 2 (keys.js, shared with the SDK), applied to a hub:keydown payload or a key event.
  const comboOf = ClaudeHubKeys.comboOf;

  /** Runs the hub action the user's keymap binds to `combo`. */
  function runKey(combo) {
    log.keys.push(combo);
    const action = cfg.bindings[combo] || '';
    const n = /^hub\.appByNumber:([1-9])$/.exec(action);
    if (n) return switchTo(Number(n[1]) - 1);
    if (action === 'hub.prevApp') return switchTo((onScreen + tabs.length - 1) % tabs.length);
    if (action === 'hub.nextApp') return switchTo((onScreen + 1) % tabs.length);
    if (action === 'hub.projectPicker') {
      paletteOpen = true;
      document.getElementById('project-picker')?.focus();
    }
  }

  /** A pick from an app or the hub's own picker; nothing is sent when nothing changed. */
  function setTheme(mode, colorTheme) {
    if (mode !== 'light' && mode !== 'dark') return;
    // An id the hub does not know falls back to its default theme; none keeps the current one.
    const id = colorTheme === undefined ? theme.colorTheme : typeof colorTheme === 'string' && themesById.has(colorTheme) ? colorTheme : 'ember';
    if (mode === theme.theme && id === theme.colorTheme) return;
    theme = { theme: mode, colorTheme: id };
    broadcast('theme.changed', themePayload());
    render();
  }

  /** The user picks a project (a path, or a palette entry). The hub never sends null: once set, a project stays set. */
  function setProject(p) {
    let payload = null;
    if (typeof p === 'string') {
      const known = cfg.projects.find((x) => x.project === p);
      payload = known ? { ...known } : { project: p, encoded: p.replace(/[^A-Za-z0-9]/g, '-'), name: p.split('/').filter(Boolean).pop() || p };
    } else if (p && typeof p === 'object') payload = { project: p.project, encoded: p.encoded, name: p.name };
    if (!payload) return drop(null, p, 'no project');
    broadcast('project.changed', payload);
  }

  function onPublish(tab, m) {
    const { topic, payload } = m;
    if (typeof topic !== 'string' || !TOPIC_RE.test(topic) || !tab.publishes.has(topic)) return drop(tab, m, 'undeclared topic');
    if (payload !== null && (typeof payload !== 'object' || Array.isArray(payload))) return drop(tab, m, 'payload not an object');
    if (JSON.stringify(payload).length > MAX_PAYLOAD) return drop(tab, m, 'payload too big');
    let out = payload;
    if (payload && typeof payload.project === 'string') {
      out = { ...payload, encoded: payload.project.replace(/[^A-Za-z0-9]/g, '-'), projectName: payload.project.split('/').filter(Boolean).pop() || '' };
    }
    broadcast(topic, out, tab);
  }

  function drop(tab, msg, why) {
    log.dropped.push({ from: tab ? tab.id : null, msg, why });
  }

  window.addEventListener('message', (e) => {
    // Hub rule 1: the sender is the iframe whose window sent it, at that app's origin.
    const tab = appTabs().find((t) => t.frame && t.frame.contentWindow === e.source);
    if (!tab || e.origin !== tab.origin) return drop(null, e.data, 'unknown sender');
    const m = e.data;
    if (!m || typeof m !== 'object' || typeof m.type !== 'string') return drop(tab, m, 'not a message');
    log.received.push({ from: tab.id, doc: tab.doc, msg: m });
    // Like the public hub, a message from an app iframe counts whether or not that document said hello.
    switch (m.type) {
      case 'hub:hello':
        return onHello(tab, m);
      case 'hub:theme':
        return setTheme(m.theme, typeof m.colorTheme === 'string' ? m.colorTheme : undefined);
      case 'hub:invoke':
        if (typeof m.id !== 'string' || typeof m.action !== 'string') return drop(tab, m, 'bad invoke');
        return post(tab, { type: 'hub:result', id: m.id, ...dispatch(m.id, m.action, m.params) });
      case 'hub:publish':
        return onPublish(tab, m);
      case 'hub:keydown': {
        const combo = comboOf(m);
        if (!cfg.forward.includes(combo)) return drop(tab, m, 'unbound combo');
        return runKey(combo);
      }
      case 'hub:closeGuard':
        tab.guard = m.on === true;
        return;
      case 'hub:openExternal':
        if (typeof m.url !== 'string' || !/^https?:\/\//i.test(m.url)) return drop(tab, m, 'bad url');
        log.external.push(m.url);
        return;
      case 'hub:terminalToken':
        return drop(tab, m, 'not the terminal provider');
    }
  });

  window.addEventListener('beforeunload', (e) => {
    if (appTabs().some((t) => t.guard)) e.preventDefault();
  });

  // The hub page's own keys (focus outside the iframes).
  document.addEventListener('keydown', (e) => {
    const combo = comboOf({ key: e.key, code: e.code, ctrl: e.ctrlKey, alt: e.altKey, shift: e.shiftKey, meta: e.metaKey });
    if (cfg.forward.includes(combo)) {
      e.preventDefault();
      runKey(combo);
    }
  });

  function mountFrames() {
    for (const tab of tabs) {
      if (tab.idle) {
        tab.el = Object.assign(document.createElement('div'), { className: 'idle', textContent: tab.name });
        framesEl.append(tab.el);
        continue;
      }
      const frame = document.createElement('iframe');
      frame.title = tab.name;
      frame.dataset.app = tab.id;
      // Each load is a new document: it is not live until it says hello, and its guard is off.
      frame.addEventListener('load', () => {
        tab.loaded = true;
        tab.doc++;
        tab.live = false;
        tab.helloSeen = false;
        tab.guard = false;
        tab.missed.clear();
        tab.fromAction = tab.pendingAction;
        tab.pendingAction = false;
      });
      frame.src = tab.src;
      tab.frame = frame;
      tab.el = frame;
      framesEl.append(frame);
    }
  }

  function render() {
    tabsEl.textContent = '';
    tabs.forEach((tab, i) => {
      const b = document.createElement('button');
      b.textContent = `${i + 1}. ${tab.name}`;
      b.setAttribute('aria-selected', String(i === onScreen));
      b.addEventListener('click', () => switchTo(i));
      tabsEl.append(b);
      tab.el.classList.toggle('hidden', i !== onScreen);
    });
    tabsEl.append(Object.assign(document.createElement('span'), { className: 'spacer' }));

    const project = document.createElement('select');
    project.id = 'project-picker';
    const cur = sticky.get('project.changed');
    // A placeholder until the first pick; there is no way back to "no project".
    if (!cur) project.append(Object.assign(new Option('(pick a project)', ''), { disabled: true }));
    for (const p of cfg.projects) project.append(new Option(p.name, p.encoded));
    project.value = cur ? cur.encoded : '';
    project.addEventListener('change', () => setProject(cfg.projects.find((p) => p.encoded === project.value)));

    const color = document.createElement('select');
    color.id = 'theme-picker';
    for (const t of cfg.themes) color.append(new Option(t.label, t.id));
    color.value = theme.colorTheme || 'ember';
    color.addEventListener('change', () => setTheme(theme.theme, color.value));

    const mode = document.createElement('button');
    mode.id = 'mode-toggle';
    mode.textContent = theme.theme === 'dark' ? 'Dark' : 'Light';
    mode.addEventListener('click', () => setTheme(theme.theme === 'dark' ? 'light' : 'dark', theme.colorTheme));
    tabsEl.append(project, color, mode);
  }

  mountFrames();
  render();

  window.hub = {
    log,
    setTheme,
    setProject,
    switchTo: (id) => switchTo(tabs.findIndex((t) => t.id === id)),
    invoke: (action, params) => dispatch(`hub-${++hubCalls}`, action, params),
    reload(id) {
      const tab = tabs.find((t) => t.id === id);
      tab.frame.src = tab.src;
    },
    frameUrl: (id) => tabs.find((t) => t.id === id).frame.src,
    state: () => ({
      onScreen: tabs[onScreen].id,
      paletteOpen,
      theme: { ...theme },
      live: Object.fromEntries(appTabs().map((t) => [t.id, t.live])),
      docs: Object.fromEntries(appTabs().map((t) => [t.id, t.doc])),
      guards: Object.fromEntries(appTabs().map((t) => [t.id, t.guard])),
      subscribes: Object.fromEntries(appTabs().map((t) => [t.id, [...t.subscribes]])),
      actions: actionNames(),
    }),
  };
})();
