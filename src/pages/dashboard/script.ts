/**
 * GET /dashboard.js: the only script, and optional: everything works without it. It adds a
 * system/light/dark switch (the token CSS keys dark mode on data-theme) and presets the event
 * form's time zone to the browser's own. Loaded in <head> so a stored theme applies before paint.
 */
export const DASHBOARD_JS = `// Progressive enhancement for the operator dashboard (theme switch, local time zone).
(function () {
  'use strict';
  var root = document.documentElement;
  var KEY = 'fleetgate-theme';
  var MODES = ['system', 'light', 'dark'];
  var mode = 'system';
  try {
    mode = localStorage.getItem(KEY) || 'system';
  } catch (e) {
    // Storage may be off; the switch still works for this page view.
  }
  if (MODES.indexOf(mode) < 0) mode = 'system';
  function apply() {
    if (mode === 'system') delete root.dataset.theme;
    else root.dataset.theme = mode;
  }
  apply();
  document.addEventListener('DOMContentLoaded', function () {
    var button = document.querySelector('[data-theme-toggle]');
    if (button) {
      button.textContent = 'Theme: ' + mode;
      button.hidden = false;
      button.addEventListener('click', function () {
        mode = MODES[(MODES.indexOf(mode) + 1) % MODES.length];
        try {
          localStorage.setItem(KEY, mode);
        } catch (e) {
          // Not remembered, but applied.
        }
        apply();
        button.textContent = 'Theme: ' + mode;
      });
    }
    var zone = document.querySelector('select[data-local-zone]');
    var local = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && local) {
      for (var i = 0; i < zone.options.length; i++) {
        if (zone.options[i].value === local) zone.value = local;
      }
    }
  });
})();
`;
