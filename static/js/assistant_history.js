// The Recent conversations list: deleting the current conversation starts a new, empty one, as
// New conversation does, so the transcript never shows a conversation that no longer exists.
(function () {
  "use strict";

  document.body.addEventListener("assistant-conversation-deleted", function () {
    var fresh = document.getElementById("assistant-new-conversation");
    if (fresh && window.htmx) window.htmx.trigger(fresh, "click");
  });
})();
