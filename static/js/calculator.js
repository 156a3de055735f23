/* Score calculator: keeps the seat names in step while they are typed (labels, and the taker,
   partner and mort options), so a player picks "Chloé" rather than "Player 3". Without this
   file the page still works: names follow on the next submit. */
(function () {
  "use strict";
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.dataset.seatInput) {
      return;
    }
    var seat = input.dataset.seatInput;
    var name = input.value.trim() || input.dataset.seatDefault;
    document.querySelectorAll('[data-seat-label="' + seat + '"]').forEach(function (label) {
      label.textContent = name;
    });
    document
      .querySelectorAll('select[data-seat-select] option[value="' + seat + '"]')
      .forEach(function (option) {
        option.textContent = name;
      });
  });

  // The scores are redrawn at each keystroke: "how it adds up", once opened, stays open.
  var breakdownOpen = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var box = document.querySelector("#result .breakdown-box");
    if (event.detail.target && event.detail.target.id === "result") {
      breakdownOpen = box !== null && box.open;
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var box = document.querySelector("#result .breakdown-box");
    if (breakdownOpen && box && event.detail.target && event.detail.target.id === "result") {
      box.open = true;
    }
  });
})();
