// The battle room's live link: ws/battles/<id>/ (a watch link's page: ws/watch/<token>/).
// On every (re)connection it says the last event number it saw ("hello"), the page's language
// and whether it can inflate gzip; the server sends what it missed; events already seen are
// dropped by number. An open socket can lose an event too (the server's Redis link cut): every
// event says the number this page heard just before it ("prev") and a heartbeat says the last
// one it should have ("last_seq"); a number the page never got makes it say hello again at once,
// and it applies nothing past the gap until the catch-up fills it.
//
// The server, not this page, knows which parts of the room an event redraws: each event comes
// with that list ("refresh") and then the parts' new HTML in "parts" frames, rendered once for
// everyone who sees the battle as this page's reader does (binary gzipped JSON, or JSON text).
// This swaps each one into its [data-part] section with htmx's own swap (so hx- attributes work
// and the other scripts hear htmx:beforeSwap / htmx:afterSwap as for a request), after putting
// the page's CSRF token and address in place of the marks the server left in the shared HTML.
// Why not htmx's websocket extension: it takes every message for HTML to swap out of band, with
// its own reconnecting; this socket's numbered events, gaps, catch-up and binary frames are
// JSON it must read first, and its out-of-band swaps fire none of the htmx:beforeSwap and
// htmx:afterSwap events the map, the drafts and the clock listen to.
//
// A map's terrain is not in the frames (it is most of a map and seldom changes): a frame's
// <g class="terrain" data-keep="<digest>" data-kept></g> is filled with the terrain this page
// shows when its digest is the same; a page that shows another asks for the part by GET.
//
// A part the server could not render (named in a "fetch" message) is asked for by GET
// ("battle-retry", which the section's hx-get follows), and a GET that fails tries again a few
// times. Without JavaScript the page works, reloaded by hand: every part is in it, and every
// form posts.
(function () {
  "use strict";
  var script = document.currentScript;
  var path = script && script.dataset.socket;
  var room = document.querySelector("[data-last-seq]");
  if (!path || !room || !("WebSocket" in window)) return;
  var lastSeq = parseInt(room.dataset.lastSeq, 10) || 0;
  var status = document.getElementById("live-status");
  var inflates = "DecompressionStream" in window;
  var delay = 500;
  var socket = null;
  var retry = null;
  var catchingUp = false; // a hello is on its way: the server replays the gap, then says "ready"
  var marks = null; // what the server leaves in shared HTML for the page's CSRF token and address
  var swapped = {}; // per part, the event number of the HTML it shows now: an older frame is not swapped in
  var queue = Promise.resolve(); // messages are handled one after the other, gzipped ones included

  function show(online) {
    if (!status) return;
    status.textContent = online ? status.dataset.online : status.dataset.offline;
    status.classList.toggle("online", online);
    status.classList.toggle("offline", !online);
    room.dataset.live = online ? "1" : "0";
  }

  function section(name) { return room.querySelector('[data-part="' + name + '"]'); }

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }

  // Asked by GET: a part the server could not push.
  function fetchParts(names) {
    (names || []).forEach(function (name) {
      var part = section(name);
      if (part && window.htmx) htmx.trigger(part, "battle-retry");
    });
  }

  var KEPT = /<g class="terrain" data-keep="([0-9a-f]+)" data-kept><\/g>/g;

  // The frame's HTML with the terrain this part shows put back, or null when it shows another.
  function withKept(part, html) {
    var missing = false;
    var filled = html.replace(KEPT, function (hollow, digest) {
      var kept = part.querySelector('g.terrain[data-keep="' + digest + '"]:not([data-kept])');
      if (!kept) missing = true;
      return kept ? kept.outerHTML : hollow;
    });
    return missing ? null : filled;
  }

  function swapParts(data) {
    if (!window.htmx || !marks) return;
    var token = csrfToken();
    Object.keys(data.html || {}).forEach(function (name) {
      var part = section(name);
      if (!part || (swapped[name] || 0) > data.seq) return;
      swapped[name] = data.seq;
      var html = withKept(part, data.html[name].split(marks.csrf).join(token).split(marks.origin).join(location.origin));
      if (html === null) { fetchParts([name]); return; }
      var detail = { elt: part, target: part, pushed: true };
      if (!htmx.trigger(part, "htmx:beforeSwap", detail)) return;
      var open = openFolds(part);
      htmx.swap(part, html, { swapStyle: "innerHTML" }, { eventInfo: detail, contextElement: part });
      reopen(part, open);
      delete part.dataset.retries;
    });
  }

  // A fold the reader opened (the GM's "End the battle", a participant's form) stays open when the
  // part around it is redrawn: a push comes whenever anyone does anything, not when the reader asks.
  function foldKey(fold) {
    var summary = fold.querySelector("summary");
    return [fold.className, fold.dataset.participant || "", summary ? summary.textContent.trim() : ""].join("|");
  }
  function openFolds(part) {
    return Array.prototype.map.call(part.querySelectorAll("details[open]"), foldKey);
  }
  function reopen(part, keys) {
    if (!keys.length) return;
    Array.prototype.forEach.call(part.querySelectorAll("details:not([open])"), function (fold) {
      if (keys.indexOf(foldKey(fold)) >= 0) fold.open = true;
    });
  }

  function hello() {
    if (catchingUp || !socket || socket.readyState !== WebSocket.OPEN) return;
    catchingUp = true;
    socket.send(JSON.stringify({ type: "hello", last_seq: lastSeq, lang: document.documentElement.lang,
                                 gzip: inflates }));
  }

  function read(raw) {
    if (typeof raw === "string") return Promise.resolve(JSON.parse(raw));
    var stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  function handle(data) {
    if (data.type === "reload") { location.reload(); return; }
    if (data.type === "ready") {
      catchingUp = false;
      marks = data.marks || marks;
      show(true);
      return;
    }
    if (data.type === "parts") { swapParts(data); return; }
    if (data.type === "fetch") { fetchParts(data.parts); return; }
    if (data.type === "error") { catchingUp = false; return; } // a refused hello: the next number retries
    if (data.type === "heartbeat") { if (data.last_seq > lastSeq) hello(); return; }
    if (data.type !== "event" || data.seq <= lastSeq) return;
    if (data.prev > lastSeq) { hello(); return; } // one went missing: the catch-up brings both
    lastSeq = data.seq;
    room.dataset.lastSeq = String(lastSeq);
  }

  function connect() {
    clearTimeout(retry);
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var opened = new WebSocket(scheme + location.host + path);
    opened.binaryType = "arraybuffer";
    socket = opened;
    opened.onopen = function () {
      delay = 500;
      hello();
    };
    opened.onmessage = function (message) {
      queue = queue.then(function () {
        if (socket !== opened) return null; // a socket since replaced: its messages are of no use
        return read(message.data).then(handle);
      }).catch(function () { if (socket === opened) opened.close(); }); // unreadable: reconnect, catch up
    };
    opened.onclose = function (event) {
      if (socket !== opened) return;
      show(false);
      socket = null;
      catchingUp = false;
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
