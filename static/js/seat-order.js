// The new-game form: the players sit in the order they were tapped. The order goes into the
// hidden seat_order field and each ticked chip shows its seat number; without this script
// the players sit in the order of the list.
(function () {
  "use strict";
  document.querySelectorAll("[data-seat-order]").forEach(function (row) {
    var field = document.getElementById(row.getAttribute("data-seat-order"));
    var line = document.getElementById("seat-order-line");
    if (!field) return;
    var boxes = Array.prototype.slice.call(row.querySelectorAll("input[type=checkbox]"));
    var order = field.value ? field.value.split(",").filter(Boolean) : [];
    // Keep only what is ticked, then add ticked boxes the order does not know (a page
    // restored by the browser), in list order.
    function ticked() {
      return boxes.filter(function (box) { return box.checked; }).map(function (box) { return box.value; });
    }
    function sync() {
      var now = ticked();
      order = order.filter(function (id) { return now.indexOf(id) !== -1; });
      now.forEach(function (id) { if (order.indexOf(id) === -1) order.push(id); });
      field.value = order.join(",");
      var names = [];
      boxes.forEach(function (box) {
        var seat = order.indexOf(box.value);
        var chip = box.closest(".chip");
        if (chip) {
          if (seat === -1) chip.removeAttribute("data-seat");
          else chip.setAttribute("data-seat", String(seat + 1));
        }
      });
      order.forEach(function (id) {
        var box = boxes.find(function (b) { return b.value === id; });
        var label = box && box.closest(".chip") ? box.closest(".chip").textContent.trim() : id;
        names.push(label);
      });
      if (line) line.textContent = names.join(" → ");
    }
    row.addEventListener("change", function (event) {
      var box = event.target;
      if (!(box instanceof HTMLInputElement) || box.type !== "checkbox") return;
      if (box.checked) order.push(box.value);
      sync();
    });
    sync();
  });
})();
