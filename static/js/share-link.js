/* The invitation page's link: a "Copy the link" button and, where the browser has the Web Share API,
 * a "Share" button (the phone's own share sheet). Both are rendered hidden: without this script, or
 * without navigator.share, they would do nothing. Copying goes through the Clipboard API; where it is
 * refused (plain HTTP on a LAN address is not a secure context) the link is selected and copied the
 * old way, and the status line says which happened.
 */
(function () {
  "use strict";

  function setUp(box) {
    var input = box.querySelector("input");
    var copy = box.querySelector("[data-copy]");
    var share = box.querySelector("[data-share]");
    var status = box.querySelector("[data-share-status]");
    if (!input) return;

    function say(text) { if (status) status.textContent = text; }

    function selectLink() {
      input.focus();
      input.select();
      input.setSelectionRange(0, input.value.length);
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
      say(copied ? copy.dataset.done : copy.dataset.selected);
    }

    if (copy) {
      copy.hidden = false;
      copy.addEventListener("click", function () {
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(input.value).then(function () { say(copy.dataset.done); }, selectLink);
        } else {
          selectLink();
        }
      });
    }
    if (share && navigator.share) {
      share.hidden = false;
      share.addEventListener("click", function () {
        navigator.share({ title: share.dataset.title, url: input.value }).catch(function () {});  // dismissed: nothing to say
      });
    }
  }

  function start() { document.querySelectorAll("[data-share-link]").forEach(setUp); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
