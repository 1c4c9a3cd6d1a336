/* Confirmations before an action that cannot be taken back: form[data-confirm].
 *
 * The form says the sentence to ask (data-confirm="Undo round 2?") and carries a checkbox
 * that makes the question work without JavaScript:
 *   <label class="confirm-check"><input type="checkbox" name="confirm" required> I am sure</label>
 * (the browser will not submit until it is ticked). With this script the checkbox is hidden and a
 * submit opens a <dialog> instead: the sentence, the content of the form's [data-confirm-body]
 * element if it has one (a list of who is missing, say: hidden on the page, shown in the dialog),
 * "Cancel" (focused first; Escape does the same) and a button named like the one pressed. Confirming
 * ticks the box and submits again, the way the form would have (htmx included, which hears only the
 * confirmed submit). The script tag gives the cancel button's words: data-cancel="Cancel".
 * Forms arriving later (htmx swaps) are handled too: everything is decided at submit time.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  var cancelText = (script && script.dataset.cancel) || "Cancel";
  var dialog = null;

  function enhance(root) {
    if (!window.HTMLDialogElement) return;  // the checkbox keeps asking instead
    (root || document).querySelectorAll("form[data-confirm]").forEach(function (form) {
      form.querySelectorAll(".confirm-check").forEach(function (label) { label.hidden = true; });
      form.querySelectorAll("[data-confirm-body]").forEach(function (body) { body.hidden = true; });
      var box = form.querySelector('input[name="confirm"]');
      if (box) box.required = false;
    });
  }

  function build() {
    dialog = document.createElement("dialog");
    dialog.className = "confirm-dialog";
    dialog.setAttribute("aria-labelledby", "confirm-dialog-text");
    dialog.innerHTML = '<form method="dialog"><p id="confirm-dialog-text" class="confirm-text"></p>' +
      '<div class="confirm-body"></div><div class="confirm-actions">' +
      '<button type="submit" value="cancel" class="button" data-confirm-cancel autofocus></button>' +
      '<button type="submit" value="ok" class="button danger" data-confirm-ok></button></div></form>';
    dialog.querySelector("[data-confirm-cancel]").textContent = cancelText;
    document.body.appendChild(dialog);
    return dialog;
  }

  function ask(form, submitter) {
    var box = dialog || build();
    box.querySelector(".confirm-text").textContent = form.getAttribute("data-confirm");
    var body = box.querySelector(".confirm-body");
    body.replaceChildren();
    var details = form.querySelector("[data-confirm-body]");
    if (details) Array.prototype.forEach.call(details.childNodes, function (node) { body.appendChild(node.cloneNode(true)); });
    body.hidden = !details;
    var label = submitter ? (submitter.textContent || submitter.value || "").trim() : "";
    box.querySelector("[data-confirm-ok]").textContent = label || "OK";
    box.returnValue = "";
    box.onclose = function () {
      if (box.returnValue !== "ok") { if (submitter) submitter.focus(); return; }
      var check = form.querySelector('input[name="confirm"]');
      if (check) check.checked = true;
      form.dataset.confirmed = "1";
      if (form.requestSubmit) form.requestSubmit(submitter || undefined); else form.submit();
    };
    box.showModal();
  }

  // Capture phase on the document: heard before htmx's own listener on the form, so an
  // unconfirmed submit never reaches it.
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches("form[data-confirm]") || !window.HTMLDialogElement) return;
    if (form.dataset.confirmed) { delete form.dataset.confirmed; return; }
    e.preventDefault();
    e.stopImmediatePropagation();
    ask(form, e.submitter || null);
  }, true);

  // A form swapped in by htmx (the status part reloads on every live event) is enhanced as it
  // arrives; and a press on a submit button enhances its form first, in the capture phase, so the
  // no-script checkbox can never block a submit that the dialog should ask about.
  document.addEventListener("htmx:load", function (e) { enhance(e.target.parentNode || e.target); });
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button, input[type=submit]");
    var form = button && button.form;
    if (form && form.matches("form[data-confirm]")) enhance(form.parentNode || document);
  }, true);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { enhance(); });
  else enhance();
})();
