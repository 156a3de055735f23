/* The new-tournament form: only the fields of the format chosen are shown (each field names
   its formats in data-formats; the others are hidden and put back to their defaults, so a
   hidden choice is never sent). A field with an error stays shown. Without this script every
   field is shown, as the page is written. */
(function () {
  "use strict";
  var form = document.getElementById("tournament-form");
  if (!form) {
    return;
  }

  function chosen() {
    var checked = form.querySelector('input[name="format"]:checked');
    return checked ? checked.value : "";
  }

  function reset(field) {
    Array.prototype.forEach.call(field.querySelectorAll("input, select, textarea"), function (input) {
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = input.defaultChecked;
      } else if (input.tagName === "SELECT") {
        Array.prototype.forEach.call(input.options, function (option) {
          option.selected = option.defaultSelected;
        });
      } else {
        input.value = input.defaultValue;
      }
    });
  }

  function show() {
    var format = chosen();
    Array.prototype.forEach.call(form.querySelectorAll("[data-formats]"), function (field) {
      var wanted = !format || field.dataset.formats.split(" ").indexOf(format) >= 0;
      var hide = !wanted && !field.classList.contains("field-invalid");
      if (hide && !field.hidden) {
        reset(field);
      }
      field.hidden = hide;
    });
  }

  form.addEventListener("change", function (event) {
    if (event.target && event.target.name === "format") {
      show();
    }
  });
  show();
})();
