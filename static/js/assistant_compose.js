// Sending to the assistant: the message echoed at once with a working bubble, one request at a time,
// Stop for a typed message, Enter to send and "/" to jump to the input from anywhere on the page.
(function () {
  "use strict";

  var SLOW_AFTER_MS = 4000;
  var flight = null; // { elt, pending, text, typed, stopped, slowTimer } while a request is out
  var lastStopped = null; // the typed text put back by the last Stop, until the server says how the run ended

  function form() { return document.querySelector("#assistant .assistant-form"); }
  function input() { return document.getElementById("assistant-message"); }
  function transcript() { return document.getElementById("assistant-transcript"); }

  // A request to the assistant: the message form, a quick button, a row button or a suggestion chip.
  function isAssistantRequest(elt) {
    var f = form();
    var url = f && f.getAttribute("hx-post");
    return Boolean(url && elt.getAttribute && elt.getAttribute("hx-post") === url);
  }

  function controls() {
    // Switching conversations mid-request would land the answer in the wrong transcript.
    // An answered project choice stays disabled (assistant_picker.js).
    return document.querySelectorAll("[data-assistant-action], #assistant .assistant-quick:not([data-answered]) .chip, "
      + "#assistant .assistant-form button[type=submit], #assistant-new-conversation, #assistant-history .history-item");
  }

  // Put text in the input as typing would, so the character counter follows.
  function setText(text) {
    var box = input();
    if (!box) return;
    box.value = text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function setBusy(busy, typed) {
    controls().forEach(function (button) {
      // Disabling the focused button would drop focus to the page: mark it instead, the guard below holds.
      if (button === document.activeElement) button.setAttribute("aria-disabled", String(busy));
      else button.disabled = busy;
      if (!busy) { button.disabled = false; button.removeAttribute("aria-disabled"); }
    });
    var f = form();
    if (f) f.setAttribute("aria-busy", String(busy));
    var stop = document.getElementById("assistant-stop");
    var send = f && f.querySelector("button[type=submit]");
    if (stop) stop.hidden = !(busy && typed);
    if (send) send.hidden = Boolean(busy && typed);
  }

  function echo(text) {
    var run = document.createElement("article");
    run.className = "run run-pending";
    run.setAttribute("data-pending", "");
    var mine = document.createElement("div");
    mine.className = "bubble bubble-user";
    mine.textContent = text;
    var working = document.createElement("div");
    working.className = "bubble bubble-assistant bubble-working";
    working.setAttribute("role", "status");
    var dots = document.createElement("span");
    dots.className = "working-dots";
    dots.setAttribute("aria-hidden", "true");
    var words = document.createElement("span");
    words.className = "working-words";
    words.textContent = "Working\u2026";
    working.append(dots, words);
    run.append(mine, working);
    var box = transcript();
    if (box) box.appendChild(run);
    // The user's own message always brings the transcript to its end.
    if (window.pmAssistant) window.pmAssistant.scrollToBottom();
    return run;
  }

  function label(elt) {
    if (elt.matches("form")) return (input() && input().value.trim()) || "";
    if (elt.hasAttribute("data-message")) return elt.getAttribute("data-message"); // Retry: the message itself
    return (elt.getAttribute("title") || elt.textContent || "").replace(/\s*\((asks first|assistant)\)$/, "").trim();
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    // Opening another conversation while an answer is on its way would put it in the wrong transcript
    // (the Recent list loads its buttons later, so they cannot all be disabled beforehand).
    if (flight && elt.closest && elt.closest("#assistant-history .history-item, #assistant-history .history-delete")) {
      event.preventDefault();
      return;
    }
    if (!isAssistantRequest(elt)) return;
    if (flight) { event.preventDefault(); return; } // one request at a time: no double submits
    var typed = elt.matches("form");
    var text = label(elt);
    flight = { elt: elt, text: text, typed: typed, stopped: false, pending: echo(text) };
    flight.slowTimer = window.setTimeout(function () {
      // Not while the answer is visibly streaming in (assistant_stream.js): then the model is not slow.
      var words = flight && !flight.pending.querySelector(".working-text")
        && flight.pending.querySelector(".working-words");
      if (words) words.textContent = (flight.pending.dataset.stage || "Still working") + "\u2026 the model is taking a while.";
    }, SLOW_AFTER_MS);
    if (typed && input()) setText("");
    setBusy(true, typed);
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (!flight || event.detail.elt !== flight.elt) return;
    var done = flight;
    flight = null;
    window.clearTimeout(done.slowTimer);
    setBusy(false, done.typed);
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (done.stopped) {
      done.pending.classList.add("run-stopped");
      var words = done.pending.querySelector(".working-words");
      var dots = done.pending.querySelector(".working-dots");
      if (dots) dots.remove();
      // The browser stopped waiting; assistant_stream.js tells the server and shows the run as it ended.
      if (words) words.textContent = "Stopped.";
      // After the form's own after-request handler, which clears it.
      lastStopped = done.typed ? done.text : null;
      window.setTimeout(function () { if (input()) { setText(done.text); input().focus(); } }, 0);
      return;
    }
    done.pending.remove();
    // The server refused the message or answered nothing usable: give the user their text back.
    if ((status === 0 || status >= 400) && done.typed && input() && !input().value) setText(done.text);
  });

  // The run had finished before Stop reached the server (its answer was still on its way): the
  // message was acted on, so it is not left in the input to be sent again.
  document.addEventListener("assistant:stopped-too-late", function () {
    var box = input();
    if (box && lastStopped !== null && box.value === lastStopped) setText("");
    lastStopped = null;
  });

  document.addEventListener("click", function (event) {
    if (!event.target.closest("#assistant-stop") || !flight) return;
    flight.stopped = true;
    window.htmx.trigger(flight.elt, "htmx:abort");
  });

  // Enter sends, Shift+Enter starts a new line; a composing input method keeps its Enter.
  document.addEventListener("keydown", function (event) {
    if (event.target !== input() || event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    if (flight) return;
    // An empty or blank message is refused with a word, not ignored (assistant_limit.js).
    if (!input().value.trim()) { if (window.pmAssistantLimit) window.pmAssistantLimit.refuseEmpty(); return; }
    form().requestSubmit();
  });

  // "/" from anywhere outside a field opens the assistant and puts the cursor in its input.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var t = event.target;
    if (t.isContentEditable || (t.closest && t.closest("input, textarea, select"))) return;
    if (!input()) return;
    event.preventDefault();
    if (window.pmAssistant) window.pmAssistant.open({ focusInput: true });
  });

  // Alt+Shift+A anywhere, in a field too, shows or hides the assistant (the top bar's button): no browser
  // binds it, and the physical key is read, so a layout where Option+Shift+A types a letter works alike.
  document.addEventListener("keydown", function (event) {
    if (event.code !== "KeyA" || !event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey) return;
    var toggle = document.getElementById("assistant-toggle");
    if (!toggle) return;
    event.preventDefault();
    toggle.click();
    window.setTimeout(function () {
      var shown = document.getElementById("assistant");
      if (shown && shown.getClientRects().length && input()) input().focus();
      else toggle.focus();
    }, 0);
  });
})();
