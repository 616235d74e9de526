// The replay's arrow keys: left and right follow the page's previous and next links, which work
// without this script too (each step is a link, ?upto=K).
(function () {
  "use strict";

  function follow(action) {
    var link = document.querySelector('[data-replay] a[data-action="' + action + '"][href]');
    if (link) {
      link.click();
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return;
    }
    if (event.key === "ArrowRight") {
      event.preventDefault();
      follow("next");
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      follow("prev");
    }
  });
})();
