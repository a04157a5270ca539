// Conformance hub SDK client: the app side of hub protocol v1, named as the public hub names it
// (global ClaudeHub, cached vars under claude-hub:vars) and with its SDK 1.4 additions (the hub's key
// labels from welcome.keys, read with keyLabel()). Our own implementation from the spec; server.cjs
// serves it after keys.js at /vendor/claude-hub-sdk.js. The app ships only the stub (ui/vendor).
// A classic script, the first element in <body> with no defer or async: the cached theme vars are
// on <body> before the first paint (theme rule 4).
(function (win) {
  'use strict';

  var VARS_KEY = 'claude-hub:vars';
  var PROTOCOLS = [1];
  var WELCOME_WAIT_MS = 2000;
  var TOKEN_WAIT_MS = 3000;

  var doc = win.document;
  var framed = win.top !== win;
  var appliedVars = null;

  function isVars(v) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
    return Object.keys(v).every(function (k) {
      return k.indexOf('--') === 0 && typeof v[k] === 'string';
    });
  }

  function sameVars(a, b) {
    if (!a || !b) return a === b;
    var ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every(function (k) {
      return a[k] === b[k];
    });
  }

  /** Writes `vars` inline on <body> (null removes them). Rule 3: nothing happens when they are the set applied. */
  function setVars(vars) {
    if (!doc.body || sameVars(vars, appliedVars)) return false;
    var style = doc.body.style;
    Object.keys(appliedVars || {}).forEach(function (k) {
      if (!vars || !(k in vars)) style.removeProperty(k);
    });
    Object.keys(vars || {}).forEach(function (k) {
      style.setProperty(k, vars[k]);
    });
    appliedVars = vars;
    return true;
  }

  function storeVars(vars) {
    try {
      if (vars) win.localStorage.setItem(VARS_KEY, JSON.stringify(vars));
      else win.localStorage.removeItem(VARS_KEY);
    } catch (_) {
      /* storage blocked: the page still themes, only the next first paint misses the cache */
    }
  }

  function cachedVars() {
    try {
      var v = JSON.parse(win.localStorage.getItem(VARS_KEY));
      return isVars(v) ? v : null;
    } catch (_) {
      return null;
    }
  }

  // Rule 4: framed, the cached set goes on the page synchronously; standalone it never does.
  if (framed) setVars(cachedVars());

  var comboOf = ClaudeHubKeys.comboOf;

  var hub = null;

  function connect() {
    if (hub) return hub;

    var status = 'connecting';
    var origin = null;
    var welcome = null;
    var topics = new Map();
    var activeFns = [];
    var statusFns = [];
    var themesFns = [];
    var handlers = new Map();
    var pending = new Map();
    var queued = [];
    var outbox = new Map();
    var tokenWaiters = [];
    var binding = null;
    var lastTheme = null;
    var swatches = false;
    var nextId = 0;

    var waiting = function () {
      return status === 'connecting' || status === 'waiting';
    };

    function post(msg) {
      if (origin) win.parent.postMessage(msg, origin);
    }

    function setStatus(next) {
      if (status === next) return;
      status = next;
      statusFns.slice().forEach(function (fn) {
        fn(next);
      });
      if (waiting()) return;
      queued.splice(0).forEach(function (run) {
        run();
      });
      if (status === 'live') outbox.forEach(function (payload, topic) {
        post({ type: 'hub:publish', topic: topic, payload: payload });
      });
      outbox.clear();
    }

    function emit(topic, payload) {
      (topics.get(topic) || []).slice().forEach(function (fn) {
        fn(payload);
      });
    }

    function topicFns(topic) {
      if (!topics.has(topic)) topics.set(topic, []);
      return topics.get(topic);
    }

    function modeKey(t) {
      return t.theme + '|' + t.colorTheme;
    }

    /** Rules 2 and 5: vars go inline and into the cache; a payload with none removes both. */
    function onTheme(p) {
      if (!p || typeof p !== 'object' || (p.theme !== 'light' && p.theme !== 'dark')) return;
      if (isVars(p.vars)) {
        setVars(p.vars);
        storeVars(p.vars);
      } else {
        setVars(null);
        storeVars(null);
      }
      lastTheme = p;
      applyMode(p);
      emit('theme.changed', p);
    }

    function applyMode(p) {
      if (!binding) return;
      var cur = binding.get();
      var next = { theme: p.theme, colorTheme: typeof p.colorTheme === 'string' ? p.colorTheme : cur.colorTheme };
      if (modeKey(cur) !== modeKey(next)) binding.set(next);
      binding.last = modeKey(next);
    }

    /** Rule 7: swatch rules for every hub theme, added once, then the picker list. */
    function pickerThemes() {
      if (!swatches) {
        swatches = true;
        var decl = function (s) {
          return ['bg', 'accent', 'ink', 'border']
            .filter(function (k) {
              return s && typeof s[k] === 'string';
            })
            .map(function (k) {
              return '--sw-' + k + ': ' + s[k] + ';';
            })
            .join(' ');
        };
        var css = welcome.themes
          .map(function (t) {
            var sw = t.swatch || {};
            return '.theme-swatch-' + t.id + ' { ' + decl(sw.dark) + ' }\nbody.light .theme-swatch-' + t.id + ' { ' + decl(sw.light) + ' }';
          })
          .join('\n');
        var style = doc.createElement('style');
        style.setAttribute('data-claude-hub', 'swatches');
        style.textContent = css;
        doc.head.appendChild(style);
      }
      return welcome.themes.map(function (t) {
        return { id: t.id, label: t.label };
      });
    }

    /** welcome.keys: hub action id -> the keys the hub shows for it ([] when no key runs it). */
    function keyLabels(keys) {
      var out = new Map();
      if (!keys || typeof keys !== 'object' || Array.isArray(keys)) return out;
      Object.keys(keys).forEach(function (id) {
        var parts = keys[id];
        if (Array.isArray(parts) && parts.every(function (k) { return typeof k === 'string'; })) out.set(id, parts.slice());
      });
      return out;
    }

    /**
     * The keys of one hub action, or of several shown on one row (['hub.prevApp', 'hub.nextApp'] ->
     * ['Ctrl', 'Alt', '←/→'] when they share their modifiers); [] when no key runs them; null when
     * the hub did not report them.
     */
    function keyLabel(action) {
      if (!welcome) return null;
      var labels = [].concat(action).map(function (a) {
        return welcome.keys.has(a) ? welcome.keys.get(a) : null;
      });
      if (!labels.length || labels.some(function (l) { return l === null; })) return null;
      var bound = labels.filter(function (l) { return l.length > 0; });
      if (!bound.length) return [];
      var mods = bound[0].slice(0, -1).join('+');
      var same = bound.every(function (l) { return l.slice(0, -1).join('+') === mods; });
      if (!same) return bound[0].slice();
      return bound[0].slice(0, -1).concat([bound.map(function (l) { return l[l.length - 1]; }).join('/')]);
    }

    function onWelcome(m) {
      if (welcome || PROTOCOLS.indexOf(m.protocol) < 0) return;
      var strings = function (list) {
        return Array.isArray(list)
          ? list.filter(function (s) {
              return typeof s === 'string';
            })
          : [];
      };
      welcome = {
        forward: new Set(strings(m.forward)),
        actions: new Set(strings(m.actions)),
        keys: keyLabels(m.keys),
        themes: Array.isArray(m.themes)
          ? m.themes.filter(function (t) {
              return t && typeof t.id === 'string' && /^[A-Za-z0-9_-]+$/.test(t.id) && typeof t.label === 'string';
            })
          : [],
      };
      setStatus('live');
      if (welcome.themes.length) {
        var list = pickerThemes();
        themesFns.splice(0).forEach(function (fn) {
          fn(list);
        });
      }
    }

    function onMessage(e) {
      // Message rules 1 and 2: nothing before /hub-config says enabled, then only the parent at the hub origin.
      if (!origin || e.source !== win.parent || e.origin !== origin) return;
      var m = e.data;
      if (!m || typeof m !== 'object' || typeof m.type !== 'string') return;
      switch (m.type) {
        case 'hub:welcome':
          return onWelcome(m);
        case 'hub:event':
          if (!welcome || typeof m.topic !== 'string') return;
          if (m.topic === 'theme.changed') return onTheme(m.payload);
          return emit(m.topic, m.payload === undefined ? null : m.payload);
        case 'hub:active':
          if (!welcome) return;
          activeFns.slice().forEach(function (fn) {
            fn(!!m.active);
          });
          return;
        case 'hub:action': {
          if (!welcome || typeof m.action !== 'string') return;
          var fn = handlers.get(m.action);
          if (fn) fn(m.params && typeof m.params === 'object' ? m.params : {}, { id: m.id });
          else console.warn('[claude-hub] no handler for action ' + m.action);
          return;
        }
        case 'hub:result': {
          var done = pending.get(m.id);
          if (!done) return;
          pending.delete(m.id);
          return done(m.ok === true ? { ok: true, handledBy: m.handledBy } : { ok: false, reason: m.reason });
        }
        case 'hub:terminalToken':
          tokenWaiters.splice(0).forEach(function (w) {
            w(typeof m.token === 'string' ? m.token : null);
          });
          return;
      }
    }

    function forwards(e) {
      return !!welcome && welcome.forward.has(comboOf(e));
    }

    // Capture phase on the window: the app's own key handlers run later and cannot swallow a hub combo.
    function onKeydown(e) {
      if (!forwards(e)) return;
      e.preventDefault();
      post({ type: 'hub:keydown', key: e.key, code: e.code, ctrl: e.ctrlKey, alt: e.altKey, shift: e.shiftKey, meta: e.metaKey });
    }

    function run(action, params, resolve) {
      if (status !== 'live') return resolve({ ok: false, reason: 'unhandled' });
      var id = 'i' + ++nextId;
      pending.set(id, resolve);
      post({ type: 'hub:invoke', id: id, action: action, params: params });
    }

    win.addEventListener('message', onMessage);
    win.addEventListener('keydown', onKeydown, true);

    var loaded =
      doc.readyState === 'complete'
        ? Promise.resolve()
        : new Promise(function (r) {
            win.addEventListener('load', r, { once: true });
          });
    var configured = framed
      ? win
          .fetch('/hub-config')
          .then(function (r) {
            return r.ok ? r.json() : null;
          })
          .catch(function () {
            return null;
          })
          .then(function (cfg) {
            try {
              if (cfg && cfg.enabled === true && typeof cfg.url === 'string') origin = new URL(cfg.url).origin;
            } catch (_) {
              origin = null;
            }
          })
      : Promise.resolve();

    Promise.all([configured, loaded]).then(function () {
      if (!origin) {
        setVars(null);
        return setStatus('standalone');
      }
      post({ type: 'hub:hello', protocol: PROTOCOLS, subscribes: Array.from(topics.keys()) });
      setStatus('waiting');
      win.setTimeout(function () {
        if (welcome) return;
        setVars(null);
        storeVars(null);
        setStatus('unanswered');
      }, WELCOME_WAIT_MS);
    });

    hub = {
      get status() {
        return status;
      },
      get themes() {
        return welcome ? welcome.themes : [];
      },
      get inHub() {
        return !!origin;
      },
      subscribe: function (topic, fn) {
        var fns = topicFns(topic);
        fns.push(fn);
        return function () {
          var i = fns.indexOf(fn);
          if (i >= 0) fns.splice(i, 1);
        };
      },
      onActive: function (fn) {
        activeFns.push(fn);
        return function () {
          activeFns = activeFns.filter(function (f) {
            return f !== fn;
          });
        };
      },
      onStatus: function (fn) {
        statusFns.push(fn);
        return function () {
          statusFns = statusFns.filter(function (f) {
            return f !== fn;
          });
        };
      },
      // Calls fn once with [{id, label}] after the swatch sheet is in; never standalone or with no welcome.
      onThemes: function (fn) {
        if (welcome) {
          if (welcome.themes.length) fn(pickerThemes());
        } else themesFns.push(fn);
        return function () {
          themesFns = themesFns.filter(function (f) {
            return f !== fn;
          });
        };
      },
      // Rule 10: adds theme.changed to the hello; returns report() to call after the user picks a theme.
      bindTheme: function (b) {
        topicFns('theme.changed');
        binding = { get: b.get, set: b.set, last: modeKey(b.get()) };
        if (lastTheme) applyMode(lastTheme);
        return function report() {
          if (!welcome) return;
          var cur = binding.get();
          if (modeKey(cur) === binding.last) return;
          binding.last = modeKey(cur);
          // The old pick's vars outrank the app's own CSS; the hub echoes the new ones.
          setVars(null);
          post({ type: 'hub:theme', theme: cur.theme, colorTheme: cur.colorTheme });
        };
      },
      publish: function (topic, payload) {
        if (status === 'live') post({ type: 'hub:publish', topic: topic, payload: payload });
        else if (waiting()) outbox.set(topic, payload);
      },
      handle: function (action, fn) {
        handlers.set(action, fn);
      },
      // Before welcome (and before the 2 s end) a call waits for one of them.
      invoke: function (action, params) {
        var p = params || {};
        return new Promise(function (resolve) {
          if (waiting()) queued.push(function () {
            run(action, p, resolve);
          });
          else run(action, p, resolve);
        });
      },
      can: function (action) {
        return status === 'live' && welcome.actions.has(action);
      },
      forwards: forwards,
      keyLabel: keyLabel,
      closeGuard: function (on) {
        post({ type: 'hub:closeGuard', on: !!on });
      },
      openExternal: function (url) {
        if (origin) post({ type: 'hub:openExternal', url: String(url) });
        else win.open(url, '_blank', 'noopener');
      },
      terminalToken: function () {
        return configured.then(function () {
          if (!origin) return null;
          return new Promise(function (resolve) {
            var timer = win.setTimeout(function () {
              tokenWaiters = tokenWaiters.filter(function (w) {
                return w !== settle;
              });
              resolve(null);
            }, TOKEN_WAIT_MS);
            function settle(token) {
              win.clearTimeout(timer);
              resolve(token);
            }
            tokenWaiters.push(settle);
            post({ type: 'hub:terminalToken' });
          });
        });
      },
    };
    return hub;
  }

  win.ClaudeHub = { connect: connect, comboOf: comboOf };
})(window);
