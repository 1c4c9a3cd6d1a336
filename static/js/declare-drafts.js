/* Nothing a player chose in a declaration form is lost before it is saved.
 *
 * Pressing Declare on one participant, or a live refresh, swaps the whole declare part
 * (#battle-declare): every other form comes back as the server has it. So each change to a form is
 * kept as a draft in localStorage (it outlives a closed tab or a phone that drops the page), one per
 * battle, round and participant, and put back into the fresh form, marked "not saved yet". A draft is
 * dropped when that participant's saved declaration changed since the draft was started
 * (data-saved-at: saved on another device, or by the GM), when the server says the form was just
 * saved (data-just-saved), or when its values are those saved again.
 *
 * "Declare all my units" ([data-declare-all], under a player's forms) is the one Declare of the round:
 * it queues every form the round waits for or that holds a draft, and they are sent one after the
 * other (each answer swaps the part, the next goes once the swap is done), through the same queue as
 * a resend. One request per form rather than one for all: each participant's declaration is checked
 * by the engine and saved on its own, so a refusal stays on its form's fields while the others save;
 * and nothing is saved as the player goes (no autosave), since a saved declaration counts as given
 * and may start the round's resolution.
 *
 * A Declare that cannot go through (no network, the server down or busy: htmx:sendError, or
 * htmx:responseError with a 5xx, 408 or 429) stays on the page, marked "not sent — will retry"; it
 * is sent again, one form at a time, when the network comes back (the online event, or the live
 * link reconnecting: #live-status turns .online), and on a timer until it goes through. The server
 * answers an identical resend as already saved (views._already_saved). The texts come in the page's
 * language from the script tag's data attributes.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  var room = document.querySelector(".battle-room[data-battle]");
  var store = null;
  try { store = window.localStorage; } catch (e) { /* storage off: the forms work without drafts */ }
  if (!room || !store) return;
  var text = {
    unsaved: script.dataset.unsaved || "Not saved yet",
    unsent: script.dataset.unsent || "Not sent — will retry",
    queued: script.dataset.queued || "Sending…",
    refused: script.dataset.refused || "Not sent: reload the page",
  };
  var PREFIX = "declare-draft:" + room.dataset.battle + ":";
  var SKIP = { csrfmiddlewaretoken: 1, participant: 1, round: 1 };
  var RETRY_MS = 5000;
  var pristine = new WeakMap(); // form -> its values as the server rendered them
  var timer = null;

  function forms() { return document.querySelectorAll("#battle-declare form.declare-form[data-participant]"); }
  function keyOf(form) { return PREFIX + form.dataset.round + ":" + form.dataset.participant; }

  function read(form) {
    try { return JSON.parse(store.getItem(keyOf(form))); } catch (e) { return null; }
  }

  function write(form, draft) {
    try { store.setItem(keyOf(form), JSON.stringify(draft)); } catch (e) { /* storage full or off: the page still works */ }
  }

  function drop(form) { store.removeItem(keyOf(form)); }

  function values(form) {
    var out = [];
    new FormData(form).forEach(function (value, name) { if (!SKIP[name]) out.push([name, String(value)]); });
    return out;
  }

  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  // Puts the draft's values back: each named control takes the value(s) the draft has under its name.
  // No change event: the map (battle-map.js) draws its pickers from the form after the same swap.
  function apply(form, pairs) {
    var byName = {};
    pairs.forEach(function (pair) { (byName[pair[0]] = byName[pair[0]] || []).push(pair[1]); });
    var seen = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      var name = field.name;
      if (!name || SKIP[name] || field.disabled) return;
      var wanted = byName[name] || [];
      if (field.type === "checkbox" || field.type === "radio") {
        field.checked = wanted.indexOf(field.value) !== -1;
      } else if (field.tagName === "SELECT") {
        Array.prototype.forEach.call(field.options, function (option) { option.selected = wanted.indexOf(option.value) !== -1; });
      } else if (field.type !== "submit" && field.type !== "button" && field.type !== "file") {
        var index = seen[name] || 0;
        seen[name] = index + 1;
        field.value = index < wanted.length ? wanted[index] : "";
      }
    });
  }

  function mark(form, state) {
    form.classList.toggle("draft-unsaved", state === "unsaved");
    form.classList.toggle("draft-unsent", state === "unsent" || state === "refused");
    form.classList.toggle("draft-queued", state === "queued");
    if (state) form.dataset.draft = state; else delete form.dataset.draft;
    Array.prototype.forEach.call(form.querySelectorAll("[data-draft-state]"), function (note) {
      note.hidden = !state;
      note.textContent = state ? text[state] : "";
    });
  }

  // A form freshly on the page: remember how it came, then give it back its draft if that still holds.
  function adopt(form) {
    pristine.set(form, values(form));
    var draft = read(form);
    if (!draft) return;
    if (form.hasAttribute("data-just-saved") || draft.base !== form.dataset.savedAt) { drop(form); return; }
    apply(form, draft.values);
    var waiting = draft.state === "unsent" || draft.state === "queued";
    if (same(values(form), pristine.get(form)) && !waiting) { drop(form); return; }
    mark(form, waiting ? draft.state : "unsaved");
  }

  // Forms new on the page (the declare part swapped, a GM's fold loaded); those already there keep theirs.
  function adoptNew() {
    Array.prototype.forEach.call(forms(), function (form) { if (!pristine.has(form)) adopt(form); });
    forgetOtherRounds();
    showDeclareAll();
    if (pending().length) schedule();
  }

  // Drafts of rounds this page no longer shows are of no use.
  function forgetOtherRounds() {
    var first = forms()[0];
    if (!first) return;
    var current = PREFIX + first.dataset.round + ":";
    for (var i = store.length - 1; i >= 0; i--) {
      var name = store.key(i);
      if (name && name.indexOf(PREFIX) === 0 && name.indexOf(current) !== 0) store.removeItem(name);
    }
  }

  function remember(form, state) {
    var now = values(form);
    if (same(now, pristine.get(form)) && state === "unsaved") { drop(form); mark(form, null); return; }
    var draft = read(form) || { base: form.dataset.savedAt };
    draft.values = now;
    draft.state = state;
    write(form, draft);
    mark(form, state);
  }

  function onEdit(event) {
    var form = event.target.closest && event.target.closest("#battle-declare form.declare-form[data-participant]");
    if (!form || !pristine.has(form)) return;
    var draft = read(form);
    // A change to a form waiting to be sent keeps it waiting: the next try sends the new values.
    remember(form, draft && (draft.state === "unsent" || draft.state === "queued") ? draft.state : "unsaved");
  }

  function pending() {
    return Array.prototype.filter.call(forms(), function (form) {
      return form.dataset.draft === "unsent" || form.dataset.draft === "queued";
    });
  }

  // The forms "Declare all" sends: those the round waits for, and those holding a draft not saved yet.
  function toDeclare() {
    return Array.prototype.filter.call(forms(), function (form) {
      return form.hasAttribute("data-awaited") || form.dataset.draft === "unsaved";
    });
  }

  function showDeclareAll() {
    var button = document.querySelector("#battle-declare [data-declare-all]");
    if (button) button.hidden = !toDeclare().length;
  }

  function declareAll() {
    toDeclare().forEach(function (form) { remember(form, "queued"); });
    retry();
    schedule();
  }

  function retry() {
    if (navigator.onLine === false) return;
    if (document.querySelector("#battle-declare form.declare-form.htmx-request")) return; // one at a time
    var form = pending()[0];
    if (form) form.requestSubmit();
  }

  function schedule() {
    if (timer) return;
    timer = setInterval(function () {
      if (!pending().length) { clearInterval(timer); timer = null; return; }
      retry();
    }, RETRY_MS);
  }

  function failed(event) {
    var form = event.detail.elt;
    if (!form || !form.matches || !form.matches("#battle-declare form.declare-form")) return;
    // Nothing is sent while the network is away: every form queued by "Declare all" waits, marked.
    pending().forEach(function (other) { if (other !== form) remember(other, "unsent"); });
    var code = event.detail.xhr ? event.detail.xhr.status : 0;
    var again = !code || code >= 500 || code === 408 || code === 429;
    remember(form, again ? "unsent" : "refused");
    if (again) schedule();
  }

  // The server answered this form (saved, or refused with the reasons on its fields): no longer one to
  // resend. Before the swap, so that the form coming back is not sent again at once.
  function answered(event) {
    var form = event.detail.elt;
    var draft = form && form.matches && form.matches("#battle-declare form.declare-form") ? read(form) : null;
    if (!draft || !event.detail.xhr || event.detail.xhr.status >= 300) return;
    draft.state = "unsaved";
    write(form, draft);
  }

  document.addEventListener("input", onEdit);
  document.addEventListener("change", onEdit);
  document.addEventListener("change", showDeclareAll);
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#battle-declare [data-declare-all]")) declareAll();
  });
  document.body.addEventListener("htmx:sendError", failed);
  document.body.addEventListener("htmx:responseError", failed);
  document.body.addEventListener("htmx:beforeSwap", answered);
  // On the body, so that this runs before battle-map.js's handler on the document redraws the pickers.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    var declare = document.getElementById("battle-declare");
    if (!declare || !event.detail.target || !declare.contains(event.detail.target)) return;
    adoptNew();
    retry();
  });
  window.addEventListener("online", retry);
  var live = document.getElementById("live-status");
  if (live && "MutationObserver" in window) {
    new MutationObserver(function () { if (live.classList.contains("online")) retry(); })
      .observe(live, { attributes: true, attributeFilter: ["class"] });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", adoptNew);
  else adoptNew();
})();
