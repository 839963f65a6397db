// Small improvements over the plain HTML pages; everything works without this file.
(function () {
  "use strict";

  // The error summary takes the focus, so keyboard and screen-reader users start from it.
  var summary = document.querySelector(".error-summary[tabindex]");
  if (summary) { summary.focus(); }

  // Copy buttons: shown only when a script can run them.
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) { return navigator.clipboard.writeText(text); }
    var area = document.createElement("textarea");
    area.value = text; area.setAttribute("readonly", ""); area.style.position = "absolute"; area.style.left = "-9999px";
    document.body.appendChild(area); area.select();
    try { document.execCommand("copy"); } finally { document.body.removeChild(area); }
    return Promise.resolve();
  }
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", function () {
      var source = document.getElementById(button.getAttribute("data-copy"));
      if (!source) { return; }
      copyText(source.textContent).then(function () {
        button.textContent = "Copied";
        setTimeout(function () { button.textContent = label; }, 2000);
      });
    });
  });

  // Another option-file row (path, upload, paste), numbered after the last one.
  var addButton = document.querySelector("button[data-add-mycnf]");
  var entries = document.querySelector("[data-mycnf-entries]");
  if (addButton && entries) {
    var maxRows = parseInt(entries.getAttribute("data-max-rows"), 10) || 16;
    addButton.hidden = false;
    addButton.addEventListener("click", function () {
      var rows = entries.querySelectorAll(".mycnf-entry");
      var template = rows[rows.length - 1];
      var copy = template.cloneNode(true);
      var number = rows.length + 1, oldKey = template.id, key = "mycnf-" + rows.length;
      copy.id = key;
      copy.classList.remove("has-error");
      copy.querySelectorAll(".error-message").forEach(function (node) { node.remove(); });
      copy.querySelectorAll("input, textarea").forEach(function (control) {
        control.id = control.id.replace(oldKey, key);
        control.value = "";
        control.removeAttribute("aria-invalid"); control.removeAttribute("aria-describedby");
      });
      copy.querySelectorAll("label").forEach(function (label) {
        label.htmlFor = label.htmlFor.replace(oldKey, key);
        label.textContent = label.textContent.replace(/\d+$/, String(number));
      });
      entries.appendChild(copy);
      copy.querySelector("input").focus();
      addButton.hidden = number >= maxRows;
    });
  }

  // The progress page: ask for the status twice a second, show the result when it is done.
  var progress = document.querySelector("[data-poll-url]");
  if (progress) {
    var url = progress.getAttribute("data-poll-url");
    var label = progress.querySelector("[data-status]");
    var poll = function () {
      fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (body) {
          if (!body) { return; }
          if (label) { label.textContent = body.status; }
          if (body.status === "succeeded" || body.status === "failed") { window.location.reload(); }
          else { setTimeout(poll, 500); }
        })
        .catch(function () { setTimeout(poll, 1000); });
    };
    setTimeout(poll, 300);
  }
})();

// The form: a file over the size limit is said beside its field before anything is sent, so nothing
// typed is lost (the server says the same after a post, and refuses a whole form over its limit).
(function () {
  "use strict";
  var form = document.querySelector("form[data-max-file-bytes]");
  if (!form) { return; }
  var maxFile = parseInt(form.getAttribute("data-max-file-bytes"), 10);
  var maxBody = parseInt(form.getAttribute("data-max-body-bytes"), 10);
  function mib(bytes) { return (bytes / 1048576).toFixed(1) + " MiB"; }
  function say(input, message) {
    var old = input.parentNode.querySelector(".error-message[data-client]");
    if (old) { old.remove(); }
    input.removeAttribute("aria-invalid");
    if (!message) { return; }
    var note = document.createElement("p");
    note.className = "error-message"; note.setAttribute("data-client", ""); note.setAttribute("role", "alert");
    note.id = input.id + "-size-error"; note.textContent = message;
    input.parentNode.insertBefore(note, input.nextSibling);
    input.setAttribute("aria-invalid", "true"); input.setAttribute("aria-describedby", note.id);
  }
  function check(input) {
    var file = input.files && input.files[0];
    var label = document.querySelector("label[for='" + input.id + "']");
    var name = label ? label.textContent.trim() : "File";
    if (file && file.size > maxFile) {
      say(input, name + ": " + file.name + " is " + mib(file.size) + "; the limit is " + mib(maxFile) + " a file.");
      return false;
    }
    say(input, null);
    return true;
  }
  form.addEventListener("change", function (event) {
    if (event.target.type === "file") { check(event.target); }
  });
  form.addEventListener("submit", function (event) {
    var total = 0, ok = true, first = null;
    form.querySelectorAll("input[type=file]").forEach(function (input) {
      if (input.files && input.files[0]) { total += input.files[0].size; }
      if (!check(input)) { ok = false; first = first || input; }
    });
    if (ok && total > maxBody) {
      first = form.querySelector("input[type=file]");
      say(first, "The files together are " + mib(total) + "; the form takes at most " + mib(maxBody) + ".");
      ok = false;
    }
    if (!ok) { event.preventDefault(); first.focus(); }
  });
})();

// Printing (a PDF from the browser): every folded drift row is printed too.
window.addEventListener("beforeprint", function () {
  document.querySelectorAll("details.drift-more").forEach(function (details) { details.open = true; });
});
