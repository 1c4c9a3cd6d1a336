// Roster editor: "Undo" also takes back the last value typed, not only the last list change.
// The server undoes list changes (add, duplicate, move, remove) from the snapshot the form carries
// (_previous); a value typed since is undone here, in the page, so the tap never loses other typing.
// Kept out of the HTML because the content security policy forbids inline scripts.
(function () {
  "use strict";
  var FIELDS = "#roster-form input:not([type=hidden]):not([name^='_']), #roster-form select:not([name^='_']), #roster-form textarea";
  var atFocus = new WeakMap();
  var last = null; // {field, value}: the field last changed and the value it had before

  function valueOf(field) {
    return field.type === "checkbox" ? field.checked : field.value;
  }

  function undoButton() {
    return document.querySelector("#roster-form button[name='_undo']");
  }

  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches(FIELDS)) atFocus.set(event.target, valueOf(event.target));
  });

  document.addEventListener("change", function (event) {
    var field = event.target;
    if (!field.matches || !field.matches(FIELDS) || event.detail === "undo") return;
    var before = atFocus.has(field) ? atFocus.get(field) : null;
    if (before === null || before === valueOf(field)) return;
    last = {field: field, value: before};
    atFocus.set(field, valueOf(field));
    var button = undoButton();
    if (button) button.disabled = false;
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#roster-form button[name='_undo']");
    if (!button || !last || !document.contains(last.field)) return;
    event.preventDefault(); // a typed value: put it back here, the sheet recomputes as after any change
    if (last.field.type === "checkbox") last.field.checked = last.value;
    else last.field.value = last.value;
    last.field.dispatchEvent(new CustomEvent("change", {bubbles: true, detail: "undo"}));
    last.field.focus();
    last = null;
    if (!button.dataset.server) button.disabled = true;
  });

  // A new editor (after a list change) starts with nothing typed to undo; a new sheet changes nothing.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "roster-editor") last = null;
  });
})();
