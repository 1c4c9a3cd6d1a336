// Roster pages: the print button, and a confirmation before deleting.
// Kept out of the HTML because the content security policy forbids inline handlers.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (button) window.print();
  });
  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });
})();

// An import file larger than a request may carry is refused here, with the form's own message, before it is
// sent: the server would answer a bare "too large" for the whole request.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var input = event.target.closest("input[type=file][data-max-bytes]");
    if (!input) return;
    var file = input.files && input.files[0];
    var tooLarge = file && file.size > Number(input.dataset.maxBytes);
    input.setCustomValidity(tooLarge ? input.dataset.tooLarge : "");
    var field = input.closest(".field");
    var note = field && field.querySelector(".file-too-large");
    if (field && tooLarge && !note) {
      note = document.createElement("p");
      note.className = "errorlist file-too-large";
      note.setAttribute("role", "alert");
      field.appendChild(note);
    }
    if (note) note.textContent = tooLarge ? input.dataset.tooLarge : "";
    if (tooLarge) input.reportValidity();
  });
})();
