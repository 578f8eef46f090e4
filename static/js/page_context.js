// The page context: read from the #page-context element and sent with every assistant request.
// The contract (docs/DESIGN.md#page-context) is camelCase JSON; the origin is the UI entry the request came from.
import { showToast } from "./app.js";

var PLAIN = { page: "page", activeTab: "activeTab", viewMode: "viewMode", searchKeyword: "searchKeyword" };
var JSON_KEYS = ["selectedEntity", "routeParams", "filters", "visibleEntityIds", "pagination"];

function parse(value) {
  try { return JSON.parse(value); } catch (e) { return undefined; }
}

function readPageContext() {
  var el = document.getElementById("page-context");
  if (!el) return null;
  var data = el.dataset;
  var ctx = {};
  Object.keys(PLAIN).forEach(function (key) {
    if (data[key]) ctx[PLAIN[key]] = data[key];
  });
  JSON_KEYS.forEach(function (key) {
    if (data[key] === undefined) return;
    var value = parse(data[key]);
    if (value === undefined) return;
    // Empty objects mean "not set" in the markup; the contract wants them left out.
    if (value && typeof value === "object" && !Array.isArray(value) && !Object.keys(value).length) return;
    ctx[key] = value;
  });
  return ctx;
}

// Build the context for one request: the page's, plus the entry's origin and, for a row action or a
// project choice, the entity that button names (data-selected-entity on it or its group) as the selection.
function contextFor(elt) {
  var ctx = readPageContext() || { page: "home" };
  var entry = elt.closest("[data-origin]");
  ctx.origin = (entry && entry.dataset.origin) || "sidebar";
  var about = elt.closest("[data-selected-entity]");
  var selected = about ? parse(about.dataset.selectedEntity) : undefined;
  if (selected) ctx.selectedEntity = selected;
  return ctx;
}

document.addEventListener("htmx:configRequest", function (event) {
  var elt = event.detail.elt;
  if (!elt.closest("[data-assistant], [data-assistant-action]")) return;
  event.detail.parameters.page_context = JSON.stringify(contextFor(elt));
});

// After the assistant changed tasks, refresh the page's content and its context in place,
// keeping the sidebar transcript.
// An in-place editor the user has open keeps what they typed: the fresh page takes the live editor
// in place of the field it would show (the other fields refresh around it).
function keepOpenEditors(doc) {
  var main = document.getElementById("main");
  if (!main) return;
  main.querySelectorAll("form.is-editing[id]").forEach(function (editor) {
    var slot = doc.getElementById(editor.id);
    if (slot) slot.replaceWith(editor);
  });
}

// A message carried to the next page (the task list, after the page's own task was deleted).
var FLASH_KEY = "pm.flash";

function showFlash() {
  var text = null;
  try { text = window.sessionStorage.getItem(FLASH_KEY); window.sessionStorage.removeItem(FLASH_KEY); }
  catch (e) { return; }
  if (text) showToast("Deleted", text, { done: true, flash: true, ms: 10000 });
}

function pageTaskId() {
  var ctx = readPageContext();
  return ctx && ctx.routeParams && ctx.page === "task_detail" ? ctx.routeParams.taskId : null;
}

document.body.addEventListener("tasks-changed", function (event) {
  var detail = event.detail || {};
  var own = pageTaskId();
  if (own && detail.deleted_task_id === own) {
    // This page's task is gone: asking for the page again would only answer 404.
    try { window.sessionStorage.setItem(FLASH_KEY, detail.message || "The task was deleted."); } catch (e) { /* no storage */ }
    window.location.assign("/tasks/");
    refreshed(null);
    return;
  }
  fetch(window.location.href, { headers: { "HX-Request": "false" }, credentials: "same-origin" })
    .then(function (response) {
      // The page's own object is gone (a deleted task): go to the task list instead.
      if (response.status === 404) { window.location.assign("/tasks/"); return null; }
      return response.ok ? response.text() : null;
    })
    .then(function (html) {
      if (!html) return null;
      var doc = new DOMParser().parseFromString(html, "text/html");
      keepOpenEditors(doc);
      var focused = document.activeElement;
      ["main", "page-context"].forEach(function (id) {
        var fresh = doc.getElementById(id);
        var current = document.getElementById(id);
        if (fresh && current) {
          current.replaceWith(fresh);
          if (window.htmx) window.htmx.process(fresh);
        }
      });
      // A kept editor left the page for a moment, and focus with it: give it back.
      if (focused && focused !== document.activeElement && document.contains(focused)) focused.focus();
      return doc;
    })
    .catch(function () { return null; })
    // Also when the refresh failed: whoever waits for it (focus, in assistant_shell.js) stops waiting.
    .then(refreshed);
});

// The page's content was refreshed (page: the fresh page, whose sidebar buttons say what the server now
// offers; null when the refresh failed or the page was left).
function refreshed(page) {
  document.dispatchEvent(new CustomEvent("pm:content-refreshed", { detail: { page: page } }));
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showFlash);
else showFlash();
