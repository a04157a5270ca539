// Conformance hub SDK: the one rule that names a key press (hub protocol "Keys" rule 2) and the
// labels a help row shows for a combo. Shared by the hub page (served as /sdk/keys.js) and, in
// front of client.js, by the app page (server.cjs bundles them as /vendor/claude-hub-sdk.js).
// `var`: the hub page and an app page each load it as a classic script.
var ClaudeHubKeys = (function () {
  'use strict';

  /** Modifiers in ctrl, alt, shift, meta order, then the key; takes a KeyboardEvent or a {key, code} payload. */
  function comboOf(e) {
    var key = typeof e.key === 'string' ? e.key : '';
    var lower = key.toLowerCase();
    var m = /^(?:Key([A-Z])|Digit([1-9]))$/.exec(e.code || '');
    var name = /^[a-z1-9]$/.test(lower) ? lower : m ? (m[1] || m[2]).toLowerCase() : key;
    var parts = [];
    if (e.ctrlKey || e.ctrl) parts.push('ctrl');
    if (e.altKey || e.alt) parts.push('alt');
    if (e.shiftKey || e.shift) parts.push('shift');
    if (e.metaKey || e.meta) parts.push('meta');
    parts.push(name);
    return parts.join('+');
  }

  var MODS = { ctrl: 'Ctrl', alt: 'Alt', shift: 'Shift', meta: 'Win' };
  var MAC_MODS = { ctrl: '⌃', alt: '⌥', shift: '⇧', meta: '⌘' };
  var NAMED = { '{n}': '1…9', ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓' };

  /** The keys of a combo as a help row shows them: 'ctrl+alt+p' -> ['Ctrl', 'Alt', 'P'] (['⌃', '⌥', 'P'] on macOS). */
  function keyParts(combo, mac) {
    var mods = mac ? MAC_MODS : MODS;
    return combo.split('+').map(function (k) {
      return mods[k] || NAMED[k] || (k.length === 1 ? k.toUpperCase() : k);
    });
  }

  return { comboOf: comboOf, keyParts: keyParts };
})();

if (typeof module === 'object' && module.exports) module.exports = ClaudeHubKeys;
