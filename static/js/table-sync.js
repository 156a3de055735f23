// A tournament table's phones in step (tournaments.views.table_sync). The table's page polls
// its block with htmx (#table-sync, hx-trigger "every ..."); this script makes the poll a
// conditional one and keeps it from getting in the way:
// - each ask sends the ETag of the block on screen (data-etag) as If-None-Match, so the site
//   answers 304 while nothing changed, and htmx then swaps nothing;
// - a block that changed is not swapped in while the person is busy in one of its parts (the
//   focus there, a PIN typed): the next poll, with the same ETag, brings it again.
(function () {
  "use strict";

  var POLL = "table-sync";
  // The parts of the page the poll's answer replaces (out of band).
  var PARTS = ["to-confirm", "game-totals", "table-boards", "table-sheet"];

  function isPoll(elt) {
    return !!elt && elt.id === POLL;
  }

  function busy() {
    var active = document.activeElement;
    return PARTS.some(function (id) {
      var part = document.getElementById(id);
      if (!part) {
        return false;
      }
      if (active && active !== document.body && part.contains(active)) {
        return true;
      }
      return Array.prototype.some.call(part.querySelectorAll("input:not([type=hidden])"), function (input) {
        return input.value !== "";
      });
    });
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (isPoll(elt) && elt.dataset.etag) {
      event.detail.headers["If-None-Match"] = elt.dataset.etag;
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!isPoll(event.detail.elt)) {
      return;
    }
    if (event.detail.xhr.status === 304 || busy()) {
      event.detail.shouldSwap = false;
    }
  });
})();
