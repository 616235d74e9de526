// Live parts of the tournament pages. htmx polls them (hx-trigger="every 5s, feed"); each poll
// sends the ETag of what is on screen, so an unchanged tournament answers 304 and nothing is
// swapped.
//
// Where the browser has EventSource, the page follows the tournament's event stream instead
// (data-feed, from the position the page shows; decision 0038): each event refreshes the live
// part at once (the "feed" trigger), and again after CATCH_UP_MS (then twice as long, and so
// on) while the answer says the worker has not projected it yet (data-caught-up="0": the
// standings and the bracket follow the event a moment later). While the stream is open the
// timed polls are skipped, but for one now and then as a safety net; when it is not (no
// EventSource, refused, reconnecting), the polls go out as before.
(function () {
  "use strict";
  var COALESCE_MS = 150; // events that come together refresh once
  var LEAST_GAP_MS = 2000; // and a busy evening's stream (a card a few ms apart at a hundred
  // tables) refreshes at most this often: every follower's refresh is a request to the server
  var CATCH_UP_MS = 1500; // then again until the worker has projected it, each wait doubled
  var CATCH_UP_MAX_MS = 30000; // (a worker that is down is not asked after every second)
  var SAFETY_MS = 60000; // while following, a timed poll still goes out this often

  var source = null;
  var pending = null;
  var catchUp = null;
  var catchUpWait = CATCH_UP_MS;
  var lastRefresh = Date.now();

  function live() {
    return document.getElementById("live");
  }

  function following() {
    return source !== null && source.readyState === EventSource.OPEN;
  }

  function refresh() {
    // One refresh for whatever asked for it (the events heard, the worker's catch-up), and
    // the least gap counted from when it went out.
    clearTimeout(pending);
    clearTimeout(catchUp);
    pending = null;
    catchUp = null;
    lastRefresh = Date.now();
    var element = live();
    if (element) {
      htmx.trigger(element, "feed");
    }
  }

  function heard() {
    catchUpWait = CATCH_UP_MS;
    if (pending === null) {
      var wait = Math.max(COALESCE_MS, lastRefresh + LEAST_GAP_MS - Date.now());
      pending = setTimeout(refresh, wait);
    }
  }

  function catchUpLater() {
    var element = live();
    clearTimeout(catchUp);
    if (following() && element && element.getAttribute("data-caught-up") === "0") {
      catchUp = setTimeout(refresh, catchUpWait);
      catchUpWait = Math.min(catchUpWait * 2, CATCH_UP_MAX_MS);
    }
  }

  function follow() {
    var element = live();
    if (!element || !window.EventSource || !element.getAttribute("data-feed")) {
      return;
    }
    source = new EventSource(element.getAttribute("data-feed"));
    (element.getAttribute("data-feed-events") || "").split(" ").forEach(function (type) {
      if (type) {
        source.addEventListener(type, heard);
      }
    });
  }

  function fromFeed(detail) {
    var cause = detail.requestConfig && detail.requestConfig.triggeringEvent;
    return Boolean(cause && cause.type === "feed");
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var etag = event.detail.elt.getAttribute("data-etag");
    if (etag) {
      event.detail.headers["If-None-Match"] = etag;
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id !== "live" || fromFeed(event.detail) || !following()) {
      return;
    }
    if (Date.now() - lastRefresh < SAFETY_MS) {
      event.preventDefault(); // the stream says when something changed
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt.id === "live") {
      lastRefresh = Date.now();
      if (event.detail.xhr && event.detail.xhr.status === 304) {
        catchUpLater(); // nothing swapped: the element on screen says where it stands
      }
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.elt && event.detail.elt.id === "live") {
      catchUpLater();
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 304) {
      event.detail.shouldSwap = false;
    }
  });
  document.addEventListener("DOMContentLoaded", follow);
})();
