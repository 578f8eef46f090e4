// The Recent conversations list: deleting the current conversation starts a new, empty one, as
// New conversation does, so the transcript never shows a conversation that no longer exists. The list
// stays open on its "Deleted …" notice (a new conversation shown otherwise closes it).
document.body.addEventListener("assistant-conversation-deleted", function () {
  var fresh = document.getElementById("assistant-new-conversation");
  var history = document.getElementById("assistant-history");
  if (history) history.dataset.keepOpen = "true";
  if (fresh && window.htmx) window.htmx.trigger(fresh, "click");
});
