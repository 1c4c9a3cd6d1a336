/* "Your turn" in the tab's title and a dot on its icon, while a player has something left to declare.
 *
 * A player often waits in another tab or app; the tab tells them when the round needs them. A
 * declaration form the player must still send carries data-awaited (templates/battles/_declare_form.html):
 * while one is on the page the title starts with "● <label> · " (the script tag's data-label, in the
 * page's language) and the favicon is redrawn on a canvas with a red dot. Both come back when the
 * last one is sent, or the round moves on (htmx swaps of #battle-declare). Game masters get nothing:
 * the room is theirs all the time.
 *
 * A phone puts the tab to sleep, and the browser may keep the page whole in its back-forward cache:
 * what it shows on waking can be from before the round moved. When the page is shown again
 * (visibilitychange to visible, pageshow) the title and icon are set again from the page at once,
 * and the declare part is asked to reload ("battle-retry", which it already listens to), after which
 * they are set from what the server says now.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  var label = (script && script.dataset.label) || "Your turn";
  var room = document.querySelector(".battle-room");
  if (!room || room.classList.contains("is-gm")) return;
  var plainTitle = document.title;
  var icon = document.querySelector('link[rel~="icon"]');
  var plainIcon = icon ? icon.href : null;
  var plainType = icon ? icon.type : "";
  var badgeIcon = null;
  var shown = null;

  function drawBadge(done) {
    if (badgeIcon || !plainIcon) { done(); return; }
    var image = new Image();
    image.onload = function () {
      var canvas = document.createElement("canvas");
      canvas.width = canvas.height = 64;
      var context = canvas.getContext("2d");
      context.drawImage(image, 0, 0, 64, 64);
      context.beginPath();
      context.arc(48, 16, 15, 0, 2 * Math.PI);
      context.fillStyle = "#e0321c";
      context.fill();
      context.lineWidth = 4;
      context.strokeStyle = "#ffffff";
      context.stroke();
      badgeIcon = canvas.toDataURL("image/png");
      done();
    };
    image.onerror = done;
    image.src = plainIcon;
  }

  function update() {
    var awaited = !!document.querySelector("#battle-declare form[data-awaited]");
    if (awaited === shown) return;
    shown = awaited;
    document.title = awaited ? "● " + label + " · " + plainTitle : plainTitle;
    room.dataset.yourTurn = awaited ? "1" : "0";
    if (!icon) return;
    if (!awaited) { icon.type = plainType; icon.href = plainIcon; return; }
    drawBadge(function () { if (shown && badgeIcon) { icon.type = "image/png"; icon.href = badgeIcon; } });
  }

  function resumed() {
    shown = null;  // the title may have been reset while the page slept: write it again
    update();
    var part = document.getElementById("battle-declare");
    if (part && window.htmx) htmx.trigger(part, "battle-retry");
  }

  document.addEventListener("htmx:afterSettle", update);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") resumed(); });
  window.addEventListener("pageshow", function (event) { if (event.persisted) resumed(); else update(); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", update);
  else update();
})();
