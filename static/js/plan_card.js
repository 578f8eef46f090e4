// The plan card: what approving will run, kept as the user left it.
// Unchecking a step also unchecks the steps built on it, as the server will drop them; a dropped step
// is struck through (CSS) and the Approve button says how many steps will run. The choice is kept in
// the browser's storage under the card's id, so a reload (or a conversation shown again) shows the
// card as the user left it; a decided card is swapped out, and its entry goes with the next clean-up.
var PREFIX = "pm.planDrops.";
var KEEP_DAYS = 7;

function storageKey(card) { return PREFIX + card.dataset.planCard; }

function boxes(card) { return card.querySelectorAll("input[name=keep_steps]"); }

function readDrops(card) {
  try { return JSON.parse(window.localStorage.getItem(storageKey(card)) || "{}").drops || []; }
  catch (e) { return []; }
}

function saveDrops(card) {
  var drops = [];
  boxes(card).forEach(function (box) { if (!box.checked) drops.push(box.value); });
  try {
    if (drops.length) window.localStorage.setItem(storageKey(card), JSON.stringify({ drops: drops, at: Date.now() }));
    else window.localStorage.removeItem(storageKey(card));
  } catch (e) { /* storage refused (private mode): the card still works, only not across reloads */ }
}

// The card's words with their {fields} filled (the server wrote them in the language of the message).
function fill(text, fields) {
  return text.replace(/\{(\w+)\}/g, function (whole, name) { return name in fields ? fields[name] : whole; });
}

// The button's words follow the ticks: "Approve and run 2 of 3 steps"; none left, nothing to approve.
function showCount(card) {
  var all = boxes(card);
  var kept = 0;
  all.forEach(function (box) { if (box.checked) kept += 1; });
  var words = card.querySelector("[data-plan-run-count]");
  if (words && card.dataset.runAll) {
    var each = kept === all.length ? kept : all.length;
    var steps = each === 1 ? card.dataset.stepOne : card.dataset.stepMany;
    words.textContent = fill(kept === all.length ? card.dataset.runAll : card.dataset.runSome,
                             {kept: kept, all: all.length, steps: steps});
  }
  var approve = card.querySelector("[data-confirm-run]");
  if (approve) approve.disabled = kept === 0;
}

function dropDependents(card, box) {
  var dropped = [box.value];
  while (dropped.length) {
    var id = dropped.pop();
    card.querySelectorAll(".plan-step").forEach(function (step) {
      var needs = (step.dataset.needs || "").split(" ");
      var other = step.querySelector("input[name=keep_steps]");
      if (other && other.checked && needs.indexOf(id) >= 0) {
        other.checked = false;
        dropped.push(other.value);
      }
    });
  }
}

document.addEventListener("change", function (event) {
  var box = event.target;
  var card = box.closest && box.closest("[data-plan-card]");
  if (!card || box.name !== "keep_steps") return;
  if (!box.checked) dropDependents(card, box);
  saveDrops(card);
  showCount(card);
});

function restore(root) {
  var cards = root.matches && root.matches("[data-plan-card]") ? [root] : root.querySelectorAll("[data-plan-card]");
  cards.forEach(function (card) {
    var drops = readDrops(card);
    boxes(card).forEach(function (box) { if (drops.indexOf(box.value) >= 0) box.checked = false; });
    showCount(card);
  });
}

// Entries of cards decided long ago (or in another tab) are not kept forever.
function forgetOld() {
  try {
    var limit = Date.now() - KEEP_DAYS * 86400000;
    for (var i = window.localStorage.length - 1; i >= 0; i--) {
      var key = window.localStorage.key(i);
      if (key && key.indexOf(PREFIX) === 0) {
        var at = (JSON.parse(window.localStorage.getItem(key) || "{}").at) || 0;
        if (at < limit) window.localStorage.removeItem(key);
      }
    }
  } catch (e) { /* unreadable storage: nothing to clean */ }
}

document.addEventListener("htmx:load", function (event) { restore(event.detail.elt); });

function init() { forgetOld(); restore(document); }
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
