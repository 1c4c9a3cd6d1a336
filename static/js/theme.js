// The colour theme: light, dark, or as the system says (the default). Loaded in the head without
// defer, so data-theme is on <html> before the first paint and no page flashes light then dark; the
// content security policy forbids the usual inline snippet. The choice is kept in localStorage;
// "as the system" follows prefers-color-scheme, also when it changes while the page is open.
// The header's button (data-theme-toggle) cycles system -> dark -> light and says the current choice.
(function () {
  "use strict";
  var KEY = "masscombat-theme";
  var ORDER = ["system", "dark", "light"];
  var ICONS = { system: "◐", dark: "☾", light: "☀" };
  var root = document.documentElement;
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var remembered = null; // the choice of this page, for a browser that refuses localStorage

  function choice() {
    var stored = remembered;
    try { stored = window.localStorage.getItem(KEY); } catch (error) { /* storage refused: this page's */ }
    return ORDER.indexOf(stored) > 0 ? stored : "system";
  }

  function label(button, chosen) {
    button.textContent = ICONS[chosen];
    button.title = button.getAttribute("data-label-" + chosen) || chosen;
    button.setAttribute("aria-label", button.title);
    button.setAttribute("data-choice", chosen);
  }

  function apply() {
    var chosen = choice();
    var dark = chosen === "dark" || (chosen === "system" && !!system && system.matches);
    root.setAttribute("data-theme", dark ? "dark" : "light");
    var buttons = document.querySelectorAll("[data-theme-toggle]");
    for (var i = 0; i < buttons.length; i++) label(buttons[i], chosen);
  }

  function next() {
    var chosen = ORDER[(ORDER.indexOf(choice()) + 1) % ORDER.length];
    remembered = chosen;
    try {
      if (chosen === "system") window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, chosen);
    } catch (error) { /* kept for this page only */ }
    apply();
  }

  apply();
  if (system && system.addEventListener) system.addEventListener("change", apply);
  // Another tab changed the theme: follow it.
  window.addEventListener("storage", function (event) { if (event.key === KEY) apply(); });
  // Paper is white: print in the light theme whatever the screen shows.
  window.addEventListener("beforeprint", function () { root.setAttribute("data-theme", "light"); });
  window.addEventListener("afterprint", apply);
  document.addEventListener("DOMContentLoaded", function () {
    var buttons = document.querySelectorAll("[data-theme-toggle]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      buttons[i].addEventListener("click", next);
    }
    apply();
  });
})();
