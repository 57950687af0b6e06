/**
 * The portal's only script, served at /portal.js (the CSP allows no inline script). Progressive:
 * the page is complete without it; it adds a light/dark/system toggle and copy buttons.
 * It loads in <head> without defer so a saved theme applies before the first paint.
 */
export const PORTAL_JS = `/* Brand portal enhancements: theme toggle and copy buttons. */
(function () {
  'use strict';
  var root = document.documentElement;
  var KEY = 'fleetgate-portal-theme';
  var MODES = ['system', 'light', 'dark'];
  function saved() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function apply(mode) {
    if (mode === 'light' || mode === 'dark') root.setAttribute('data-theme', mode);
    else root.removeAttribute('data-theme');
  }
  apply(saved());

  function say(text) {
    var status = document.getElementById('copy-status');
    if (status) status.textContent = text;
  }

  function themeToggle() {
    var slot = document.getElementById('theme-slot');
    if (!slot) return;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'btn';
    function label() {
      button.textContent = 'Theme: ' + (root.getAttribute('data-theme') || 'system');
    }
    button.addEventListener('click', function () {
      var current = root.getAttribute('data-theme') || 'system';
      var next = MODES[(MODES.indexOf(current) + 1) % MODES.length];
      apply(next);
      try {
        if (next === 'system') localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, next);
      } catch (e) { /* private mode: the choice lasts for this page only */ }
      label();
    });
    label();
    slot.appendChild(button);
  }

  function selectText(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    if (selection) { selection.removeAllRanges(); selection.addRange(range); }
  }

  function copyButtons() {
    var figures = document.querySelectorAll('[data-copy]');
    Array.prototype.forEach.call(figures, function (figure) {
      var code = figure.querySelector('code');
      var caption = figure.querySelector('figcaption');
      if (!code || !caption) return;
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'btn copy';
      button.textContent = 'Copy';
      button.setAttribute('aria-label', 'Copy: ' + caption.textContent);
      button.addEventListener('click', function () {
        var text = code.textContent || '';
        var done = function () { button.textContent = 'Copied'; say('Copied to the clipboard.'); };
        var fallback = function () { selectText(code); say('Selected: press Ctrl+C or Cmd+C to copy.'); };
        if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
        else fallback();
      });
      caption.appendChild(button);
    });
  }

  function ready() { themeToggle(); copyButtons(); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready);
  else ready();
})();
`;
