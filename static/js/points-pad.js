/* The points pad of the deal entry screen (club game or tournament table link): the common
   attack scores in one tap, then half points or points up or down, with large keys, instead of
   the phone's keyboard over half the screen. The field stays the form's own: the pad writes
   its value (with the page's decimal mark: 40,5 in French, 40.5 in English) and tells the form
   it changed, so the live preview follows. inputmode="none" keeps the phone's keyboard shut
   when the field is tapped; the last key gives the keyboard back to type any number. Without
   this file the pad stays hidden and the field is a plain number field. */
(function () {
  "use strict";

  var MAX = 91;

  function decimalMark() {
    return (document.documentElement.lang || "fr").slice(0, 2) === "en" ? "." : ",";
  }

  function read(input) {
    var value = parseFloat(String(input.value || "").replace(",", "."));
    return isNaN(value) ? null : value;
  }

  function write(input, value) {
    value = Math.max(0, Math.min(MAX, Math.round(value * 2) / 2));
    var text = String(value);
    input.value = text.replace(".", decimalMark());
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function setUp(pad) {
    var input = document.getElementById(pad.dataset.for);
    if (!input || pad.dataset.ready) {
      return;
    }
    pad.dataset.ready = "1";
    input.setAttribute("inputmode", "none");
    pad.hidden = false;
  }

  function setUpAll(root) {
    var pads = (root || document).querySelectorAll(".points-pad");
    for (var i = 0; i < pads.length; i++) {
      setUp(pads[i]);
    }
  }

  document.addEventListener("click", function (event) {
    var key = event.target instanceof Element ? event.target.closest(".pad-key") : null;
    if (!key) {
      return;
    }
    var pad = key.closest(".points-pad");
    var input = pad && document.getElementById(pad.dataset.for);
    if (!input) {
      return;
    }
    if (key.classList.contains("pad-type")) {
      var typing = key.getAttribute("aria-pressed") !== "true";
      key.setAttribute("aria-pressed", typing ? "true" : "false");
      input.setAttribute("inputmode", typing ? "decimal" : "none");
      input.focus();
      return;
    }
    if (key.dataset.set) {
      write(input, parseFloat(key.dataset.set));
    } else if (key.dataset.step) {
      var now = read(input);
      write(input, (now === null ? 41 : now) + parseFloat(key.dataset.step));
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    setUpAll(document);
  });
  // After a Save or an Undo htmx puts a new form in: its pad is set up the same way.
  document.addEventListener("htmx:load", function (event) {
    setUpAll(event.detail.elt);
  });
  setUpAll(document);
})();
