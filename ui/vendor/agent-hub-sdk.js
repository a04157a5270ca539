// Agent Hub SDK stub: the app page's SDK when no hub runs it (hub protocol v1, section "SDK").
// Same functions as the hub's client, with no hub behind them: it sends no message, never fetches
// /hub-config and never applies cached theme vars. Under a hub the server SDK serves the hub's own
// client at this path instead. A classic script, loaded as the first element in <body>.
(function (root) {
  'use strict';

  var hub = null;

  function connect() {
    if (hub) return hub;
    var none = function () {
      return function () {};
    };
    hub = {
      status: 'standalone',
      themes: [],
      inHub: false,
      subscribe: none,
      onActive: none,
      onStatus: none,
      // Standalone the app lists its own themes, so the callback never runs.
      onThemes: none,
      // The app applies its own theme; reporting a pick goes nowhere.
      bindTheme: function () {
        return function report() {};
      },
      publish: function () {},
      handle: function () {},
      invoke: function () {
        return Promise.resolve({ ok: false, reason: 'unhandled' });
      },
      can: function () {
        return false;
      },
      forwards: function () {
        return false;
      },
      // No hub, no hub keys.
      keyLabel: function () {
        return null;
      },
      closeGuard: function () {},
      openExternal: function (url) {
        root.open(url, '_blank', 'noopener');
      },
      terminalToken: function () {
        return Promise.resolve(null);
      },
    };
    return hub;
  }

  root.AgentHub = { connect: connect };
})(window);
