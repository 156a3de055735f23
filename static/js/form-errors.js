/* A form sent back with errors puts the focus on its first field in error, so that a keyboard
   or a screen reader starts from the question to fix (and a phone scrolls to it) instead of the
   top of the page. Works on a page load (a form posted without htmx) and after an htmx swap
   (the swapped part only) that answers a form's submission: a live preview while typing (the
   calculator) never takes the focus away. The deal entry screen has its own (entry.js).
   Without this file the errors are still written beside their fields. */
(function () {
  "use strict";

  var INVALID =
    '[aria-invalid="true"], .field-invalid input:not([type=hidden]), ' +
    ".field-invalid select, .field-invalid textarea";

  function usable(control) {
    return !control.disabled && control.getClientRects().length > 0;
  }

  function firstInvalid(root) {
    var found = root.querySelectorAll(INVALID);
    for (var i = 0; i < found.length; i++) {
      if (!found[i].closest("#deal-entry") && usable(found[i])) {
        return found[i];
      }
    }
    return null;
  }

  function formError(root) {
    // An error about the whole form (no field to point at): its message takes the focus.
    var list = root.querySelector("form .errorlist.nonfield");
    return list && !list.closest("#deal-entry") ? list : null;
  }

  function focusFirstError(root) {
    var control = firstInvalid(root);
    if (!control) {
      control = formError(root);
      if (!control) {
        return;
      }
      control.setAttribute("tabindex", "-1");
    }
    control.scrollIntoView({ block: "center" });
    control.focus({ preventScroll: true });
  }

  function submitted(detail) {
    var config = detail && detail.requestConfig;
    var trigger = config && config.triggeringEvent;
    return Boolean(trigger && trigger.type === "submit");
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    if (!submitted(event.detail)) {
      return;
    }
    // The settled part (an outerHTML swap settles the new element; the old target is gone).
    var root = event.target;
    focusFirstError(root instanceof Element && root.isConnected ? root : document);
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () {
      focusFirstError(document);
    });
  } else {
    focusFirstError(document);
  }
})();
