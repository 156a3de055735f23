/* The deal entry screen on a phone (club game or tournament table link). Without this file the
   screen still works: Save, Undo and the messages are plain forms and text.

   - A tap on Save blurs the points field, whose "change" would start a preview that the save
     then makes wait or drops: no preview starts while Save is being pressed.
   - After a Save: the top of the screen (the new row and the totals) is brought into view, and
     the "saved" notice with its Undo folds away after a few seconds (not while it has focus).
   - After an Undo: the "undone" notice takes the focus (its button is gone).
   - After a refusal: the first message is scrolled into view (the folded extras open if it is in
     them) and its question takes the focus.
   - A message that the live preview puts in the folded extras opens them. */
(function () {
  "use strict";

  var NOTICE_SECONDS = 12;
  var pressingSave = false;
  var noticeTimer = null;

  function saveButton(target) {
    return target instanceof Element && target.closest("#save-deal") !== null;
  }

  function markPress(event) {
    if (saveButton(event.target)) {
      pressingSave = true;
      // A press that ends without a click (a drag away) lets previews run again.
      window.setTimeout(function () {
        pressingSave = false;
      }, 1000);
    }
  }

  document.addEventListener("pointerdown", markPress, true);
  document.addEventListener("mousedown", markPress, true);
  document.addEventListener("touchstart", markPress, { capture: true, passive: true });

  // htmx asks before each request: a preview asked for by the blur of a Save is not sent.
  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.id === "deal-preview" && pressingSave) {
      event.preventDefault();
    }
  });

  function openExtrasAround(element) {
    var details = element.closest("details");
    if (details && !details.open) {
      details.open = true;
    }
  }

  function firstError(root) {
    var boxes = root.querySelectorAll(".field-errors");
    for (var i = 0; i < boxes.length; i++) {
      if (boxes[i].querySelector("li")) {
        return boxes[i];
      }
    }
    return null;
  }

  function focusError(box) {
    openExtrasAround(box);
    var field = box.closest("fieldset, .field");
    var control = null;
    if (field) {
      control =
        field.querySelector("input:checked:not([type=hidden])") ||
        field.querySelector("input:not([type=hidden]), select, textarea");
    }
    if (!control) {
      box.setAttribute("tabindex", "-1");
      control = box;
    }
    // The message and its question in the middle of the screen, clear of the bottom bar.
    (field || box).scrollIntoView({ block: "center" });
    control.focus({ preventScroll: true });
  }

  function foldNoticeLater() {
    window.clearTimeout(noticeTimer);
    var notice = document.getElementById("deal-saved");
    if (!notice) {
      return;
    }
    noticeTimer = window.setTimeout(function fold() {
      var current = document.getElementById("deal-saved");
      if (!current) {
        return;
      }
      if (current.contains(document.activeElement)) {
        noticeTimer = window.setTimeout(fold, 2000);
        return;
      }
      current.hidden = true;
    }, NOTICE_SECONDS * 1000);
  }

  function afterEntrySwap(entry) {
    pressingSave = false;
    var box = firstError(entry);
    if (box) {
      focusError(box);
      return;
    }
    var undone = document.getElementById("deal-undone");
    if (undone && (document.activeElement === null || document.activeElement === document.body)) {
      // The Undo button went away with the notice that held it: the focus goes to what
      // replaced it ("Deal N undone: fix it and save it again"), not back to the page's top.
      undone.setAttribute("tabindex", "-1");
      undone.focus({ preventScroll: true });
    }
    if (document.getElementById("deal-saved") || undone) {
      // The new row and the totals sit at the top of the screen: bring them back if the
      // deal had scrolled them away.
      var top = document.getElementById("game-totals") || entry;
      if (top.getBoundingClientRect().top < 0) {
        top.scrollIntoView({ block: "start" });
      }
      foldNoticeLater();
    }
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (!(target instanceof Element)) {
      return;
    }
    if (target.id === "deal-entry") {
      // An outerHTML swap: the element that came in, not the one it replaced.
      var swapped = document.getElementById("deal-entry");
      if (swapped) {
        afterEntrySwap(swapped);
      }
    } else if (target.id === "deal-preview") {
      var entry = document.getElementById("deal-entry");
      var box = entry ? firstError(entry) : null;
      if (box) {
        openExtrasAround(box);
      }
    }
  });

  // Opened by a tap, the extras show whole above the bar (scrolled up as far as needed, and
  // never past their own top).
  document.addEventListener("click", function (event) {
    var summary = event.target instanceof Element ? event.target.closest("summary") : null;
    var details = summary ? summary.parentElement : null;
    if (!details || !details.classList.contains("extras") || !details.closest("#deal-entry")) {
      return;
    }
    window.requestAnimationFrame(function () {
      if (!details.open) {
        return;
      }
      var bar = document.getElementById("entry-bar");
      var visibleBottom = window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
      var box = details.getBoundingClientRect();
      var overflow = box.bottom - visibleBottom;
      if (overflow > 0) {
        window.scrollBy(0, Math.min(overflow, box.top));
      }
    });
  });

  // The live line is redrawn as the deal is typed (and when a tap blurs the points): "how it is
  // counted", once opened, stays open.
  var breakdownOpen = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (target instanceof Element && target.id === "deal-preview") {
      var box = target.querySelector(".breakdown");
      breakdownOpen = box !== null && box.open;
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (breakdownOpen && target instanceof Element && target.id === "deal-preview") {
      var box = target.querySelector(".breakdown");
      if (box) {
        box.open = true;
      }
    }
  });

  // A page load that shows a refusal (a Save without htmx) or a notice does the same.
  function onLoad() {
    var entry = document.getElementById("deal-entry");
    if (!entry) {
      return;
    }
    var box = firstError(entry);
    if (box) {
      focusError(box);
    } else if (document.getElementById("deal-saved")) {
      foldNoticeLater();
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", onLoad);
  } else {
    onLoad();
  }
})();
