// Sending to the assistant: the message echoed at once with a working bubble, one request at a time (a
// message typed meanwhile waits, shown as queued, and goes when the answer lands), Stop for a typed
// message, Enter to send and "/" to jump to the input from anywhere on the page.
import * as limit from "./assistant_limit.js";
import { openAssistant } from "./assistant_shell.js";
import { scrollToBottom } from "./assistant_follow.js";

var SLOW_AFTER_MS = 4000;
var flight = null; // { elt, pending, text, typed, stopped, slowTimer } while a request is out
var stopping = null; // { text, typed } of the last Stop, until the server says how the run ended
var queued = null; // { text, bubble } a message sent while a request was out: it goes when that one lands

var WORDS = {
  stopping: "Stopping\u2026 asking the assistant whether anything was already done.",
  unknown: "Stopped waiting for the answer. The request may still have reached the assistant: "
    + "if it did, its answer appears in this conversation.",
  queued: "Queued: sends when the answer above arrives.",
  cancel: "Cancel",
  alreadyQueued: "One message is already queued: this one stays here until that one is sent.",
};

function form() { return document.querySelector("#assistant .assistant-form"); }
function input() { return document.getElementById("assistant-message"); }
function transcript() { return document.getElementById("assistant-transcript"); }

// A request to the assistant: the message form, a quick button, a row button or a suggestion chip.
export function isAssistantRequest(elt) {
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
  scrollToBottom();
  return run;
}

// A message sent while another request is out: shown in the transcript as queued, sent when it lands.
function queue(text) {
  var run = document.createElement("article");
  run.className = "run run-queued";
  var mine = document.createElement("div");
  mine.className = "bubble bubble-user";
  mine.textContent = text;
  var note = document.createElement("p");
  note.className = "run-queued-note muted";
  note.setAttribute("role", "status");
  note.textContent = WORDS.queued + " ";
  var cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "run-tool";
  cancel.setAttribute("data-cancel-queued", "");
  cancel.textContent = WORDS.cancel;
  note.appendChild(cancel);
  run.append(mine, note);
  var box = transcript();
  if (box) box.appendChild(run);
  scrollToBottom();
  queued = { text: text, bubble: run };
  setText("");
}

// Take the queued message back into the input (Cancel, or a Stop): kept, never dropped.
function unqueue() {
  if (!queued) return;
  var text = queued.text;
  queued.bubble.remove();
  queued = null;
  var box = input();
  if (box) setText(box.value.trim() ? text + "\n" + box.value : text);
}

// The request out has landed: send the queued message as if typed now, leaving any newer draft in place.
function sendQueued() {
  if (!queued || flight || !form()) return;
  var text = queued.text;
  queued.bubble.remove();
  queued = null;
  var draft = input() ? input().value : "";
  setText(text);
  form().requestSubmit();
  if (input() && input().value === "") setText(draft);
}

// The counter's line says why the text was not sent (assistant_limit.js shows it there too).
function say(words) {
  var count = document.getElementById("assistant-count");
  if (!count) return;
  count.hidden = false;
  count.textContent = words;
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
    // The browser stopped waiting, but the run may have made its change already: nothing is said
    // until the server answers (assistant_stream.js asks it, then shows the run as it ended).
    done.pending.classList.add("run-stopping");
    var words = done.pending.querySelector(".working-words");
    if (words) words.textContent = WORDS.stopping;
    stopping = { text: done.text, typed: done.typed };
    return;
  }
  done.pending.remove();
  // The server refused the message or answered nothing usable: give the user their text back.
  if ((status === 0 || status >= 400) && done.typed && input() && !input().value) setText(done.text);
  // After the other scripts have heard of the answer (the stream closes on this same event).
  window.setTimeout(sendQueued, 0);
});

// The server stopped the run before it changed anything: the message comes back to the input to edit
// or send again, unless something newer has been typed there (the stopped run offers Edit and Retry).
document.addEventListener("assistant:stop-confirmed", function () {
  var box = input();
  if (box && stopping && stopping.typed && !box.value.trim()) { setText(stopping.text); box.focus(); }
  stopping = null;
});

// The run had made its change (or finished) before Stop reached the server: the transcript shows
// what it did, and the message is not put back to be sent twice.
document.addEventListener("assistant:stopped-too-late", function () { stopping = null; });

// The run's id never arrived, so the server could not be asked: say that plainly.
document.addEventListener("assistant:stop-unknown", function (event) {
  var pending = event.detail && event.detail.pending;
  var words = pending && pending.querySelector(".working-words");
  var dots = pending && pending.querySelector(".working-dots");
  if (dots) dots.remove();
  if (words) words.textContent = WORDS.unknown;
  stopping = null;
});

document.addEventListener("click", function (event) {
  if (event.target.closest("[data-cancel-queued]")) { unqueue(); if (input()) input().focus(); return; }
  if (!event.target.closest("#assistant-stop") || !flight) return;
  flight.stopped = true;
  unqueue(); // Stop ends what is out and what waits: the waiting message comes back to the input
  window.htmx.trigger(flight.elt, "htmx:abort");
});

// Enter sends, Shift+Enter starts a new line; a composing input method keeps its Enter.
document.addEventListener("keydown", function (event) {
  if (event.target !== input() || event.key !== "Enter" || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  // An empty or blank message is refused with a word, not ignored (assistant_limit.js).
  if (!input().value.trim()) { limit.refuseEmpty(); return; }
  if (flight) {
    // Never silently nothing: queued (shown in the transcript), or left here with the reason.
    if (limit.over()) { limit.update(); return; }
    if (queued) { say(WORDS.alreadyQueued); return; }
    queue(input().value.trim());
    return;
  }
  form().requestSubmit();
});

// "/" from anywhere outside a field opens the assistant and puts the cursor in its input.
document.addEventListener("keydown", function (event) {
  if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
  var t = event.target;
  if (t.isContentEditable || (t.closest && t.closest("input, textarea, select"))) return;
  if (!input()) return;
  event.preventDefault();
  openAssistant({ focusInput: true });
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
