// Draw every risk chart on the page (and in sidebar answers as they arrive) with the vendored Chart.js.
// Chart.js is loaded on first use only, so pages without a chart never fetch it.
(function () {
  "use strict";
  var script = document.currentScript;
  var loading = null;

  function chartLibrary() {
    if (window.Chart) return Promise.resolve(window.Chart);
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var tag = document.createElement("script");
        tag.src = script.dataset.chartjs;
        tag.onload = function () { resolve(window.Chart); };
        tag.onerror = reject;
        document.head.appendChild(tag);
      });
    }
    return loading;
  }

  function draw(canvas) {
    if (canvas.dataset.drawn) return;
    canvas.dataset.drawn = "1";
    var data = JSON.parse(document.getElementById(canvas.dataset.riskChart).textContent);
    chartLibrary().then(function (Chart) {
      new Chart(canvas, {
        type: "bar",
        data: {labels: data.labels, datasets: [{label: "Risk score", data: data.scores, backgroundColor: data.colours,
                                                  borderRadius: 4, barThickness: 14}]},
        options: {
          indexAxis: "y", responsive: true, maintainAspectRatio: false, animation: false,
          scales: {x: {min: 0, max: 100, ticks: {stepSize: 25}}, y: {ticks: {autoSkip: false}}},
          plugins: {legend: {display: false}},
        },
      });
      canvas.dataset.rendered = "1";
    });
  }

  function drawAll(root) {
    (root || document).querySelectorAll("canvas[data-risk-chart]").forEach(draw);
  }

  document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
  document.addEventListener("htmx:load", function (event) { drawAll(event.target); });
})();
