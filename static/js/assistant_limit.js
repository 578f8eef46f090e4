// The message limit in the sidebar: a character counter, and a message over MESSAGE_MAX_CHARS is
// refused before it is sent, with the typed text left where it is.
(function () {
  "use strict";

  function input() { return document.getElementById("assistant-message"); }
  function counter() { return document.getElementById("assistant-count"); }

  // Characters as the server counts them (code points, not UTF-16 units).
  function length(text) { return Array.from(text).length; }

  function over() {
    var box = input();
    if (!box) return 0;
    var max = Number(box.dataset.maxChars || 0);
    return max ? Math.max(0, length(box.value) - max) : 0;
  }

  function update() {
    var box = input(), count = counter();
    if (!box || !count) return;
    var max = Number(box.dataset.maxChars || 0), used = length(box.value), extra = over();
    count.hidden = used === 0;
    count.textContent = extra
      ? used + " / " + max + " characters: " + extra + " too many. Shorten the message to send it."
      : used + " / " + max;
    count.classList.toggle("over", extra > 0);
    if (extra) box.setAttribute("aria-invalid", "true"); else box.removeAttribute("aria-invalid");
  }

  document.addEventListener("input", function (event) { if (event.target === input()) update(); });
  document.addEventListener("htmx:afterSettle", update);

  // Refused before sending: this listener is registered before the one that echoes and clears the input.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt.matches || !elt.matches("#assistant .assistant-form") || !over()) return;
    event.preventDefault();
    // Nothing else hears of it: the text is not echoed as sent, nor cleared.
    event.stopImmediatePropagation();
    update();
    input().focus();
  });
})();
