// Live parts of the tournament pages: htmx polls them (hx-trigger="every 5s"). Each poll sends
// the ETag of what is on screen, so an unchanged tournament answers 304 and nothing is swapped.
(function () {
  "use strict";
  document.addEventListener("htmx:configRequest", function (event) {
    var etag = event.detail.elt.getAttribute("data-etag");
    if (etag) {
      event.detail.headers["If-None-Match"] = etag;
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 304) {
      event.detail.shouldSwap = false;
    }
  });
})();
