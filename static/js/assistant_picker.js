// A clarify reply's project choices ("Which project should ... go in?") are answered once: when one is
// sent, every choice of that run is disabled, so a second click cannot create the task twice. Shown
// again later (a reload, another browser, back in that conversation), the server renders them closed
// once the run's message was sent again in its conversation, which is what a choice does
// (agent/web/run_partial.py).
// The button just used keeps focus (disabling it would drop focus to the page): it is marked instead,
// and the click guard below holds it.
function close(picker) {
  picker.setAttribute("data-answered", "");
  picker.querySelectorAll("button").forEach(function (button) {
    if (button === document.activeElement) button.setAttribute("aria-disabled", "true");
    else button.disabled = true;
  });
}

function reopen(picker) {
  picker.removeAttribute("data-answered");
  picker.querySelectorAll("button").forEach(function (button) {
    button.disabled = false;
    button.removeAttribute("aria-disabled");
  });
}

// Capturing, so a click on an answered choice never reaches htmx on the button.
document.addEventListener("click", function (event) {
  if (event.target.closest && event.target.closest(".project-picker[data-answered] button")) {
    event.preventDefault();
    event.stopPropagation();
  }
}, true);

// Sent (not refused before sending, as a second request while one is out is).
document.addEventListener("htmx:beforeSend", function (event) {
  var picker = event.detail.elt.closest && event.detail.elt.closest(".project-picker");
  if (!picker) return;
  close(picker);
});

// Not answered after all (the server refused it, or it never arrived): the user picks again.
document.addEventListener("htmx:afterRequest", function (event) {
  var elt = (event.detail.requestConfig && event.detail.requestConfig.elt) || event.detail.elt;
  var picker = elt && elt.closest && elt.closest(".project-picker");
  var status = event.detail.xhr ? event.detail.xhr.status : 0;
  if (!picker || (status > 0 && status < 400)) return;
  reopen(picker);
});
