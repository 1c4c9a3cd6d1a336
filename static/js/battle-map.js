/* The battle room's map as an input: moves picked with taps, and the GM's placement before round 1.
 *
 * Declaration forms hold one <select data-map-pick="path|cell" data-piece="<piece id>"> per option
 * whose values are map paths or cells; each <option> says the cells it goes through
 * (data-cells="x,y x,y", the map's data-c format). map-view.js turns taps into
 * "map:select-piece" {id} and "map:select-cell" {cell}; here:
 *  - a tap on a piece makes its picker the active one (the one last focused, else the first;
 *    a second tap on the same piece goes to its next picker) and highlights where it may end;
 *  - a tap on a highlighted cell chooses the shortest option ending there, draws its path and
 *    fires "change" on the select; a tap anywhere else clears;
 *  - choosing in the select by hand (or focusing it) draws the same.
 * In placement mode ([data-place-toggle] pressed, GM only) a tap on a piece then one on a cell
 * fills the placement form ([data-place-form]) and submits it (htmx swaps #battle-map).
 * Taps never make the page jump: a status line under the map ([data-map-pick-status]) names the
 * field being set and offers a button back to it; each picker has a "Choose on the map" button
 * ([data-map-pick-show]) that activates it and brings the map into view. Everything is re-applied
 * after htmx swaps of #battle-declare (or of one GM fold's form) and #battle-map, whose zoom is kept.
 * Pickers are found by id: several forms on the GM's page share option paths (names). A GM's fold
 * ([data-pieces]) loads its form when opened; a tap on a piece it moves opens it.
 */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var active = null;        // id of the active picker (unique: several forms share option paths)
  var lastFocused = {};     // piece id -> id of the picker last focused for it
  var placing = false;      // placement mode (GM, before round 1)
  var placePiece = null;    // the piece to place, once tapped
  var savedView = null;     // the map's zoom, kept across a swap
  var pending = null;       // a piece tapped whose pickers are in a GM's fold being loaded
  var TAP = 44;             // px: the smallest cell a thumb picks reliably
  var zoomedOn = null;      // the piece the map zoomed to (touch screens and narrow windows)
  var viewBefore = null;    // the view before that zoom, shown again once a move is chosen

  function quote(value) { return window.CSS && CSS.escape ? CSS.escape(value) : String(value).replace(/["\\]/g, "\\$&"); }
  function declareBox() { return document.getElementById("battle-declare"); }
  function mapBox() { return document.getElementById("battle-map"); }
  function mapSvg() { var box = mapBox(); return box && box.querySelector("svg.battle-map"); }
  function list(nodes) { return Array.prototype.slice.call(nodes); }

  function pickersOf(piece) {
    var box = declareBox();
    return box ? list(box.querySelectorAll('select[data-map-pick][data-piece="' + quote(piece) + '"]')) : [];
  }

  function picker() {
    var box = declareBox();
    var select = active && box ? document.getElementById(active) : null;
    return select && box.contains(select) && select.matches("select[data-map-pick]") ? select : null;
  }

  function cellsOf(option) {
    var cells = option.getAttribute("data-cells");
    return cells ? cells.split(" ") : [];
  }

  // -- drawing on the map ---------------------------------------------------------

  function terrainCell(svg, key) { return svg.querySelector('.terrain [data-c="' + quote(key) + '"]'); }

  function shape(svg, key, cls) {
    var cell = terrainCell(svg, key);
    if (!cell) return null;
    var copy = cell.cloneNode(false);
    copy.setAttribute("class", cls);
    return copy;
  }

  function centre(element) {
    var box = element.getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  }

  function clear(svg) {
    list(svg.querySelectorAll(".pick-dest, g.pick-path")).forEach(function (el) { el.remove(); });
    list(svg.querySelectorAll(".piece.picked")).forEach(function (el) { el.classList.remove("picked", "selected"); });
  }

  function markPiece(svg, id) {
    var piece = id && svg.querySelector('.pieces [data-piece="' + quote(id) + '"]');
    if (piece && !piece.classList.contains("selected")) piece.classList.add("picked", "selected");
    return piece;
  }

  function drawPath(svg, cells, piece) {
    var group = document.createElementNS(SVG, "g");
    group.setAttribute("class", "pick-path");
    var points = piece ? [centre(piece)] : [];
    cells.forEach(function (key, i) {
      var step = shape(svg, key, i === cells.length - 1 ? "pick-end" : "pick-step");
      if (!step) return;
      group.appendChild(step);
      points.push(centre(terrainCell(svg, key)));
    });
    var line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", points.map(function (p) { return p[0] + "," + p[1]; }).join(" "));
    group.appendChild(line);
    svg.insertBefore(group, svg.querySelector("g.pieces"));
  }

  function draw() {
    var svg = mapSvg();
    var select = picker();
    if (!select) active = null;
    if (svg) clear(svg);
    if (placing) { if (svg) markPiece(svg, placePiece); status(); return; }
    if (!svg || !select) { status(); return; }
    var piece = markPiece(svg, select.getAttribute("data-piece"));
    var highlights = svg.querySelector("g.highlights");
    var seen = {};
    list(select.options).forEach(function (option) {
      var cells = cellsOf(option);
      var end = cells[cells.length - 1];
      if (!end || seen[end]) return;
      seen[end] = true;
      var dest = shape(svg, end, "hl pick-dest");
      if (dest && highlights) highlights.appendChild(dest);
    });
    var chosen = select.options[select.selectedIndex];
    var cells = chosen ? cellsOf(chosen) : [];
    if (cells.length) drawPath(svg, cells, select.getAttribute("data-map-pick") === "path" ? piece : null);
    zoomTo(svg, piece, highlights);
    status();
  }

  // -- zoom to the piece being moved (phones) ------------------------------------------------

  function smallScreen() {
    return window.matchMedia && window.matchMedia("(pointer: coarse), (max-width: 47.99rem)").matches;
  }

  // A piece just chosen on a phone: the map's frame turns square (more rows in sight: .focus) and the
  // map zooms so that a cell is at least TAP pixels, centred on the piece and where it may end (on the
  // piece alone when that is too big; a finger pans to the rest), kept within the map's edges.
  function zoomTo(svg, piece, highlights) {
    var viewport = svg.closest("[data-map-view]");
    var id = piece && piece.getAttribute("data-piece");
    if (!viewport || !window.MapView || !id || id === zoomedOn || !smallScreen()) return;
    var cell = svg.querySelector(".terrain [data-c]");
    var perPixel = window.MapView.unitsPerPixel(viewport);
    if (!cell || !perPixel) return;
    var size = cell.getBBox();
    var wanted = Math.min(size.width, size.height) / TAP;  // units per pixel once zoomed
    zoomedOn = id;
    if (wanted >= perPixel) return;  // cells are already big enough
    if (viewBefore === null) viewBefore = window.MapView.view(viewport);
    viewport.classList.add("focus");
    var box = piece.getBBox();
    var area = [box.x, box.y, box.x + box.width, box.y + box.height];
    var around = area.slice();
    list(highlights ? highlights.querySelectorAll(".pick-dest") : []).forEach(function (dest) {
      var b = dest.getBBox();
      around = [Math.min(around[0], b.x), Math.min(around[1], b.y),
                Math.max(around[2], b.x + b.width), Math.max(around[3], b.y + b.height)];
    });
    var rect = svg.getBoundingClientRect();
    var whole = svg.getAttribute("data-full").split(/[ ,]+/).map(Number);
    var aspect = whole[3] / whole[2];
    var seenW = rect.width * wanted, seenH = rect.height * wanted;  // what the frame shows once zoomed
    var fits = around[2] - around[0] <= seenW && around[3] - around[1] <= seenH;
    var centre = fits ? around : area;
    var cx = (centre[0] + centre[2]) / 2, cy = (centre[1] + centre[3]) / 2;
    if (seenW <= whole[2]) cx = Math.min(Math.max(cx, whole[0] + seenW / 2), whole[0] + whole[2] - seenW / 2);
    if (seenH <= whole[3]) cy = Math.min(Math.max(cy, whole[1] + seenH / 2), whole[1] + whole[3] - seenH / 2);
    // The view box keeps the map's proportions; the frame shows it centred ("meet"), the rest around it.
    var width = wanted / Math.max(1 / rect.width, aspect / rect.height);
    window.MapView.show(viewport, [cx - width / 2, cy - width * aspect / 2, width, width * aspect]);
  }

  // A move chosen, or the choice cleared: the map as it was before zooming to the piece.
  function zoomBack() {
    var box = mapBox();
    var viewport = box && box.querySelector("[data-map-view]");
    zoomedOn = null;
    if (viewport) viewport.classList.remove("focus");
    if (viewport && window.MapView && viewBefore) window.MapView.show(viewport, viewBefore);
    viewBefore = null;
  }

  // -- the status line under the map ----------------------------------------------------

  function labelOf(select) {
    var label = select.id && document.querySelector('label[for="' + quote(select.id) + '"]');
    var form = select.closest("form");
    var who = form && form.closest("details") ? form.closest("details").querySelector("summary strong") : form && form.querySelector("h3");
    return (who ? who.textContent.trim() + " · " : "") + (label ? label.textContent.trim().replace(/\s*:$/, "") : select.name);
  }

  function status() {
    var line = document.querySelector("[data-map-pick-status]");
    if (!line) return;
    var text = line.querySelector("[data-status-text]");
    var go = line.querySelector("[data-map-pick-goto]");
    var select = picker();
    if (placing) {
      text.textContent = placePiece ? line.getAttribute("data-place-cell") : line.getAttribute("data-place-piece");
      go.hidden = true;
      line.hidden = false;
    } else if (select) {
      var chosen = select.options[select.selectedIndex];
      text.textContent = line.getAttribute("data-picked")
        .replace("{field}", labelOf(select))
        .replace("{value}", chosen && chosen.value ? chosen.textContent.trim() : line.getAttribute("data-hint"));
      go.hidden = false;
      line.hidden = false;
    } else {
      line.hidden = true;
    }
  }

  function showField() {
    var select = picker();
    if (!select) return;
    var rect = select.getBoundingClientRect();
    if (rect.top < 0 || rect.bottom > window.innerHeight) select.scrollIntoView({ block: "center", behavior: "smooth" });
    select.focus({ preventScroll: true });
  }

  function showMap(button) {  // its picker: the select of that name in the button's own form
    var form = button.closest("form");
    var select = form && form.querySelector('select[data-map-pick][name="' + quote(button.getAttribute("data-map-pick-show")) + '"]');
    var map = mapBox();
    if (!select || !map) return;
    placing = false;
    showPlacing();
    activate(select);
    var rect = map.getBoundingClientRect();
    if (rect.top < 0 || rect.top > window.innerHeight / 2) map.scrollIntoView({ block: "start", behavior: "smooth" });
  }

  // -- choosing ---------------------------------------------------------------------------

  function activate(select) {
    active = select.id;
    var piece = select.getAttribute("data-piece");
    if (piece) lastFocused[piece] = select.id;
    var details = select.closest("details");
    if (details) details.open = true;
    draw();
  }

  function onPiece(id) {
    if (placing) { placePiece = id; draw(); return; }
    var mine = pickersOf(id);
    if (!mine.length && openFold(id)) return;
    if (!mine.length) { active = null; draw(); return; }
    var current = mine.map(function (s) { return s.id; }).indexOf(active);
    var next = current >= 0 ? mine[(current + 1) % mine.length]
      : mine.filter(function (s) { return s.id === lastFocused[id]; })[0] || mine[0];
    activate(next);
  }

  // The GM's forms load when their fold opens: a tap on a piece one of them moves opens it,
  // and its picker becomes active once the form is in (htmx:afterSwap).
  function openFold(id) {
    var box = declareBox();
    var fold = box && box.querySelector('details[data-pieces~="' + quote(id) + '"]:not([open])');
    if (!fold) return false;
    pending = id;
    fold.open = true;
    return true;
  }

  function onCell(cell) {
    if (placing) { if (placePiece) place(placePiece, cell); return; }
    var select = picker();
    if (!select) return;
    var best = null;
    list(select.options).forEach(function (option) {
      var cells = cellsOf(option);
      if (cells.length && cells[cells.length - 1] === cell && (!best || cells.length < cellsOf(best).length)) best = option;
    });
    if (!best) { active = null; zoomBack(); draw(); return; }
    select.value = best.value;
    select.dispatchEvent(new Event("change", { bubbles: true }));  // activates it again, and draws
  }

  // -- placement (GM, before round 1) ------------------------------------------------------

  function place(piece, cell) {
    var form = document.querySelector("[data-place-form]");
    if (!form) return;
    form.elements.piece.value = piece;
    form.elements.cell.value = cell;
    placePiece = null;
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  function showPlacing() {
    var toggle = document.querySelector("[data-place-toggle]");
    if (!toggle) { placing = false; placePiece = null; return; }
    toggle.setAttribute("aria-pressed", placing ? "true" : "false");
    var box = mapBox();
    if (box) box.classList.toggle("placing", placing);
  }

  // -- wiring ---------------------------------------------------------------------------------

  document.addEventListener("map:select-piece", function (e) { onPiece(e.detail.id); });
  document.addEventListener("map:select-cell", function (e) { onCell(e.detail.cell); });
  document.addEventListener("change", function (e) {
    if (e.target.matches && e.target.matches("select[data-map-pick]")) { activate(e.target); zoomBack(); }
  });
  document.addEventListener("focusin", function (e) {
    if (e.target.matches && e.target.matches("select[data-map-pick]") && !placing) activate(e.target);
  });
  document.addEventListener("click", function (e) {
    var toggle = e.target.closest && e.target.closest("[data-place-toggle]");
    if (toggle) {
      placing = !placing;
      placePiece = null;
      active = null;
      zoomBack();
      showPlacing();
      draw();
    } else if (e.target.closest && e.target.closest("[data-map-pick-goto]")) {
      showField();
    } else if (e.target.closest && e.target.closest("[data-map-pick-show]")) {
      showMap(e.target.closest("[data-map-pick-show]"));
    }
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.target !== mapBox()) return;
    var viewport = e.detail.target.querySelector("[data-map-view]");
    savedView = viewport && viewport._view ? viewport._view.slice() : null;
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    var target = e.detail.target;
    if (target === mapBox()) {
      var viewport = target.querySelector("[data-map-view]");
      if (viewport && window.MapView) {
        if (zoomedOn) viewport.classList.add("focus");  // still picking a move for that piece
        viewport._view = savedView;
        window.MapView.attach(viewport);
      }
      showPlacing();
      draw();
    } else if (declareBox() && declareBox().contains(target)) {  // the forms, or one GM's fold
      offerMapButtons();
      var id = pending;
      pending = null;
      if (id && pickersOf(id).length) onPiece(id); else draw();
    }
  });
  function offerMapButtons() {
    // Rendered hidden: without this script (or a map) they would do nothing.
    if (!mapSvg()) return;
    list(document.querySelectorAll("[data-map-pick-show][hidden]")).forEach(function (b) { b.hidden = false; });
  }

  function start() { showPlacing(); offerMapButtons(); draw(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
