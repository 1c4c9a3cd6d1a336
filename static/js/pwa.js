// Registers the service worker (masscombat/core/pwa.py, templates/pwa/sw.js) once the page has
// loaded, so its first caching of the shell never competes with the page itself.
(function () {
  "use strict";
  var script = document.currentScript;
  var worker = script && script.dataset.worker;
  if (!worker || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(function () {
      // No worker (a private window, an http:// address other than localhost): the site works without.
    });
  });
})();
