// Following a request while it runs: the working bubble shows the run's stage and the model's prose as it
// streams (server-sent events, agent/web/stream_views.py), and Stop tells the server to end the run.
// The streamed text is plain text (textContent), never HTML; the request's own answer, rendered and
// sanitised by the server, replaces it when it lands.
// Imported, assistant_compose.js is evaluated first: its htmx:beforeRequest listener (which echoes the
// message in a pending bubble, or refuses a second request) runs before this module's.
import { isAssistantRequest } from "./assistant_compose.js";

var PLACEHOLDER = "00000000-0000-0000-0000-000000000000";
var RUN_ID_WAIT_MS = 5000;
var live = null; // { elt, token, source, pending, runId, stopUrl, stopWanted } for the request in flight
var prepared = null; // { elt, token } between htmx:configRequest and htmx:beforeRequest

function panel() { return document.querySelector("#assistant [data-assistant]"); }

function url(name, id) {
  var p = panel();
  var template = p && p.getAttribute(name);
  return template ? template.replace(PLACEHOLDER, id) : null;
}

// A random UUID, also where crypto.randomUUID is missing (pages served over plain http).
function newToken() {
  if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
  var b = window.crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  var hex = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
}

function csrfToken() {
  try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
  catch (e) { return ""; }
}

function showStage(pending, label) {
  var words = pending.querySelector(".working-words");
  if (!words || !label || pending.classList.contains("run-stopping")) return;
  pending.dataset.stage = label;
  words.textContent = label + "\u2026";
}

function showText(pending, delta) {
  var bubble = pending.querySelector(".bubble-working");
  if (!bubble || pending.classList.contains("run-stopping")) return;
  var text = bubble.querySelector(".working-text");
  if (!text) {
    text = document.createElement("p");
    text.className = "working-text";
    // The stage is announced; the final reply is read out when it lands, not every streamed word.
    text.setAttribute("aria-hidden", "true");
    bubble.classList.add("has-text");
    bubble.appendChild(text);
  }
  // The transcript follows the growing text by itself (assistant_follow.js watches its children).
  text.textContent += delta;
}

function endStream(state) {
  if (state.source) state.source.close();
  state.source = null;
}

// The request is over: forget it. Until then (the stream may end first while the answer is still
// on its way) a Stop still knows the run, and shows what it did if it had already finished.
function close(state) {
  endStream(state);
  if (live === state) live = null;
}

function open(state) {
  var address = url("data-stream-url", state.token);
  if (!address || !window.EventSource) return;
  var source = new EventSource(address);
  state.source = source;
  function data(event) { try { return JSON.parse(event.data); } catch (e) { return {}; } }
  source.addEventListener("run", function (event) {
    var d = data(event);
    state.runId = d.run_id;
    state.stopUrl = d.stop_url;
    if (state.stopWanted) tellServer(state);
  });
  source.addEventListener("stage", function (event) { showStage(state.pending, data(event).label); });
  source.addEventListener("text", function (event) { showText(state.pending, data(event).delta || ""); });
  source.addEventListener("end", function () { if (!state.stopWanted) endStream(state); });
  // No automatic reconnection: the request's own answer is what counts.
  source.onerror = function () { if (!state.stopWanted) endStream(state); };
}

// Ask the server to stop the run, then show the run as the server now has it: stopped, or (409) the
// run that had already made its change or finished, which goes on to its answer (with Undo where it
// changed a task) rather than being called stopped; its typed message is then not given back.
function tellServer(state) {
  var runId = state.runId;
  var pending = state.pending;
  close(state);
  if (!runId || !state.stopUrl) return;
  fetch(state.stopUrl, { method: "POST", credentials: "same-origin",
                         headers: { "X-CSRFToken": csrfToken(), "Accept": "application/json" } })
    .catch(function () { return null; })
    .then(function (response) {
      var address = url("data-run-url", runId);
      if (address && pending.isConnected && window.htmx) {
        window.htmx.ajax("GET", address, { target: pending, swap: "outerHTML" });
      }
      var name = response && response.status === 409 ? "assistant:stopped-too-late"
        : response && response.ok ? "assistant:stop-confirmed" : "assistant:stop-unknown";
      document.dispatchEvent(new CustomEvent(name, { detail: { runId: runId, pending: pending } }));
    });
}

document.addEventListener("htmx:configRequest", function (event) {
  var elt = event.detail.elt;
  if (!isAssistantRequest(elt) || live) return;
  prepared = { elt: elt, token: newToken() };
  event.detail.headers["X-Assistant-Stream"] = prepared.token;
});

// After assistant_compose.js has echoed the message (or refused a second request).
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail.elt;
  if (!prepared || prepared.elt !== elt) return;
  var token = prepared.token;
  prepared = null;
  if (event.defaultPrevented) return;
  var pendings = document.querySelectorAll("#assistant-transcript .run-pending");
  var pending = pendings.length ? pendings[pendings.length - 1] : null;
  if (!pending) return;
  live = { elt: elt, token: token, pending: pending, source: null, runId: null, stopUrl: null, stopWanted: false };
  open(live);
});

document.addEventListener("htmx:afterRequest", function (event) {
  if (live && event.detail.elt === live.elt && !live.stopWanted) close(live);
});

// Capturing, so this runs before assistant_compose.js aborts the request (which would end `live`).
document.addEventListener("click", function (event) {
  if (!event.target.closest("#assistant-stop") || !live || live.stopWanted) return;
  var state = live;
  state.stopWanted = true;
  if (state.runId) { tellServer(state); return; }
  // The run's id has not arrived yet: wait for it a little, then give up on telling the server, and say so.
  window.setTimeout(function () {
    if (state.runId) return;
    close(state);
    document.dispatchEvent(new CustomEvent("assistant:stop-unknown", { detail: { pending: state.pending } }));
  }, RUN_ID_WAIT_MS);
}, true);
