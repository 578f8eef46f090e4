// The transcript follows new messages unless the user has scrolled up to read; then a "New message" pill.
(function () {
  "use strict";

  var NEAR_BOTTOM_PX = 48;

  function transcript() { return document.getElementById("assistant-transcript"); }

  var pinned = true;

  function atBottom(box) { return box.scrollHeight - box.scrollTop - box.clientHeight < NEAR_BOTTOM_PX; }

  function scrollToBottom() {
    var box = transcript();
    if (!box) return;
    box.scrollTop = box.scrollHeight;
    pinned = true;
    showPill(false);
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
      var news = runs.some(function (node) {
        if (!node.id) return true;
        var fresh = !seen.has(node.id);
        seen.add(node.id);
        return fresh;
      });
      if (pinned) scrollToBottom();
      else if (news) showPill(true);
    }).observe(box, { childList: true, subtree: true });
    scrollToBottom();
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("#assistant-new-pill")) scrollToBottom();
  });

  window.pmAssistantFollow = { scrollToBottom: scrollToBottom };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", followNewContent);
  else followNewContent();
})();
