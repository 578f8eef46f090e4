// The task list's filter form matches the address after Back and Forward. htmx restores a page from a
// snapshot of its markup, and a ticked chip or a chosen option lives in the element's state, not in
// its markup: restored, the form showed the filters the page was first drawn with, and the next change
// sent those. So whenever the address takes the form's filters, the markup is made to say them too.
function writeIntoMarkup(form) {
  Array.prototype.forEach.call(form.elements, function (field) {
    if (field.type === "checkbox" || field.type === "radio") {
      field.defaultChecked = field.checked;
    } else if (field.tagName === "SELECT") {
      Array.prototype.forEach.call(field.options, function (option) { option.defaultSelected = option.selected; });
    } else if (field.tagName === "INPUT" || field.tagName === "TEXTAREA") {
      field.defaultValue = field.value;
    }
  });
}

// The snapshot of the page being left has been taken by now (with its own filters in the markup).
function onAddressChanged() {
  var form = document.getElementById("task-filters");
  if (form) writeIntoMarkup(form);
}

document.addEventListener("htmx:pushedIntoHistory", onAddressChanged);
document.addEventListener("htmx:replacedInHistory", onAddressChanged);
