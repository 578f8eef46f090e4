// Sidebar buttons that make no sense in the task's status (Mark done on a done task) follow the
// page when it refreshes after the assistant changed it; the server renders them right on load.
(function () {
  "use strict";

  function sync() {
    var holder = document.querySelector("#main [data-task-status]");
    var status = holder ? holder.dataset.taskStatus : null;
    document.querySelectorAll("#assistant [data-hidden-for-status]").forEach(function (button) {
      button.hidden = status !== null && button.dataset.hiddenForStatus === status;
    });
  }

  document.addEventListener("pm:content-refreshed", sync);
})();
