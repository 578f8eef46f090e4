// The transcript follows new messages unless the user has scrolled up to read; then a "New message" pill.
// A reply taller than the transcript opens at its start (its summary sentence and first items), not its end.
var NEAR_BOTTOM_PX = 48;

function transcript() { return document.getElementById("assistant-transcript"); }

var pinned = true;

function atBottom(box) { return box.scrollHeight - box.scrollTop - box.clientHeight < NEAR_BOTTOM_PX; }

export function scrollToBottom() {
  var box = transcript();
  if (!box) return;
  box.scrollTop = box.scrollHeight;
  pinned = true;
  showPill(false);
}

// The gap left above a reply shown from its start, so its first line is not flush with the edge.
var START_GAP_PX = 8;

// Show a reply that does not fit from its start; one that fits ends the transcript as before.
function showReply(run) {
  var box = transcript();
  if (!box || run.getBoundingClientRect().height <= box.clientHeight) { scrollToBottom(); return; }
  // From the question when it is short, so the reader sees what is answered; else from the answer.
  var asked = run.querySelector(".bubble-user");
  var from = asked && asked.getBoundingClientRect().height < box.clientHeight / 4
    ? run : (run.querySelector(".bubble-assistant") || run);
  box.scrollTop += from.getBoundingClientRect().top - box.getBoundingClientRect().top - START_GAP_PX;
  // The reader is now above the end: later changes do not pull the view down (the pill offers it).
  pinned = atBottom(box);
}

function showPill(shown) {
  var pill = document.getElementById("assistant-new-pill");
  if (pill) pill.hidden = !shown;
}

function followNewContent() {
  var box = transcript();
  if (!box || box.dataset.followed) return;
  box.dataset.followed = "1";
  box.addEventListener("scroll", function () {
    pinned = atBottom(box);
    if (pinned) showPill(false);
  }, { passive: true });
  // Every way a message arrives (a swap, a poll, an echo) changes the transcript's children; only a
  // run not seen before is news (a polling run replaces itself every second).
  var seen = new Set(Array.prototype.map.call(box.querySelectorAll(".run[id]"), function (r) { return r.id; }));
  // A run not seen before with runs after it was loaded by "Show earlier": history, not news, and the
  // view stays where the reader is (the browser keeps what is on screen in place).
  function earlier(node) {
    if (node.id && seen.has(node.id)) return false;
    for (var next = node.nextElementSibling; next; next = next.nextElementSibling) {
      if (next.classList.contains("run")) return true;
    }
    return false;
  }
  new MutationObserver(function (mutations) {
    var runs = [];
    mutations.forEach(function (m) {
      Array.prototype.forEach.call(m.addedNodes, function (node) {
        if (node.classList && node.classList.contains("run")) runs.push(node);
      });
    });
    if (runs.length && runs.every(earlier)) {
      runs.forEach(function (node) { if (node.id) seen.add(node.id); });
      return;
    }
    var fresh = runs.filter(function (node) {
      if (!node.id) return true;
      var unseen = !seen.has(node.id);
      seen.add(node.id);
      return unseen;
    });
    // An answer that landed (a new run, or a working run replaced by its result) is shown from its start.
    // A card is not: the shell puts the focus on it.
    var answered = runs.filter(function (node) { return node.id && !node.hasAttribute("data-pending")
      && !node.classList.contains("run-running") && !node.querySelector(".confirm-card"); });
    if (pinned && answered.length) showReply(answered[answered.length - 1]);
    else if (pinned) scrollToBottom();
    else if (fresh.length) showPill(true);
  }).observe(box, { childList: true, subtree: true });
  scrollToBottom();
}

document.addEventListener("click", function (event) {
  if (event.target.closest("#assistant-new-pill")) scrollToBottom();
});

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", followNewContent);
else followNewContent();
