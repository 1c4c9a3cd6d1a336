// Listens on the campaign's websocket and tells htmx when something changed,
// so the parts of the page that follow "campaign-changed" reload themselves.
// Every change message has a number ("seq"); after the page's "hello" the server
// says the last number ("ready", then a "heartbeat" now and then). A number the
// page never got (a message lost on the way, or sent while it was disconnected)
// makes it reload those parts once: a change carries nothing to replay.
// Without JavaScript the page simply does not update on its own.
(function () {
  "use strict";
  var script = document.currentScript;
  var path = script && script.dataset.socket;
  if (!path || !("WebSocket" in window)) return;
  var delay = 1000;
  // The number the page was drawn at: a change made before the socket opened is a gap in "ready".
  var lastSeq = script.dataset.seq ? Number(script.dataset.seq) : null;

  function changed() { document.body.dispatchEvent(new CustomEvent("campaign-changed")); }

  function follow(seq) {
    if (lastSeq !== null && seq !== lastSeq) changed();
    lastSeq = seq;
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + path);
    socket.onopen = function () {
      delay = 1000;
      socket.send(JSON.stringify({ type: "hello" }));
    };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (message.type === "campaign.changed") {
        if (lastSeq === null || message.seq > lastSeq) lastSeq = message.seq;
        changed();
      } else if (message.type === "ready" || message.type === "heartbeat") {
        follow(message.last_seq);
      }
    };
    socket.onclose = function (event) {
      if (event.code === 4403) return; // no longer allowed to see this campaign
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
