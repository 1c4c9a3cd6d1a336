/* The GM's map editor: paint terrain, set levels, place objectives, build zones; undo; save.
 *
 * The map is kept here as the same JSON the server stores.  Every change is
 * drawn at once where it can be (a cell's terrain class), then checked and
 * redrawn by the server (POST preview: the one renderer, the engine's own
 * checks), whose per-field errors are listed above the map.  Save sends the
 * version the editor loaded; a newer version on the server is never overwritten.
 */
(function () {
  "use strict";
  var form = document.getElementById("map-editor");
  if (!form) return;
  var initial = JSON.parse(document.getElementById("map-editor-data").textContent);
  var text = JSON.parse(document.getElementById("map-editor-messages").textContent);
  var kind = initial.kind;
  var model = { width: initial.width, height: initial.height, data: initial.data };
  var version = initial.version;
  var history = [];
  var dirty = false;
  var previewTimer = null, previewSeq = 0;
  var viewport = form.querySelector("[data-map-view]");
  var status = form.querySelector(".editor-status");
  var errorList = form.querySelector(".editor-errors");
  var undoButton = form.querySelector('[data-editor="undo"]');
  var selectedZone = null, linkFrom = null, moving = null;
  var stroke = null;

  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    var h = document.body.getAttribute("hx-headers");
    try { return JSON.parse(h)["X-CSRFToken"]; } catch (e) { return ""; }
  }
  function say(message, kindOfMessage) {
    status.textContent = message || "";
    status.className = "editor-status" + (kindOfMessage ? " " + kindOfMessage : "");
  }
  function tool() { var t = form.querySelector('input[name="tool"]:checked'); return t ? t.value : "pan"; }
  function snapshot() { return JSON.stringify(model); }
  function remember() {
    history.push(snapshot());
    if (history.length > 200) history.shift();
    undoButton.disabled = false;
  }
  function changed() {
    dirty = true;
    say(text.unsaved);
    clearTimeout(previewTimer);
    form.dataset.busy = "1";  // until the server has redrawn the map
    previewTimer = setTimeout(preview, 300);
  }

  /* ---- cells (square and hex) ---- */
  function listName() { return kind === "square" ? "cells" : "hexes"; }
  function keyOf(cell) { return kind === "square" ? cell.at[0] + "," + cell.at[1] : cell.col + "," + cell.row; }
  function findCell(key, create) {
    var list = model.data[listName()] || (model.data[listName()] = []);
    for (var i = 0; i < list.length; i++) if (keyOf(list[i]) === key) return list[i];
    if (!create) return null;
    var xy = key.split(",").map(Number);
    var cell = kind === "square" ? { at: xy } : { col: xy[0], row: xy[1] };
    list.push(cell);
    return cell;
  }
  function levelValue(name) {
    var input = form.querySelector('[name="level-' + name + '"]');
    return input ? parseInt(input.value, 10) || 0 : 0;
  }
  function paintCell(key) {
    var t = tool();
    if (key.indexOf("slot:") === 0) return;
    var cell = findCell(key, true);
    if (t.indexOf("terrain:") === 0) {
      cell.terrain = t.slice(8);
      var el = viewport.querySelector('.cell[data-c="' + key + '"]');
      if (el) el.setAttribute("class", el.getAttribute("class").replace(/\bt-[a-z_]+/, "t-" + cell.terrain));
    } else if (t.indexOf("flag:") === 0) {
      var flag = t.slice(5);
      if (stroke.value === undefined) stroke.value = !cell[flag];
      cell[flag] = stroke.value;
    } else if (t.indexOf("level:") === 0) {
      cell[t.slice(6)] = levelValue(t.slice(6));
    } else if (t === "feature") {
      var name = form.querySelector('[name="feature"]').value.trim();
      cell.feature_id = name || null;
    } else if (t === "objective") {
      toggleObjective(key);
    }
    changed();
  }
  function toggleObjective(key) {
    var squares = model.data.objective_squares || (model.data.objective_squares = {});
    for (var id in squares) {
      if (squares[id].at.join(",") === key) { delete squares[id]; return; }
    }
    // A hidden id: the map and the battle call an objective "Objective 1" by its rank, never by this id.
    var n = 1;
    while (squares["o" + n]) n++;
    var num = function (name) { return parseInt(form.querySelector('[name="' + name + '"]').value, 10); };
    squares["o" + n] = { at: key.split(",").map(Number), hp_max: num("obj-hp_max"), vp: num("obj-vp"), ac: num("obj-ac") };
  }

  /* ---- zones ---- */
  function zones() { return model.data.zones || (model.data.zones = {}); }
  function showZone(id) {
    selectedZone = id;
    var panel = form.querySelector(".zone-panel");
    if (!panel) return;
    panel.hidden = !id;
    if (!id) return;
    var zone = zones()[id];
    panel.querySelector("[data-zone-title]").textContent = zone.name || text.zone;
    panel.querySelector('[name="zone-name"]').value = zone.name || "";
    panel.querySelectorAll("[data-level]").forEach(function (input) {
      input.value = (zone.terrain || {})[input.dataset.level] || 0;
    });
    var links = (zone.neighbors || []).map(function (z) { return (zones()[z] && zones()[z].name) || z; });
    panel.querySelector("[data-zone-links]").textContent = text.links + " " + (links.length ? links.join(", ") : text.none);
    markSelected();
  }
  function markSelected() {
    viewport.querySelectorAll(".cell.picked").forEach(function (el) { el.classList.remove("picked"); });
    var id = linkFrom || moving || selectedZone;
    if (!id) return;
    var el = viewport.querySelector('.cell[data-c="' + CSS.escape(id) + '"]');
    if (el) el.classList.add("picked");
  }
  function newZoneId() {
    var n = 1;
    while (zones()["z" + n]) n++;
    return "z" + n;
  }
  function newZoneName() {
    // "Zone 3" in the GM's language: the smallest number no zone is named with yet.
    var taken = {};
    Object.keys(zones()).forEach(function (id) { taken[(zones()[id].name || "").toLowerCase()] = true; });
    var n = 1;
    while (taken[text.zoneName.replace("%(n)s", n).toLowerCase()]) n++;
    return text.zoneName.replace("%(n)s", n);
  }
  function link(a, b) {
    var za = zones()[a], zb = zones()[b];
    za.neighbors = za.neighbors || []; zb.neighbors = zb.neighbors || [];
    var i = za.neighbors.indexOf(b);
    if (i >= 0) {
      za.neighbors.splice(i, 1);
      zb.neighbors = zb.neighbors.filter(function (z) { return z !== a; });
    } else {
      za.neighbors.push(b);
      if (zb.neighbors.indexOf(a) < 0) zb.neighbors.push(a);
    }
  }
  function zoneTap(key) {
    var t = tool();
    var slot = key.indexOf("slot:") === 0 ? key.slice(5).split(",").map(Number) : null;
    if (t === "add" && slot) {
      remember();
      var id = newZoneId();
      zones()[id] = { name: newZoneName(), neighbors: [], terrain: {}, at: slot };
      changed();
      showZone(id);
    } else if (t === "link" && !slot) {
      if (!linkFrom) { linkFrom = key; say(text.pickSecond); markSelected(); return; }
      if (linkFrom !== key) { remember(); link(linkFrom, key); changed(); }
      linkFrom = null;
      showZone(key);
    } else if (t === "move") {
      if (!slot) { moving = key; say(text.pickSlot); markSelected(); return; }
      if (moving) { remember(); zones()[moving].at = slot; var moved = moving; moving = null; changed(); showZone(moved); }
    } else if (!slot) {
      showZone(key);
    }
  }

  /* ---- server: preview and save ---- */
  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept": "application/json" },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (json) { return { status: response.status, json: json }; });
    });
  }
  function showErrors(fields) {
    errorList.innerHTML = "";
    var keys = Object.keys(fields || {});
    keys.forEach(function (path) {
      var li = document.createElement("li");
      li.textContent = fields[path];  // the server names the place (a square, a zone, a field): never a path

      errorList.appendChild(li);
    });
    errorList.hidden = keys.length === 0;
  }
  function draw(json) {
    var holder = document.createElement("div");
    holder.innerHTML = json.svg;
    var old = viewport.querySelector("svg.battle-map");
    old.replaceWith(holder.firstElementChild);
    window.MapView.refresh(viewport);
    var legend = form.querySelector(".map-legend");
    if (legend) {
      legend.innerHTML = "";
      json.legend.forEach(function (entry) {
        var span = document.createElement("span");
        span.className = "key";
        span.innerHTML = '<svg viewBox="0 0 16 16" aria-hidden="true" class="swatch ' + entry[0] + '"><rect width="16" height="16" rx="3"/></svg>';
        span.appendChild(document.createTextNode(entry[1]));
        legend.appendChild(span);
      });
    }
    markSelected();
  }
  function body() {
    return { name: form.querySelector('[name="name"]').value, width: model.width, height: model.height,
             data: model.data, version: version };
  }
  function preview() {
    var seq = ++previewSeq;
    post(form.dataset.previewUrl, body()).then(function (r) {
      if (seq !== previewSeq) return;
      delete form.dataset.busy;
      if (r.status === 200) { draw(r.json); showErrors({}); if (dirty) say(text.unsaved); }
      else { showErrors(r.json.fields); say(text.invalid, "error"); }
    }).catch(function () { delete form.dataset.busy; say(text.offline, "error"); });
  }
  function save() {
    clearTimeout(previewTimer);
    say(text.saving);
    post(form.dataset.saveUrl, body()).then(function (r) {
      if (r.status === 200) {
        version = r.json.version;
        model.data = r.json.data;
        dirty = false;
        showErrors({});
        say(r.json.message, "ok");
        preview();
      } else if (r.status === 409) {
        say(text.conflict, "error");
      } else {
        showErrors(r.json.fields);
        say(text.invalid, "error");
      }
    }).catch(function () { say(text.offline, "error"); });
  }

  /* ---- wiring ---- */
  function syncMode() {
    var t = tool();
    var paints = kind !== "zones" && t !== "pan";
    viewport.dataset.mode = paints ? "paint" : "view";
    var objective = form.querySelector(".editor-objective");
    if (objective) objective.hidden = t !== "objective";
    form.querySelectorAll("[data-tool-help]").forEach(function (p) { p.hidden = p.dataset.toolHelp !== t; });
    linkFrom = null; moving = null;
    markSelected();
  }
  form.querySelectorAll('input[name="tool"]').forEach(function (r) { r.addEventListener("change", syncMode); });
  form.addEventListener("focusin", function (e) {
    // Touching a tool's own value (a level, a feature name) picks that tool.
    var label = e.target.closest(".tool");
    if (label && e.target.name !== "tool") { label.querySelector('input[name="tool"]').checked = true; syncMode(); }
  });
  viewport.addEventListener("map:paint-start", function () { stroke = {}; remember(); });
  viewport.addEventListener("map:paint-cell", function (e) { if (stroke) paintCell(e.detail.cell); });
  viewport.addEventListener("map:paint-end", function () { stroke = null; });
  viewport.addEventListener("map:select-cell", function (e) { if (kind === "zones") zoneTap(e.detail.cell); });

  var panel = form.querySelector(".zone-panel");
  if (panel) {
    panel.addEventListener("focusin", function (e) {
      if (e.target.matches("input") && selectedZone) remember();
    });
    panel.addEventListener("input", function (e) {
      if (!selectedZone) return;
      var zone = zones()[selectedZone];
      if (e.target.name === "zone-name") {
        zone.name = e.target.value;
        panel.querySelector("[data-zone-title]").textContent = zone.name || text.zone;
      }
      if (e.target.dataset.level) {
        zone.terrain = zone.terrain || {};
        zone.terrain[e.target.dataset.level] = parseInt(e.target.value, 10) || 0;
      }
      changed();
    });
    panel.querySelector('[data-editor="delete-zone"]').addEventListener("click", function () {
      if (!selectedZone) return;
      remember();
      var gone = selectedZone;
      delete zones()[gone];
      Object.keys(zones()).forEach(function (id) {
        zones()[id].neighbors = (zones()[id].neighbors || []).filter(function (z) { return z !== gone; });
      });
      showZone(null);
      changed();
    });
  }
  undoButton.addEventListener("click", function () {
    if (!history.length) return;
    model = JSON.parse(history.pop());
    undoButton.disabled = history.length === 0;
    form.querySelector('[name="width"]').value = model.width;
    form.querySelector('[name="height"]').value = model.height;
    if (selectedZone && !zones()[selectedZone]) showZone(null); else if (selectedZone) showZone(selectedZone);
    changed();
  });
  document.addEventListener("keydown", function (e) {
    if ((e.ctrlKey || e.metaKey) && e.key === "z" && !e.target.matches("input, textarea")) { e.preventDefault(); undoButton.click(); }
  });
  form.querySelector('[data-editor="save"]').addEventListener("click", save);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  form.querySelector('[name="name"]').addEventListener("input", function () { dirty = true; say(text.unsaved); });
  form.querySelector('[data-editor="resize"]').addEventListener("click", function () {
    var w = parseInt(form.querySelector('[name="width"]').value, 10);
    var h = parseInt(form.querySelector('[name="height"]').value, 10);
    if (!(w > 0 && h > 0)) return;
    remember();
    model.width = w; model.height = h;
    if (kind === "square") {
      model.data.cells = (model.data.cells || []).filter(function (c) { return c.at[0] < w && c.at[1] < h; });
      var squares = model.data.objective_squares || {};
      Object.keys(squares).forEach(function (id) { if (squares[id].at[0] >= w || squares[id].at[1] >= h) delete squares[id]; });
    } else if (kind === "hex") {
      model.data.hexes = (model.data.hexes || []).filter(function (c) { return c.col < w && c.row < h; });
    }
    window.MapView.reset(viewport);
    changed();
  });
  window.addEventListener("beforeunload", function (e) {
    if (dirty) { e.preventDefault(); e.returnValue = text.leave; return text.leave; }
  });
  syncMode();
})();
