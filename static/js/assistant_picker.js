// A clarify reply's project choices ("Which project should ... go in?") are answered once: when one is
// sent, every choice of that run is disabled, so a second click cannot create the task twice. The
// server does not mark a run as answered, so this browser remembers the answered runs and disables
// their choices again when the run is shown later (a reload, or back in that conversation).
(function () {
  "use strict";

  var KEY = "pm.answeredPickers";
  var KEEP = 50; // the newest answered runs remembered; older ones have long left the transcript

  function remembered() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }

  function remember(runId, answered) {
    var ids = remembered().filter(function (id) { return id !== runId; });
    if (answered) ids.push(runId);
    try { window.localStorage.setItem(KEY, JSON.stringify(ids.slice(-KEEP))); } catch (e) { /* storage may be off */ }
  }

  function runIdOf(picker) {
    var run = picker.closest(".run[data-run-id]");
    return run ? run.dataset.runId : null;
  }

  // The button just used keeps focus (disabling it would drop focus to the page): it is marked instead,
  // and the click guard below holds it.
  function close(picker) {
    picker.setAttribute("data-answered", "");
    picker.querySelectorAll("button").forEach(function (button) {
      if (button === document.activeElement) button.setAttribute("aria-disabled", "true");
      else button.disabled = true;
    });
  }

  function reopen(picker) {
    picker.removeAttribute("data-answered");
    picker.querySelectorAll("button").forEach(function (button) {
      button.disabled = false;
      button.removeAttribute("aria-disabled");
    });
  }

  // Capturing, so a click on an answered choice never reaches htmx on the button.
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest(".project-picker[data-answered] button")) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  // Sent (not refused before sending, as a second request while one is out is).
  document.addEventListener("htmx:beforeSend", function (event) {
    var picker = event.detail.elt.closest && event.detail.elt.closest(".project-picker");
    if (!picker) return;
    close(picker);
    var runId = runIdOf(picker);
    if (runId) remember(runId, true);
  });

  // Not answered after all (the server refused it, or it never arrived): the user picks again.
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = (event.detail.requestConfig && event.detail.requestConfig.elt) || event.detail.elt;
    var picker = elt && elt.closest && elt.closest(".project-picker");
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!picker || (status > 0 && status < 400)) return;
    reopen(picker);
    var runId = runIdOf(picker);
    if (runId) remember(runId, false);
  });

  function closeRemembered() {
    var ids = remembered();
    if (!ids.length) return;
    document.querySelectorAll(".project-picker:not([data-answered])").forEach(function (picker) {
      if (ids.indexOf(runIdOf(picker)) >= 0) close(picker);
    });
  }

  document.addEventListener("htmx:afterSettle", closeRemembered);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", closeRemembered);
  else closeRemembered();
})();
