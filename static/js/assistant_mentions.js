// References in the composer: "#" and a few letters list the user's tasks and projects (agent.web.mentions);
// arrows move, Enter or Tab puts the choice's key or name in place of the "#...", Escape closes the list.
var WAIT_MS = 150;
var TYPED = /(^|\s)#([^\s#]{0,60})$/; // the reference being typed, right before the caret
var timer = null, asked = 0, active = -1;

function input() { return document.getElementById("assistant-message"); }
function list() { return document.getElementById("assistant-mentions"); }
function options() { return Array.prototype.slice.call(list().querySelectorAll(".mention")); }
function isOpen() { var l = list(); return Boolean(l && !l.hidden); }

function typedReference() {
  var box = input();
  if (!box || box.selectionStart !== box.selectionEnd) return null;
  var found = TYPED.exec(box.value.slice(0, box.selectionStart));
  return found ? { text: found[2], start: box.selectionStart - found[2].length - 1 } : null;
}

function close() {
  var l = list(), box = input();
  if (!l) return;
  l.hidden = true;
  l.innerHTML = "";
  active = -1;
  if (box) box.removeAttribute("aria-activedescendant");
}

function highlight(index) {
  var all = options();
  if (!all.length) return;
  active = (index + all.length) % all.length;
  all.forEach(function (option, i) { option.setAttribute("aria-selected", String(i === active)); });
  input().setAttribute("aria-activedescendant", all[active].id);
  all[active].scrollIntoView({ block: "nearest" });
}

function ask(text) {
  var l = list(), ticket = ++asked;
  fetch(l.dataset.url + "?q=" + encodeURIComponent(text), { credentials: "same-origin" })
    .then(function (response) { return response.ok ? response.text() : ""; })
    .then(function (html) {
      // Only the answer to the latest question, and only while a reference is still being typed.
      if (ticket !== asked || !typedReference()) return;
      if (!html.trim()) { close(); return; }
      l.innerHTML = html;
      l.hidden = false;
      active = -1;
      if (options().length) highlight(0);
    })
    .catch(close);
}

function pick(option) {
  var box = input(), ref = typedReference();
  if (!box || !ref || !option) return;
  var insert = option.getAttribute("data-insert") + " ";
  var after = box.value.slice(box.selectionStart);
  box.value = box.value.slice(0, ref.start) + insert + after;
  var caret = ref.start + insert.length;
  box.setSelectionRange(caret, caret);
  close();
  box.dispatchEvent(new Event("input", { bubbles: true }));
  box.focus();
}

document.addEventListener("input", function (event) {
  if (event.target !== input()) return;
  window.clearTimeout(timer);
  var ref = typedReference();
  if (!ref) { asked++; close(); return; }
  timer = window.setTimeout(function () { ask(ref.text); }, WAIT_MS);
});

// Before the composer's own keys (Enter sends, Escape closes the drawer): captured, while the list is open.
document.addEventListener("keydown", function (event) {
  if (event.target !== input() || !isOpen() || event.isComposing) return;
  var handled = true;
  if (event.key === "ArrowDown") highlight(active + 1);
  else if (event.key === "ArrowUp") highlight(active - 1);
  else if ((event.key === "Enter" || event.key === "Tab") && active >= 0) pick(options()[active]);
  else if (event.key === "Escape") close();
  else handled = false;
  if (handled) { event.preventDefault(); event.stopImmediatePropagation(); }
}, true);

// A press on an option keeps the focus in the input, then picks it.
document.addEventListener("mousedown", function (event) {
  if (event.target.closest && event.target.closest("#assistant-mentions")) event.preventDefault();
});
document.addEventListener("click", function (event) {
  var option = event.target.closest && event.target.closest("#assistant-mentions .mention");
  if (option) pick(option);
});
document.addEventListener("focusout", function (event) {
  if (event.target === input()) window.setTimeout(function () { if (document.activeElement !== input()) close(); }, 0);
});
document.addEventListener("htmx:beforeRequest", function (event) {
  if (event.detail.elt.matches && event.detail.elt.matches("#assistant .assistant-form")) close();
});
