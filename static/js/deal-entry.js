// Deal entry: let htmx show the answers that say "not saved" (400: a message beside a field;
// 409: another phone saved first, or the game is finished) instead of ignoring them.
// Without JavaScript the same answers arrive as whole pages.
document.addEventListener("htmx:beforeSwap", function (event) {
  var status = event.detail.xhr.status;
  if (status === 400 || status === 409) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
