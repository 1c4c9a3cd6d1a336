// The battle room's live link: ws/battles/<id>/.
// On every (re)connection it says the last event number it saw ("hello") and the
// server sends what it missed; events already seen are dropped by number. Each
// event makes htmx reload the parts that follow it: "battle-changed" (who has
// declared, presence) and, when the round or the status moves, "battle-round"
// (forms and reports). A part whose reload fails tries again ("battle-retry").
// Without JavaScript the page works, reloaded by hand.
(function () {
  "use strict";
  var script = document.currentScript;
  var path = script && script.dataset.socket;
  var room = document.querySelector("[data-last-seq]");
  if (!path || !room || !("WebSocket" in window)) return;
  var lastSeq = parseInt(room.dataset.lastSeq, 10) || 0;
  var status = document.getElementById("live-status");
  var delay = 500;
  var socket = null;
  var retry = null;
  var ROUND_KINDS = { round_resolved: 1, round_undone: 1, status: 1, created: 1, placed: 1 };

  function show(online) {
    if (!status) return;
    status.textContent = online ? status.dataset.online : status.dataset.offline;
    status.classList.toggle("online", online);
    status.classList.toggle("offline", !online);
    room.dataset.live = online ? "1" : "0";
  }

  function fire(name) { document.body.dispatchEvent(new CustomEvent(name)); }

  // A form waiting on the GM (a 7th Sea hero's opportunity: offered, or to be) reloads when the GM declares.
  function offerChanged(data) {
    return data.kind === "declared" && data.payload && data.payload.participant === "gm" &&
      !!document.querySelector("#battle-declare [data-follows-gm]");
  }

  function connect() {
    clearTimeout(retry);
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + path);
    socket.onopen = function () {
      delay = 500;
      socket.send(JSON.stringify({ type: "hello", last_seq: lastSeq }));
    };
    socket.onmessage = function (message) {
      var data = JSON.parse(message.data);
      if (data.type === "reload") { location.reload(); return; }
      if (data.type === "ready") { show(true); return; }
      if (data.type !== "event" || data.seq <= lastSeq) return;
      lastSeq = data.seq;
      room.dataset.lastSeq = String(lastSeq);
      if (ROUND_KINDS[data.kind] || offerChanged(data)) fire("battle-round");
      fire("battle-changed");
    };
    socket.onclose = function (event) {
      show(false);
      socket = null;
      if (event.code === 4403) return; // no longer allowed to see this battle
      retry = setTimeout(connect, delay);
      delay = Math.min(delay * 2, 15000);
    };
  }
  // A part's reload that fails (the server busy or restarting, the network gone) would leave that
  // part as it was until the next event, for good after the last one (the closed aftermath): it
  // tries again a few times, further apart each time. A refusal (4xx) is not retried.
  function retryPart(event) {
    var part = event.detail.elt;
    var code = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!part || !room.contains(part) || !part.hasAttribute("hx-get") || (code >= 400 && code < 500)) return;
    var tries = parseInt(part.dataset.retries || "0", 10);
    if (tries >= 6) return;
    part.dataset.retries = String(tries + 1);
    setTimeout(function () { htmx.trigger(part, "battle-retry"); }, Math.min(500 * Math.pow(2, tries), 8000));
  }
  ["htmx:responseError", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.body.addEventListener(name, retryPart);
  });
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.elt && event.detail.elt.dataset) delete event.detail.elt.dataset.retries;
  });

  // The network went away (phone locked, Wi-Fi to 4G): drop the socket rather than
  // trust a dead one; when it comes back, reconnect at once and catch up.
  window.addEventListener("offline", function () { if (socket) socket.close(); });
  window.addEventListener("online", function () {
    delay = 500;
    if (!socket) connect();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !socket) { delay = 500; connect(); }
  });
  connect();
})();
