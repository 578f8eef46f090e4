// The drawer (narrow screens) is modal while open: Tab and Shift+Tab go round its own controls and
// never reach the page it covers. Escape and Close (assistant_shell.js) give the page back.
var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])";

function reachable(panel) {
  return Array.prototype.filter.call(panel.querySelectorAll(FOCUSABLE), function (elt) {
    return !elt.disabled && !elt.closest("[hidden]") && elt.getClientRects().length > 0;
  });
}

document.addEventListener("keydown", function (event) {
  if (event.key !== "Tab" || !document.body.classList.contains("assistant-drawer-open")) return;
  var panel = document.getElementById("assistant");
  if (!panel) return;
  var stops = reachable(panel);
  if (!stops.length) return;
  var first = stops[0], last = stops[stops.length - 1];
  var inside = panel.contains(document.activeElement);
  if (!inside) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  } else if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
});
