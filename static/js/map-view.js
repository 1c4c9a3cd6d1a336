/* Battle maps: zoom and pan by touch and mouse, taps turned into events.
 *
 * Every [data-map-view] element holding an <svg class="battle-map"> gets:
 *  - wheel and pinch zoom, drag to pan (one finger, or the mouse), +/−/⤢ buttons (in a bar
 *    above the map, so they never hide part of it);
 *  - the columns' and rows' names kept on the edges in sight as it zooms;
 *  - a tap on a piece ([data-piece]) dispatches "map:select-piece" {id},
 *    a tap on a cell ([data-c]) dispatches "map:select-cell" {cell, kind};
 *  - in paint mode (data-mode="paint" on the viewport) a one-finger drag paints
 *    instead of panning: "map:paint-start", then "map:paint-cell" {cell} for
 *    each cell crossed, then "map:paint-end".
 * Events bubble from the viewport, so a page listens once on document.
 * The view survives the SVG being replaced (htmx swap, editor redraw):
 * MapView.refresh(viewport) re-applies it, and htmx swaps are handled here.
 */
(function () {
  "use strict";
  var TAP_SLOP = 8;

  function svgOf(viewport) { return viewport.querySelector("svg.battle-map"); }

  function fullBox(svg) {
    var vb = svg.getAttribute("data-full") || svg.getAttribute("viewBox");
    svg.setAttribute("data-full", vb);
    return vb.split(/[ ,]+/).map(Number);
  }

  function apply(viewport) {
    var svg = svgOf(viewport);
    if (!svg) return;
    var full = fullBox(svg);
    var v = viewport._view || full.slice();
    // Keep at least a quarter of the map in sight, never zoom out past twice its size.
    v[2] = Math.min(Math.max(v[2], full[2] / 12), full[2] * 2);
    v[3] = v[2] * full[3] / full[2];
    v[0] = Math.min(Math.max(v[0], full[0] - v[2] * 0.75), full[0] + full[2] - v[2] * 0.25);
    v[1] = Math.min(Math.max(v[1], full[1] - v[3] * 0.75), full[1] + full[3] - v[3] * 0.25);
    viewport._view = v;
    svg.setAttribute("viewBox", v.join(" "));
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    placeCoordinates(svg, v);
  }

  // The columns' and rows' names (g.coords, drawn by masscombat/maps/render.py) stay on the top and
  // left edges of what is in sight, at the same size on screen whatever the zoom.
  function placeCoordinates(svg, v) {
    var coords = svg.querySelector("g.coords");
    var r = svg.getBoundingClientRect();
    if (!coords || !r.width) return;
    var scale = Math.max(v[2] / r.width, v[3] / r.height);  // map units per screen pixel
    var offX = (r.width * scale - v[2]) / 2, offY = (r.height * scale - v[3]) / 2;
    var full = fullBox(svg);
    coords.style.fontSize = (10 * scale) + "px";
    coords.querySelector(".coords-cols").setAttribute("transform",
      "translate(0 " + (Math.max(v[1] - offY, full[1]) + 2 * scale) + ")");
    coords.querySelector(".coords-rows").setAttribute("transform",
      "translate(" + (Math.max(v[0] - offX, full[0]) + 2 * scale) + " 0)");
  }

  function toMap(svg, clientX, clientY) {
    var r = svg.getBoundingClientRect();
    var v = svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
    var scale = Math.max(v[2] / r.width, v[3] / r.height);
    // preserveAspectRatio xMidYMid meet: the drawing is centred in the element.
    var offX = (r.width * scale - v[2]) / 2, offY = (r.height * scale - v[3]) / 2;
    return { x: v[0] - offX + (clientX - r.left) * scale, y: v[1] - offY + (clientY - r.top) * scale, scale: scale };
  }

  function zoom(viewport, factor, clientX, clientY) {
    var svg = svgOf(viewport);
    if (!svg) return;
    var v = viewport._view || fullBox(svg).slice();
    var r = svg.getBoundingClientRect();
    var p = clientX === undefined ? { x: v[0] + v[2] / 2, y: v[1] + v[3] / 2 } : toMap(svg, clientX, clientY);
    viewport._view = [p.x - (p.x - v[0]) * factor, p.y - (p.y - v[1]) * factor, v[2] * factor, v[3] * factor];
    apply(viewport);
  }

  function cellAt(clientX, clientY) {
    var el = document.elementFromPoint(clientX, clientY);
    return el && el.closest ? el.closest("[data-c]") : null;
  }

  function emit(viewport, name, detail) {
    viewport.dispatchEvent(new CustomEvent(name, { bubbles: true, detail: detail }));
  }

  function fitShape(viewport) {
    // The frame takes the map's proportions (CSS caps its height), so no band of empty space surrounds it.
    var svg = svgOf(viewport);
    if (!svg) return;
    var full = fullBox(svg);
    viewport.style.aspectRatio = full[2] + " / " + full[3];
  }

  function attach(viewport) {
    fitShape(viewport);
    if (viewport._mapView) { apply(viewport); return; }
    viewport._mapView = true;
    var pointers = new Map();
    var start = null, moved = false, pinch = null, painting = false, lastCell = null;

    viewport.addEventListener("wheel", function (e) {
      e.preventDefault();
      zoom(viewport, e.deltaY > 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY);
    }, { passive: false });

    viewport.addEventListener("pointerdown", function (e) {
      if (!e.target.closest("svg.battle-map")) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 1) {
        start = { x: e.clientX, y: e.clientY, view: (viewport._view || fullBox(svgOf(viewport))).slice() };
        moved = false;
        if (viewport.dataset.mode === "paint") {
          var cell = cellAt(e.clientX, e.clientY);
          if (cell) {
            painting = true;
            lastCell = cell.getAttribute("data-c");
            emit(viewport, "map:paint-start", { cell: lastCell });
            emit(viewport, "map:paint-cell", { cell: lastCell });
          }
        }
      } else if (pointers.size === 2) {
        if (painting) { painting = false; emit(viewport, "map:paint-end", {}); }
        var pts = Array.from(pointers.values());
        pinch = { d: Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y), view: (viewport._view || fullBox(svgOf(viewport))).slice(),
                  cx: (pts[0].x + pts[1].x) / 2, cy: (pts[0].y + pts[1].y) / 2 };
      }
      viewport.setPointerCapture(e.pointerId);
    });

    viewport.addEventListener("pointermove", function (e) {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      var svg = svgOf(viewport);
      if (!svg) return;
      if (pinch && pointers.size === 2) {
        // Two fingers: spread or pinch to zoom around where they started, move together to pan.
        var pts = Array.from(pointers.values());
        var d = Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y) || 1;
        var cx = (pts[0].x + pts[1].x) / 2, cy = (pts[0].y + pts[1].y) / 2;
        viewport._view = pinch.view.slice();
        apply(viewport);
        zoom(viewport, pinch.d / d, pinch.cx, pinch.cy);
        var r = svg.getBoundingClientRect();
        var v = viewport._view;
        var scale = Math.max(v[2] / r.width, v[3] / r.height);
        viewport._view = [v[0] - (cx - pinch.cx) * scale, v[1] - (cy - pinch.cy) * scale, v[2], v[3]];
        apply(viewport);
        moved = true;
        return;
      }
      if (!start) return;
      if (Math.hypot(e.clientX - start.x, e.clientY - start.y) > TAP_SLOP) moved = true;
      if (painting) {
        var cell = cellAt(e.clientX, e.clientY);
        var key = cell && cell.getAttribute("data-c");
        if (key && key !== lastCell) { lastCell = key; emit(viewport, "map:paint-cell", { cell: key }); }
        return;
      }
      if (moved) {
        var r = svg.getBoundingClientRect();
        var scale = Math.max(start.view[2] / r.width, start.view[3] / r.height);
        viewport._view = [start.view[0] - (e.clientX - start.x) * scale, start.view[1] - (e.clientY - start.y) * scale,
                          start.view[2], start.view[3]];
        apply(viewport);
      }
    });

    function end(e) {
      if (!pointers.has(e.pointerId)) return;
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size > 0) return;
      if (painting) { painting = false; emit(viewport, "map:paint-end", {}); start = null; return; }
      if (start && !moved && e.type === "pointerup") {
        var el = document.elementFromPoint(e.clientX, e.clientY);
        var piece = el && el.closest && el.closest("[data-piece]");
        var cell = el && el.closest && el.closest("[data-c]");
        var svg = svgOf(viewport);
        if (piece) emit(viewport, "map:select-piece", { id: piece.getAttribute("data-piece"), kind: svg && svg.dataset.kind });
        else if (cell) emit(viewport, "map:select-cell", { cell: cell.getAttribute("data-c"), kind: svg && svg.dataset.kind });
      }
      start = null;
    }
    viewport.addEventListener("pointerup", end);
    viewport.addEventListener("pointercancel", end);

    viewport.addEventListener("keydown", function (e) {
      var piece = e.target.closest && e.target.closest("[data-piece]");
      if (piece && (e.key === "Enter" || e.key === " ")) {
        e.preventDefault();
        emit(viewport, "map:select-piece", { id: piece.getAttribute("data-piece") });
      }
    });

    var buttons = (viewport.closest(".map-figure") || viewport.parentElement).querySelectorAll("[data-map-zoom]");
    buttons.forEach(function (b) {
      b.addEventListener("click", function () {
        var what = b.getAttribute("data-map-zoom");
        if (what === "reset") { viewport._view = null; apply(viewport); }
        else zoom(viewport, what === "in" ? 1 / 1.4 : 1.4);
      });
    });
    apply(viewport);
  }

  function attachAll(root) {
    (root || document).querySelectorAll("[data-map-view]").forEach(attach);
  }

  window.MapView = {
    attach: attach,
    /* Re-apply the current zoom after the SVG inside the viewport was replaced. */
    refresh: function (viewport) {
      var svg = svgOf(viewport);
      if (svg) svg.removeAttribute("data-full");
      fitShape(viewport);
      apply(viewport);
    },
    reset: function (viewport) { viewport._view = null; apply(viewport); },
    /* The part of the map in sight, [x, y, width, height] in the SVG's units. */
    view: function (viewport) {
      var svg = svgOf(viewport);
      return svg ? (viewport._view || fullBox(svg)).slice() : null;
    },
    /* Show this part (kept within the usual bounds); null shows the whole map. */
    show: function (viewport, box) { viewport._view = box ? box.slice() : null; apply(viewport); },
    /* Map units per screen pixel in the current view. */
    unitsPerPixel: function (viewport) {
      var svg = svgOf(viewport);
      var r = svg && svg.getBoundingClientRect();
      if (!r || !r.width) return 0;
      var v = viewport._view || fullBox(svg);
      return Math.max(v[2] / r.width, v[3] / r.height);
    },
  };
  document.addEventListener("DOMContentLoaded", function () { attachAll(document); });
  document.addEventListener("htmx:afterSwap", function (e) {
    attachAll(e.target.parentElement || document);
    if (e.target.closest) {
      var vp = e.target.closest("[data-map-view]");
      if (vp) window.MapView.refresh(vp);
    }
  });
  // A turned phone or a resized window changes the screen size of a map unit: the edges' names follow.
  window.addEventListener("resize", function () {
    document.querySelectorAll("[data-map-view]").forEach(function (viewport) { if (viewport._mapView) apply(viewport); });
  });
  if (document.readyState !== "loading") attachAll(document);
})();
