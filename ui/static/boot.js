// Runs before first paint (classic script in <body>): sets the mode class and theme id from storage, so the page does
// not flash the wrong mode. The app (theme.ts) owns these keys and re-applies them when it starts.
(function () {
  var mode = null;
  var theme = null;
  try {
    mode = localStorage.getItem('theme');
    theme = localStorage.getItem('color-theme');
  } catch (e) {
    /* storage blocked */
  }
  if (mode !== 'light' && mode !== 'dark') {
    mode = window.matchMedia && window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
  }
  document.body.classList.add(mode);
  document.body.setAttribute('data-theme', theme && /^[a-z0-9-]+$/.test(theme) ? theme : 'ember');
})();
