// The sign-up page (decision record 0053): the player key shown once is kept in this browser's
// localStorage, by tournament, for the player's own page. No inline script (strict CSP).
(function () {
  "use strict";
  function keep() {
    var result = document.querySelector("[data-player-key]");
    if (!result) { return; }
    try {
      window.localStorage.setItem(
        "briscola.playerKey." + result.getAttribute("data-tournament"),
        result.getAttribute("data-player-key")
      );
      var kept = document.querySelector("[data-key-kept]");
      if (kept) { kept.hidden = false; }
    } catch (error) {
      // Private browsing or storage full: the key stays on the screen for the player to copy.
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", keep);
  } else {
    keep();
  }
})();
