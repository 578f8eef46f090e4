// The message limit in the sidebar: a character counter, Send marked unavailable while the text is over
// MESSAGE_MAX_CHARS, and a message over it (or an empty or blank one) refused before it is sent, saying why,
// with the typed text left where it is.
function input() { return document.getElementById("assistant-message"); }
function counter() { return document.getElementById("assistant-count"); }

// Characters as the server counts them (code points, not UTF-16 units).
function length(text) { return Array.from(text).length; }

export function over() {
  var box = input();
  if (!box) return 0;
  var max = Number(box.dataset.maxChars || 0);
  return max ? Math.max(0, length(box.value) - max) : 0;
}

function send() { return document.querySelector("#assistant .assistant-form button[type=submit]"); }

var EMPTY = "Type a message first: Send needs some text.";

export function update() {
  var box = input(), count = counter();
  if (!box || !count) return;
  var max = Number(box.dataset.maxChars || 0), used = length(box.value), extra = over();
  count.hidden = used === 0;
  count.textContent = extra
    ? used + " / " + max + " characters: " + extra + " too many. Shorten the message to send it."
    : used + " / " + max;
  count.classList.toggle("over", extra > 0);
  if (extra) box.setAttribute("aria-invalid", "true"); else box.removeAttribute("aria-invalid");
  // Marked rather than disabled: a click still says why it sends nothing.
  var button = send();
  if (button) {
    // Only the mark set here is taken off: a request in flight marks the button too (assistant_compose.js).
    var marked = button.classList.contains("is-unavailable");
    button.classList.toggle("is-unavailable", extra > 0);
    if (extra) button.setAttribute("aria-disabled", "true");
    else if (marked) button.removeAttribute("aria-disabled");
  }
}

// An empty or blank message is not sent; the counter's line says so until the user types.
export function refuseEmpty() {
  var box = input(), count = counter();
  if (!box || !count) return;
  count.hidden = false;
  count.textContent = EMPTY;
  count.classList.add("over");
  box.setAttribute("aria-invalid", "true");
  box.value = "";
  box.focus();
}

document.addEventListener("input", function (event) { if (event.target === input()) update(); });
document.addEventListener("htmx:afterSettle", update);
document.addEventListener("submit", function (event) {
  if (event.target.matches && event.target.matches("#assistant .assistant-form") && input() && !input().value.trim()) {
    event.preventDefault();
    event.stopImmediatePropagation();
    refuseEmpty();
  }
}, true);

// Refused before sending: this listener is registered before the one that echoes and clears the input
// (assistant_compose.js imports this module, so this one is evaluated, and its listeners added, first).
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail.elt;
  if (!elt.matches || !elt.matches("#assistant .assistant-form")) return;
  if (input() && !input().value.trim()) {
    event.preventDefault();
    event.stopImmediatePropagation();
    refuseEmpty();
    return;
  }
  if (!over()) return;
  event.preventDefault();
  // Nothing else hears of it: the text is not echoed as sent, nor cleared.
  event.stopImmediatePropagation();
  update();
  input().focus();
});
