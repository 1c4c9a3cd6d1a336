/* Round deadlines counting down: every <time data-countdown datetime="..."> on the page.
 *
 * The server writes the time left in words (templates/battles/_deadline.html), which is what a page
 * without JavaScript reads; this replaces it once a second with "2 d 03:04:05" (the days' letter from
 * the element's data-day, in the page's language) and, once the deadline has passed, data-due while
 * the worker resolves the round. The room's parts are swapped by htmx on every battle event, so the
 * elements are looked up again on each tick rather than kept: a deadline the GM paused, extended or
 * took away is what the next swap shows. The GM's controls, when open, stay open across those swaps.
 */
(function () {
  "use strict";

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function left(seconds, day) {
    var days = Math.floor(seconds / 86400);
    var rest = seconds % 86400;
    var clock = pad(Math.floor(rest / 3600)) + ":" + pad(Math.floor(rest % 3600 / 60)) + ":" + pad(rest % 60);
    return (days ? days + " " + day + " " : "") + clock;
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("time[data-countdown]").forEach(function (element) {
      var due = Date.parse(element.getAttribute("datetime"));
      if (isNaN(due)) return;
      var seconds = Math.max(0, Math.round((due - now) / 1000));
      var text = seconds > 0 ? left(seconds, element.dataset.day || "d") : (element.dataset.due || "0:00:00");
      if (element.textContent !== text) element.textContent = text;
      element.classList.toggle("is-due", seconds === 0);
    });
  }

  // The status part is swapped on every battle event: the GM's deadline controls stay open if they were.
  var controlsOpen = false;
  document.body.addEventListener("htmx:beforeSwap", function () {
    var controls = document.querySelector("details.deadline-controls");
    controlsOpen = Boolean(controls && controls.open);
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    var controls = document.querySelector("details.deadline-controls");
    if (controls && controlsOpen) controls.open = true;
    tick();
  });

  tick();
  window.setInterval(tick, 1000);
})();
