// The project timeline: it opens scrolled to today, and its date labels are thinned where they would touch.
var LABEL_GAP_PX = 8;

// Open a wide timeline scrolled to today rather than at its first day.
function scrollToToday(box) {
  var today = box.querySelector(".gantt-track.has-today");
  if (!today || box.scrollWidth <= box.clientWidth) return;
  var share = parseFloat(getComputedStyle(box.querySelector(".gantt")).getPropertyValue("--today")) / 100;
  var label = box.querySelector(".gantt-label");
  var labelWidth = label ? label.offsetWidth : 0;
  var x = today.getBoundingClientRect().left - box.getBoundingClientRect().left + box.scrollLeft
    + today.offsetWidth * share;
  // Centre today in the part of the timeline the sticky task names leave visible.
  box.scrollLeft = Math.max(0, x - labelWidth - (box.clientWidth - labelWidth) / 2);
}

// On a narrow axis weekly dates ran into each other ("Nov 23Nov 30"): show every label, else every
// second, every third... the first step at which no label touches the next one shown.
function thinLabels(axis) {
  var ticks = Array.prototype.slice.call(axis.querySelectorAll(".gantt-tick"));
  var widths = ticks.map(function (tick) { return tick.offsetWidth; });
  function fits(step) {
    for (var i = step; i < ticks.length; i += step) {
      if (ticks[i].offsetLeft < ticks[i - step].offsetLeft + widths[i - step] + LABEL_GAP_PX) return false;
    }
    return true;
  }
  var step = 1;
  while (step < ticks.length && !fits(step)) step += 1;
  ticks.forEach(function (tick, i) { tick.classList.toggle("is-quiet", i % step !== 0); });
}

function init() {
  document.querySelectorAll(".gantt-scroll").forEach(scrollToToday);
  document.querySelectorAll(".gantt-axis").forEach(function (axis) {
    thinLabels(axis);
    // The axis changes width with the window (and when the assistant column opens or closes).
    if (window.ResizeObserver) new ResizeObserver(function () { thinLabels(axis); }).observe(axis);
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
