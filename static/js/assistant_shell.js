// The assistant's shell: opening it (a drawer on narrow screens), where replies land and where focus goes.
// A reply that needs the user opens the assistant and takes focus; a row action's reply while the
// assistant is closed becomes a toast that opens it; after a row action focus goes back to the row.
import { dismissButton } from "./app.js";
import { scrollToBottom } from "./assistant_follow.js";

var NARROW = window.matchMedia("(max-width: 1180px)");

function panel() { return document.getElementById("assistant"); }
function isOpen() { return !document.body.classList.contains("assistant-collapsed"); }

// The toggle in app.js owns the remembered preference; opening for a card does not change it.
function setOpen(open) {
  document.body.classList.toggle("assistant-collapsed", !open);
  document.body.classList.toggle("assistant-drawer-open", open && NARROW.matches);
  var toggle = document.getElementById("assistant-toggle");
  if (toggle) toggle.setAttribute("aria-expanded", String(open));
}

// ---- Opening the assistant ------------------------------------------------------------------
var openedFor = null; // { run: element, returnTo: row id, wasOpen: bool } while a card holds the assistant open

export function openAssistant(options) {
  var wasOpen = isOpen() && !(NARROW.matches && !document.body.classList.contains("assistant-drawer-open"));
  setOpen(true);
  if (options && options.focusInput) {
    var input = document.getElementById("assistant-message");
    if (input) input.focus();
  }
  return wasOpen;
}

function closeAssistant() {
  setOpen(false);
  var toggle = document.getElementById("assistant-toggle");
  if (toggle && NARROW.matches) toggle.focus();
}

// Focus an element that is not a control (a card, a run, a row, a title): reachable by script only.
function focusOn(elt) {
  elt.setAttribute("tabindex", "-1");
  elt.focus();
}

function focusCard(run) {
  var card = run.querySelector(".confirm-card");
  if (!card) return false;
  scrollToBottom();
  focusOn(card);
  return true;
}

// ---- Row actions -----------------------------------------------------------------------------
var pendingRow = null; // the row a request was sent from, until its reply has landed

// A row's buttons come in a group that names the entity they act on (data-assistant-row with
// data-selected-entity, rendered with the buttons): the row is found again by that group.
var ROW_GROUP = "[data-assistant-row][data-selected-entity]";

function entityId(group) {
  try { return JSON.parse(group.getAttribute("data-selected-entity")).id; } catch (e) { return null; }
}

function rowGroups() { return Array.prototype.slice.call(document.querySelectorAll(ROW_GROUP)); }

function rowOf(elt) { return elt && elt.closest ? elt.closest(ROW_GROUP) : null; }

function rowNeighbour(group) {
  var groups = rowGroups();
  var at = groups.indexOf(group);
  var next = groups[at + 1] || groups[at - 1];
  return next ? entityId(next) : null;
}

function groupOf(id) {
  return id === null ? null : rowGroups().filter(function (group) { return entityId(group) === id; })[0] || null;
}

// Put focus back on the row the action came from, or on its neighbour when the row is gone: on the
// button pressed, else (a done task offers no Mark done) on the row's first link.
function returnFocusToRow(ref) {
  if (!ref) return;
  var group = groupOf(ref.id) || groupOf(ref.neighbour);
  if (!group) { var main = document.getElementById("main"); if (main) focusOn(main); return; }
  var row = group.closest("tr, li, article") || group;
  var button = group.querySelector("[data-assistant-action='" + ref.action + "']") || row.querySelector("a, button");
  if (button) button.focus(); else focusOn(row);
}

function replyText(run) {
  var reply = run.querySelector(".run-reply, .bubble-error div");
  var text = reply ? reply.textContent.trim() : "";
  return text.length > 160 ? text.slice(0, 157) + "\u2026" : text;
}

function toastReply(run) {
  var box = document.getElementById("toasts");
  if (!box) return;
  var toast = document.createElement("div");
  toast.className = "toast toast-reply";
  toast.setAttribute("role", "status");
  var strong = document.createElement("strong");
  strong.textContent = "Assistant";
  var span = document.createElement("span");
  span.textContent = replyText(run) || "Done.";
  var link = document.createElement("a");
  link.href = "#" + (run.id || "assistant");
  link.className = "toast-link";
  link.setAttribute("data-open-assistant", "");
  link.textContent = "Open assistant";
  toast.append(strong, span, link, dismissButton());
  box.appendChild(toast);
  window.setTimeout(function () { toast.remove(); }, 10000);
}

function latestRun(target) {
  var runs = target.querySelectorAll(":scope > .run");
  return runs.length ? runs[runs.length - 1] : null;
}

// A reply landed in the transcript (a new run, or a decided card replaced in place).
function onReply(run, origin) {
  var needsUser = run.querySelector(".confirm-card") !== null;
  if (needsUser) {
    var wasOpen = openAssistant();
    if (origin) run.dataset.returnTo = JSON.stringify(origin);
    run.dataset.openedClosed = wasOpen ? "" : "1";
    focusCard(run);
    return;
  }
  var closedBefore = !isOpen() || (NARROW.matches && !document.body.classList.contains("assistant-drawer-open"));
  if (origin && closedBefore) toastReply(run);
  if (origin) refocusAfterRefresh(origin);
}

document.addEventListener("htmx:beforeRequest", function (event) {
  var row = rowOf(event.detail.elt);
  if (row) {
    var action = event.detail.elt.getAttribute("data-assistant-action");
    pendingRow = { id: entityId(row), neighbour: rowNeighbour(row), action: action };
  } else if (event.detail.elt.closest && event.detail.elt.closest("#assistant")) {
    pendingRow = null;
  }
});

document.addEventListener("htmx:afterSwap", function (event) {
  var target = event.detail.target;
  if (!target) return;
  if (target.id === "assistant-transcript") {
    var trigger = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (trigger && trigger.closest && trigger.closest(".assistant-conversation-bar")) {
      onConversationShown();
      return;
    }
    var run = latestRun(target);
    var origin = pendingRow;
    pendingRow = null;
    if (run) onReply(run, origin);
    return;
  }
});

// Another conversation (or a new one) replaced the transcript: show its end and where to go on.
function onConversationShown() {
  var history = document.getElementById("assistant-history");
  // Closed, unless the new conversation replaces one just deleted from the list (assistant_history.js).
  if (history && history.dataset.keepOpen) delete history.dataset.keepOpen;
  else if (history) history.open = false;
  scrollToBottom();
  markPending();
  var cards = document.querySelectorAll("#assistant-transcript .confirm-card");
  if (cards.length) focusCard(cards[cards.length - 1].closest(".run"));
  else { var input = document.getElementById("assistant-message"); if (input) input.focus(); }
}

// The toggle says when cards are waiting, so a closed assistant still shows it needs the user:
// the cards on the page and those above "Show earlier" (data-pending), not loaded yet.
function markPending() {
  var toggle = document.getElementById("assistant-toggle");
  if (!toggle) return;
  var count = document.querySelectorAll("#assistant-transcript .confirm-card").length;
  document.querySelectorAll("#assistant-transcript [data-pending]").forEach(function (earlier) {
    count += parseInt(earlier.getAttribute("data-pending"), 10) || 0;
  });
  toggle.textContent = count ? "Assistant (" + count + " waiting)" : "Assistant";
}
document.addEventListener("htmx:afterSettle", markPending);

// A decided card is swapped out (outerHTML): htmx reports the new run as the swap's element.
document.addEventListener("htmx:afterSettle", function (event) {
  var elt = event.detail.elt;
  var trigger = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (!trigger || !trigger.closest || !trigger.closest(".confirm-actions")) return;
  var run = elt && elt.classList && elt.classList.contains("run") ? elt : null;
  var decided = decidedCards.shift();
  if (!decided) return;
  if (!run) run = document.getElementById(decided.runId);
  if (!run) return;
  if (run.querySelector(".confirm-card")) { focusCard(run); return; }
  if (decided.returnTo) {
    // The assistant was opened only for this card: give the page back and say what happened.
    if (decided.openedClosed) { setOpen(false); toastReply(run); }
    // Let the page refresh its rows first (tasks-changed), then return focus.
    refocusAfterRefresh(decided.returnTo);
  } else if (!document.activeElement || document.activeElement === document.body) {
    // The decided button went with the card: focus goes to the run, which now says what happened.
    focusOn(run);
  }
});

var decidedCards = [];
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail.elt;
  if (!elt.closest || !elt.closest(".confirm-actions")) return;
  var run = elt.closest(".run");
  if (!run) return;
  decidedCards.push({
    runId: run.id,
    returnTo: run.dataset.returnTo ? JSON.parse(run.dataset.returnTo) : null,
    openedClosed: run.dataset.openedClosed === "1",
  });
});

// A reply that changed tasks makes the page reload its rows (page_context.js): focus waits for the new
// rows; otherwise it waits only for the request's own clean-up to re-enable the row's buttons.
// Refreshes are counted, as they can overlap; each one ends with pm:content-refreshed, failed or not,
// so none is left over to hold back a later focus return.
var refreshes = 0;
document.body.addEventListener("tasks-changed", function () { refreshes += 1; });
document.addEventListener("pm:content-refreshed", function () { refreshes = Math.max(0, refreshes - 1); });

function refocusAfterRefresh(origin) {
  var done = false;
  function go() {
    if (done) return;
    done = true;
    document.removeEventListener("pm:content-refreshed", refreshed);
    returnFocusToRow(origin);
  }
  function refreshed() { if (refreshes === 0) go(); }
  if (refreshes > 0) {
    document.addEventListener("pm:content-refreshed", refreshed);
    window.setTimeout(go, 3000); // a refresh that never answers does not keep focus away for good
  } else {
    window.setTimeout(go, 0);
  }
}

// Undo replaces its run in place, taking the button away: focus goes to the run, which now says
// what was undone (or why not).
document.addEventListener("htmx:afterRequest", function (event) {
  var elt = (event.detail.requestConfig && event.detail.requestConfig.elt) || event.detail.elt;
  if (!elt || !elt.matches || !elt.matches("[data-undo]")) return;
  var old = elt.closest(".run");
  var run = old && document.getElementById(old.id);
  if (!run || (document.activeElement && document.activeElement !== document.body)) return;
  focusOn(run);
});

// ---- Opening and closing by hand ---------------------------------------------------------------
document.addEventListener("click", function (event) {
  var opener = event.target.closest("[data-open-assistant]");
  if (opener) {
    event.preventDefault();
    openAssistant();
    var id = (opener.getAttribute("href") || "").replace(/^#/, "");
    var run = id && id !== "assistant" ? document.getElementById(id) : null;
    if (opener.matches(".skip-assistant")) {
      var input = document.getElementById("assistant-message");
      if (input) input.focus();
    } else if (run) {
      run.scrollIntoView({ block: "nearest" });
      focusOn(run);
    } else {
      scrollToBottom();
    }
    var toast = opener.closest(".toast");
    if (toast) toast.remove();
    return;
  }
  if (event.target.closest("[data-close-assistant]")) closeAssistant();
});

document.addEventListener("keydown", function (event) {
  if (event.key === "Escape" && NARROW.matches && document.body.classList.contains("assistant-drawer-open")
      && !event.target.closest(".is-editing")) {
    closeAssistant();
  }
});

// The toggle in app.js opens and closes; on narrow screens that is the drawer.
document.addEventListener("click", function (event) {
  if (!event.target.closest("#assistant-toggle")) return;
  window.setTimeout(function () {
    var drawer = isOpen() && NARROW.matches;
    document.body.classList.toggle("assistant-drawer-open", drawer);
    if (isOpen()) scrollToBottom();
    // The drawer covers the toggle: focus moves into it, on its title (no keyboard pops up on a phone).
    var title = drawer && document.querySelector("#assistant .assistant-title");
    if (title) focusOn(title);
  }, 0);
});

function storedCollapsed() {
  try { return window.localStorage.getItem("pm.assistantCollapsed") === "1"; } catch (e) { return false; }
}

// A window narrowed to drawer size closes the drawer rather than covering the page; widened, the
// column comes back as the user last left it.
NARROW.addEventListener("change", function () {
  setOpen(!NARROW.matches && !storedCollapsed());
});

function init() {
  // On narrow screens a page starts with the drawer closed: a drawer over the page it just opened
  // would hide it.
  if (NARROW.matches) setOpen(false);
  markPending();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
