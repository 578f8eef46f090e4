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
    new MutationObserver(function (mutations) {
      var news = mutations.some(function (m) {
        return Array.prototype.some.call(m.addedNodes, function (node) {
          if (!node.classList || !node.classList.contains("run")) return false;
          if (!node.id) return true;
          var fresh = !seen.has(node.id);
          seen.add(node.id);
          return fresh;
        });
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
