// Listens on the campaign's websocket and tells htmx when something changed,
// so the parts of the page that follow "campaign-changed" reload themselves.
// Without JavaScript the page simply does not update on its own.
(function () {
  "use strict";
  var script = document.currentScript;
  var path = script && script.dataset.socket;
  if (!path || !("WebSocket" in window)) return;
  var delay = 1000;

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + path);
    socket.onopen = function () { delay = 1000; };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (message.type === "campaign.changed") {
        document.body.dispatchEvent(new CustomEvent("campaign-changed"));
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
