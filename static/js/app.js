// General page behaviour: the assistant column toggle, toasts, and keyboard help for in-place edits.
// An ES module (static/js/main.js loads it): showToast is imported by the modules that show one.
var STORAGE_KEY = "pm.assistantCollapsed";
var NARROW = window.matchMedia("(max-width: 1180px)");

function setCollapsed(collapsed) {
  document.body.classList.toggle("assistant-collapsed", collapsed);
  var toggle = document.getElementById("assistant-toggle");
  if (toggle) toggle.setAttribute("aria-expanded", String(!collapsed));
}

function initAssistantToggle() {
  var toggle = document.getElementById("assistant-toggle");
  if (!toggle) return;
  var stored = null;
  try { stored = window.localStorage.getItem(STORAGE_KEY); } catch (e) { /* storage may be off */ }
  // On narrow screens the assistant sits below the content, folded until asked for.
  setCollapsed(stored === null ? NARROW.matches : stored === "1");
  toggle.addEventListener("click", function () {
    var collapsed = !document.body.classList.contains("assistant-collapsed");
    setCollapsed(collapsed);
    try { window.localStorage.setItem(STORAGE_KEY, collapsed ? "1" : "0"); } catch (e) { /* ignore */ }
    if (!collapsed && NARROW.matches) {
      var aside = document.getElementById("assistant");
      if (aside) aside.scrollIntoView({ behavior: "smooth", block: "start" });
    }
  });
}

// The page's one toast: an error (role alert) by default; options.done makes a notice (role status),
// options.flash marks one carried over from the page before, options.ms how long it stays.
// A toast's "×" (the click handler for [data-dismiss] below removes its toast).
export function dismissButton() {
  var close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  close.setAttribute("aria-label", "Dismiss");
  close.setAttribute("data-dismiss", "");
  close.textContent = "\u00d7";
  return close;
}

export function showToast(title, message, options) {
  var opts = options || {};
  var box = document.getElementById("toasts");
  if (!box) return;
  var toast = document.createElement("div");
  toast.className = "toast " + (opts.done ? "toast-done" : "toast-error");
  toast.setAttribute("role", opts.done ? "status" : "alert");
  if (opts.flash) toast.setAttribute("data-flash", "");
  var strong = document.createElement("strong");
  strong.textContent = title;
  var span = document.createElement("span");
  span.textContent = message;
  toast.append(strong, span, dismissButton());
  box.appendChild(toast);
  scheduleDismiss(toast, opts.ms);
}

function scheduleDismiss(toast, ms) {
  window.setTimeout(function () { toast.remove(); }, ms || 8000);
}

// The open drawer on narrow screens starts below the toasts (assistant.css): keep the room they take.
function trackToastSpace() {
  var box = document.getElementById("toasts");
  if (!box || !window.ResizeObserver) return;
  new ResizeObserver(function () {
    var height = box.offsetHeight;
    document.body.style.setProperty("--toasts-space", height ? height + 16 + "px" : "0px");
  }).observe(box);
}

document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-dismiss]");
  if (button) {
    var toast = button.closest(".toast");
    if (toast) toast.remove();
  }
});

// Escape leaves an in-place editor without saving.
document.addEventListener("keydown", function (event) {
  if (event.key !== "Escape") return;
  var form = event.target.closest && event.target.closest(".field-row.is-editing");
  var cancel = form && form.querySelector("[data-cancel]");
  if (cancel) {
    event.preventDefault();
    cancel.click();
  }
});

document.addEventListener("htmx:afterSwap", function (event) {
  var target = event.detail.target;
  if (target && target.id === "toasts") {
    var last = target.lastElementChild;
    if (last) scheduleDismiss(last);
  }
});

// In-place editors: the cursor goes to the editor's first visible field when it opens (its first
// input is the hidden CSRF token) or to the field in error when a save is refused; after a save or
// a cancel it goes back to the field's Edit button. The field is found again by its row's id, as
// every request here replaces the row or the form it came from.
function editedRowId(elt) {
  if (!elt || !elt.closest) return null;
  if (elt.matches("form.is-editing")) return elt.id;
  var link = elt.closest(".btn-edit, [data-cancel]");
  return link ? (link.getAttribute("hx-target") || "").replace(/^#/, "") : null;
}

function focusEditedRow(id) {
  var row = id && document.getElementById(id);
  if (!row) return;
  var target = row.matches(".is-editing")
    ? row.querySelector(".has-error input, .has-error select, .has-error textarea")
      || row.querySelector("input:not([type=hidden]), select, textarea")
    : row.querySelector(".btn-edit");
  if (target) target.focus();
}

// The element that sent the request: once it is replaced, htmx reports the request on an ancestor.
function requester(event) {
  return (event.detail.requestConfig && event.detail.requestConfig.elt) || event.detail.elt;
}

// Focus is moved only when the swap took it away: the user may have gone on elsewhere meanwhile.
function focusLost() {
  return !document.activeElement || document.activeElement === document.body;
}

document.addEventListener("htmx:afterRequest", function (event) {
  var id = editedRowId(requester(event));
  if (id && focusLost()) focusEditedRow(id);
});

// A refused board move leaves the card where it was: put its status control back too. A moved card
// is a new element in its new column; one that left this tab's board is gone: focus goes to its
// status control again, else to the next card's (or the column), so the keyboard carries on.
var boardMove = null; // { form, ids: status controls to try in order, column } while a move is out

document.addEventListener("htmx:beforeRequest", function (event) {
  var form = event.detail.elt.closest && event.detail.elt.closest("form.card-status");
  if (!form) return;
  var card = form.closest(".card");
  var near = [card.nextElementSibling, card.previousElementSibling].filter(Boolean);
  boardMove = {
    form: form,
    ids: [form.querySelector("select")].concat(near.map(function (c) { return c.querySelector("select"); }))
      .filter(Boolean).map(function (select) { return select.id; }),
    column: card.closest(".board-col"),
  };
});

document.addEventListener("htmx:afterRequest", function (event) {
  var form = requester(event);
  if (!boardMove || boardMove.form !== form) return;
  var move = boardMove;
  boardMove = null;
  if (event.detail.xhr && event.detail.xhr.status >= 400) { form.reset(); return; }
  if (!focusLost()) return;
  var target = move.ids.map(function (id) { return document.getElementById(id); }).filter(Boolean)[0];
  if (!target && move.column) { move.column.setAttribute("tabindex", "-1"); target = move.column; }
  if (target) target.focus();
});

// Tell listeners when the page context element is replaced by a partial update.
document.addEventListener("htmx:oobAfterSwap", function (event) {
  var swapped = event.target && event.target.id === "page-context";
  if (swapped || (event.detail.target && event.detail.target.id === "page-context")) {
    document.dispatchEvent(new CustomEvent("pagecontext:changed"));
  }
});

document.addEventListener("htmx:responseError", function (event) {
  var status = event.detail.xhr ? event.detail.xhr.status : 0;
  var title = status === 404 ? "Not found" : "Something went wrong";
  var message = status === 404
    ? "That item no longer exists or you cannot see it."
    : "The server could not finish the request (" + status + "). Nothing was changed.";
  showToast(title, message);
});

document.addEventListener("htmx:sendError", function () {
  showToast("Offline", "The server could not be reached. Check your connection and try again.");
});

function init() {
  initAssistantToggle();
  trackToastSpace();
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", init);
} else {
  init();
}
