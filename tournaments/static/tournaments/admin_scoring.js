// The tournament's add form asks for best_of only when matches are scored by rounds: with
// scoring by points (a fixed number of rounds, won on points) its row is hidden, and the server
// ignores it (TournamentCreateForm.clean). Without this script the row shows, and is still
// ignored.
(function () {
  "use strict";
  function follow() {
    var scoring = document.querySelector("select[name=scoring]");
    var row = document.querySelector(".form-row.field-best_of");
    if (!scoring || !row) {
      return;
    }
    function show() {
      row.hidden = scoring.value === "points";
    }
    scoring.addEventListener("change", show);
    show();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", follow);
  } else {
    follow();
  }
})();
