// An answer's tools: Copy puts its text on the clipboard, Edit puts the question back in the input to
// change and send again (Retry sends it again as it was: an htmx request like any other). A quick
// button's answer is retried by pressing the page's own quick button of that action, so the request
// carries this page's context; its Retry shows only while the page offers that button.
var COPIED_FOR_MS = 2000;

// The answer as a reader would copy it: the prose, then one line per task listed.
function answerText(run) {
  var reply = run.querySelector(".run-reply");
  var lines = [reply ? reply.innerText.trim() : ""];
  run.querySelectorAll(".run-items li").forEach(function (li) { lines.push("- " + li.innerText.replace(/\s+/g, " ").trim()); });
  return lines.filter(Boolean).join("\n");
}

function copy(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  // Without the async clipboard (a plain-http address), the selection is copied the old way.
  var area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  var ok = document.execCommand("copy");
  area.remove();
  return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
}

function say(button, words) {
  var first = button.firstChild;
  if (!button.dataset.label) button.dataset.label = first.textContent;
  first.textContent = words;
  window.setTimeout(function () { first.textContent = button.dataset.label; }, COPIED_FOR_MS);
}

function pageButton(action) {
  var found = null;
  document.querySelectorAll("#assistant .assistant-quick [data-assistant-action]").forEach(function (button) {
    if (!found && button.getAttribute("data-assistant-action") === action && !button.hidden) found = button;
  });
  return found;
}

function offerRetries() {
  document.querySelectorAll("[data-retry-action]").forEach(function (retry) {
    retry.hidden = !pageButton(retry.getAttribute("data-retry-action"));
  });
}

document.addEventListener("DOMContentLoaded", offerRetries);
document.addEventListener("htmx:afterSettle", offerRetries);

document.addEventListener("click", function (event) {
  var retry = event.target.closest("[data-retry-action]");
  if (retry) {
    var button = pageButton(retry.getAttribute("data-retry-action"));
    if (button) button.click(); else retry.hidden = true;
    return;
  }
  var copyButton = event.target.closest("[data-copy-run]");
  if (copyButton) {
    var run = copyButton.closest(".run");
    copy(answerText(run)).then(function () { say(copyButton, "Copied"); },
                               function () { say(copyButton, "Copy failed"); });
    return;
  }
  var edit = event.target.closest("[data-edit-message]");
  if (edit) {
    var input = document.getElementById("assistant-message");
    if (!input) return;
    input.value = edit.getAttribute("data-edit-message");
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }
});
