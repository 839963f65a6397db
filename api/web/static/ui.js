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

  // Another paste area for an option file.
  var addButton = document.querySelector("button[data-add-mycnf]");
  var entries = document.querySelector("[data-mycnf-entries]");
  if (addButton && entries) {
    addButton.hidden = false;
    addButton.addEventListener("click", function () {
      var blanks = entries.querySelectorAll(".mycnf-entry");
      var template = blanks[blanks.length - 1];
      var copy = template.cloneNode(true);
      var number = blanks.length + 1;
      var key = "mycnf-added-" + number;
      copy.id = key;
      copy.classList.remove("has-error");
      copy.querySelectorAll(".error-message").forEach(function (node) { node.remove(); });
      var path = copy.querySelector("input"), text = copy.querySelector("textarea"), labels = copy.querySelectorAll("label");
      path.id = key + "-path"; path.value = ""; labels[0].htmlFor = path.id; labels[0].textContent = "Path of option file " + number;
      text.id = key + "-text"; text.value = ""; labels[1].htmlFor = text.id; labels[1].textContent = "Text of option file " + number;
      text.removeAttribute("aria-invalid"); text.removeAttribute("aria-describedby");
      entries.appendChild(copy);
      path.focus();
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
