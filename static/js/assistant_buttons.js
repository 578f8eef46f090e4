// Sidebar buttons that make no sense in the task's status (Mark done on a done task) follow the
// page when it refreshes after the assistant changed it. The server decides which are hidden (the
// page's view passes the status to the sidebar's template); here each quick button takes the hidden
// state of the same button in the fresh page (page_context.js hands it over), so nothing is read
// from the page's own markup.
var QUICK = "#assistant .assistant-quick [data-assistant-action]";

function sync(event) {
  var fresh = event.detail && event.detail.page;
  if (!fresh) return;
  var hidden = new Map();
  fresh.querySelectorAll(QUICK).forEach(function (button) {
    hidden.set(button.getAttribute("data-assistant-action"), button.hidden);
  });
  document.querySelectorAll(QUICK).forEach(function (button) {
    var action = button.getAttribute("data-assistant-action");
    if (hidden.has(action)) button.hidden = hidden.get(action);
  });
}

document.addEventListener("pm:content-refreshed", sync);
