// Draw every risk chart on the page (and in sidebar answers as they arrive) with the vendored Chart.js.
// Chart.js is loaded on first use only, so pages without a chart never fetch it; each chart's canvas says
// where the library is (data-chartjs, the template's {% static %} address).
var loading = null;

function chartLibrary(src) {
  if (window.Chart) return Promise.resolve(window.Chart);
  if (!loading) {
    loading = new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = src;
      tag.onload = function () { resolve(window.Chart); };
      tag.onerror = reject;
      document.head.appendChild(tag);
    });
  }
  return loading;
}

// Each bar ends with its task's score and level, so the value is read without the axis.
function scoreLabels(data, canvas) {
  return {
    id: "scoreLabels",
    afterDatasetsDraw: function (chart) {
      var last = chart.getDatasetMeta(chart.data.datasets.length - 1);
      var ctx = chart.ctx;
      ctx.save();
      ctx.font = "600 12px system-ui, sans-serif";
      ctx.fillStyle = "#101828";
      ctx.textBaseline = "middle";
      last.data.forEach(function (bar, i) {
        var level = data.levels[i];
        var text = data.scores[i] + " " + (canvas.getAttribute("data-level-" + level) || level);
        ctx.fillText(text, Math.min(bar.x + 6, chart.width - ctx.measureText(text).width - 2), bar.y);
      });
      ctx.restore();
    },
  };
}

// Words into lines of at most `width` characters; past `most` lines the last one ends with an ellipsis.
function lines(text, width, most) {
  var out = [""];
  text.split(" ").forEach(function (word) {
    var line = out[out.length - 1];
    if (line && (line + " " + word).length > width) out.push(word);
    else out[out.length - 1] = line ? line + " " + word : word;
  });
  if (out.length > most) out = out.slice(0, most - 1).concat([out.slice(most - 1).join(" ").slice(0, width - 1) + "\u2026"]);
  return out.length === 1 ? out[0] : out;
}

function draw(canvas) {
  if (canvas.dataset.drawn) return;
  canvas.dataset.drawn = "1";
  var data = JSON.parse(document.getElementById(canvas.dataset.riskChart).textContent);
  chartLibrary(canvas.dataset.chartjs).then(function (Chart) {
    var longest = Math.max.apply(null, data.factors[0].points.map(function (_, i) {
      return data.factors.reduce(function (sum, f) { return sum + f.points[i]; }, 0);
    }));
    new Chart(canvas, {
      type: "bar",
      data: {labels: data.labels, datasets: data.factors.map(function (f) {
        return {label: f.label, data: f.points, backgroundColor: f.colour, barThickness: 14};
      })},
      options: {
        indexAxis: "y", responsive: true, maintainAspectRatio: false, animation: false,
        // Room at the right of the longest bar for its score.
        layout: {padding: {left: 4, right: 64}},
        scales: {
          // The axis title is the figure's caption (templates/reports/_risk.html).
          x: {stacked: true, min: 0, max: Math.max(100, longest), ticks: {stepSize: 25}},
          // A label is never cut: a narrow chart names each task by its key (the list above gives the
          // title), a wide one by key and title over at most two lines.
          y: {stacked: true, ticks: {autoSkip: false, color: "#344054", callback: function (value) {
            var label = this.getLabelForValue(value);
            return this.chart.width < 500 ? label.split(" ")[0] : lines(label, 30, 2);
          }}},
        },
        plugins: {
          legend: {display: true, position: "top", align: "start",
                   labels: {boxWidth: 12, boxHeight: 12, color: "#344054"}},
          tooltip: {callbacks: {label: function (item) { return item.dataset.label + ": +" + item.raw; }}},
        },
      },
      plugins: [scoreLabels(data, canvas)],
    });
    canvas.dataset.rendered = "1";
  });
}

function drawAll(root) {
  (root || document).querySelectorAll("canvas[data-risk-chart]").forEach(draw);
}

document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
document.addEventListener("htmx:load", function (event) { drawAll(event.target); });
