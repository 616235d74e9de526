// The player's own page (decision record 0055). The player key comes in the URL's fragment
// (#key=...), never sent to the server in a URL: it is kept in localStorage (by tournament, as the
// sign-up page keeps it) and removed from the address bar. Every request sends it as
// `Authorization: Token KEY`. The page reads GET /api/v1/me/ and follows the tournament's feed
// (its server-sent events, read with fetch so that the key goes with them): each event reads the
// player's view again, so a call shows at once, with a vibration and, when the player switched it
// on, a beep. Without the feed (refused, cut), the view is read every POLL_MS. No inline script or
// style: the CSP forbids both.
(function () {
  "use strict";

  var root = document.getElementById("me-page");
  if (!root) {
    return;
  }
  var T = JSON.parse(document.getElementById("me-strings").textContent);
  var KEY_PREFIX = "briscola.playerKey.";
  var LAST_KEY = KEY_PREFIX + "last";
  var SOUND = "briscola.player.sound";
  var COALESCE_MS = 150;
  var POLL_MS = 15000;
  var RECONNECT_MS = 3000; // until the stream says how soon (its `retry`)

  var state = {
    view: null, key: null, refreshing: null, feed: null, lastEventId: "", retry: RECONNECT_MS, audio: null,
  };

  function $(selector, element) {
    return (element || root).querySelector(selector);
  }

  function show(element, visible) {
    if (element) {
      element.hidden = !visible;
    }
  }

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  function storage(action, name, value) {
    try {
      if (action === "get") {
        return window.localStorage.getItem(name);
      }
      if (action === "set") {
        window.localStorage.setItem(name, value);
      }
    } catch (error) {
      return null; // private browsing: the key lives as long as the page
    }
    return null;
  }

  // The key: from the fragment, else the one this phone used last, else any it keeps.

  function takeKey() {
    var params = new URLSearchParams(window.location.hash.slice(1));
    var key = params.get("key");
    if (window.location.hash) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    if (key) {
      storage("set", LAST_KEY, key);
      return key;
    }
    var last = storage("get", LAST_KEY);
    if (last) {
      return last;
    }
    try {
      for (var i = 0; i < window.localStorage.length; i += 1) {
        var name = window.localStorage.key(i);
        if (name && name.indexOf(KEY_PREFIX) === 0 && name !== LAST_KEY) {
          return window.localStorage.getItem(name);
        }
      }
    } catch (error) {
      return null;
    }
    return null;
  }

  // The API.

  function ApiError(status, body) {
    this.status = status;
    this.body = body || {};
  }

  function api(method, url, body) {
    var headers = {
      Accept: "application/json",
      "Accept-Language": document.documentElement.lang,
      Authorization: "Token " + state.key,
    };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
    }
    return window.fetch(url, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (data) {
        if (!response.ok) {
          throw new ApiError(response.status, data);
        }
        return data;
      });
    });
  }

  function problem(text) {
    $("[data-problem]").textContent = text || "";
    show($("[data-problem]"), Boolean(text));
  }

  function failed(error) {
    if (error instanceof ApiError) {
      if (error.status === 401) {
        showAccess(error.body.code === "player_key_revoked" ? T.revoked : T.no_key);
        return;
      }
      problem(error.body.detail || "HTTP " + error.status);
      return;
    }
    $("[data-notice]").textContent = T.offline;
    show($("[data-notice]"), true);
  }

  function showAccess(text) {
    $("[data-access-text]").textContent = text;
    show($('[data-view="access"]'), true);
    ["entry", "match", "results"].forEach(function (view) {
      show($('[data-view="' + view + '"]'), false);
    });
  }

  function load() {
    state.refreshing = null;
    return api("GET", root.dataset.meUrl).then(render, failed);
  }

  function refreshSoon() {
    if (state.refreshing === null) {
      state.refreshing = window.setTimeout(load, COALESCE_MS);
    }
  }

  // Rendering.

  function render(view) {
    var before = state.view;
    state.view = view;
    show($("[data-notice]"), false);
    problem("");
    storage("set", KEY_PREFIX + view.tournament.id, state.key);
    storage("set", LAST_KEY, state.key);
    renderEntry(view);
    renderMatch(view, before);
    renderResults(view);
    var link = $("[data-tournament-link]");
    link.href = view.tournament.page_url;
    show($("[data-links]"), true);
    if (state.feed === null) {
      follow(view.tournament.feed_url);
    }
  }

  function renderEntry(view) {
    var entry = view.entry;
    $("[data-tournament-name]").textContent = view.tournament.name;
    $("[data-tournament-status]").textContent = T["tournament_" + view.tournament.status] || "";
    var status = $("[data-registration-status]");
    status.setAttribute("data-registration-status", entry.status);
    status.setAttribute("data-checked-in", entry.checked_in ? "true" : "false");
    $("[data-entry-name]").textContent = entry.name;
    var text = fmt(T["status_" + entry.status] || entry.status, { position: entry.position });
    if (entry.status === "entered" && entry.checked_in) {
      text += " " + T.checked_in;
    }
    $("[data-status-text]").textContent = text;
    $("[data-check-in-text]").textContent = T.check_in_open;
    show($("[data-check-in-text]"), view.may_check_in);
    show($('[data-action="check-in"]'), view.may_check_in);
    show($('[data-action="withdraw"]'), view.may_withdraw && $("[data-withdraw-step]").hidden);
    if (!view.may_withdraw) {
      show($("[data-withdraw-step]"), false);
    }
    renderByes(view.byes);
    show($('[data-view="access"]'), false);
    show($('[data-view="entry"]'), true);
  }

  // Requested byes in a Swiss (decision record 0058): the ones asked, and one more for the
  // next round when the API would take it.
  function renderByes(byes) {
    var lines = [];
    if (byes && byes.requested_byes.length) {
      lines.push(fmt(T.byes_requested, { rounds: byes.requested_byes.join(", ") }));
    }
    if (byes && byes.paused) {
      lines.push(T.paused);
    }
    $("[data-byes-text]").textContent = lines.join(" ");
    show($("[data-byes-text]"), lines.length > 0);
    var button = $('[data-action="bye"]');
    var offered = Boolean(byes && byes.may_request_next);
    button.textContent = offered ? fmt(T.bye_ask, { round: byes.next_round }) : "";
    button.setAttribute("data-round", offered ? String(byes.next_round) : "");
    show(button, offered);
  }

  function renderMatch(view, before) {
    var match = view.next_match;
    var holder = $("[data-next-match]");
    var started = view.tournament.status !== "registration";
    show($('[data-view="match"]'), started && view.entry.status === "entered");
    show(holder, Boolean(match));
    $("[data-no-match]").textContent = T.no_match;
    show($("[data-no-match]"), !match);
    renderSound();
    if (!match) {
      holder.setAttribute("data-next-match", "");
      return;
    }
    holder.setAttribute("data-next-match", match.id);
    holder.setAttribute("data-table", match.table === null ? "" : String(match.table));
    holder.setAttribute("data-called", match.called ? "true" : "false");
    var call;
    if (match.table === null) {
      call = T.no_table;
    } else if (match.status === "in_progress") {
      call = fmt(T.playing, { table: match.table });
    } else if (match.called) {
      call = fmt(T.called, { table: match.table });
    } else {
      call = fmt(T.at_table, { table: match.table });
    }
    $("[data-call-text]").textContent = call;
    $("[data-match-round]").textContent = fmt(T.round, { number: match.round });
    $("[data-opponents]").textContent = fmt(T.opponents, { names: match.opponents.join(", ") });
    var wasCalled = before && before.next_match && before.next_match.id === match.id && before.next_match.called;
    if (before && match.called && !wasCalled) {
      alertPlayer();
    }
  }

  function renderResults(view) {
    var list = $("[data-results]");
    var template = $("[data-result-template]");
    var typing = {}; // a dispute being written survives a refresh
    Array.prototype.forEach.call(list.querySelectorAll("[data-result-match]"), function (item) {
      if (!$("[data-dispute-form]", item).hidden) {
        typing[item.getAttribute("data-result-match")] = $("textarea", item).value;
      }
    });
    list.textContent = "";
    view.results.forEach(function (match) {
      var item = template.content.firstElementChild.cloneNode(true);
      item.setAttribute("data-result-match", match.id);
      item.setAttribute("data-outcome", match.outcome || "");
      var badge = $("[data-outcome]", item);
      badge.textContent = T[match.outcome] || "";
      badge.className = "badge outcome-" + (match.outcome || "none");
      $("[data-result-round]", item).textContent = fmt(T.round, { number: match.round });
      $("[data-result-opponents]", item).textContent = fmt(T.opponents, { names: match.opponents.join(", ") });
      $("[data-result-score]", item).textContent = fmt(T.score, {
        rounds: (match.round_wins || []).join("–"),
        points: (match.points || []).join("–"),
      });
      var note = "";
      if (match.confirmed) {
        note = T.confirmed;
      } else if (match.disputed) {
        note = fmt(T.disputed, { reason: match.dispute_reason });
      }
      $("[data-result-note]", item).textContent = note;
      show($("[data-result-note]", item), Boolean(note));
      show($('[data-action="confirm"]', item), !match.confirmed);
      show($('[data-action="dispute"]', item), !match.confirmed && !match.disputed);
      if (Object.prototype.hasOwnProperty.call(typing, match.id) && !match.disputed && !match.confirmed) {
        show($("[data-dispute-form]", item), true);
        $("textarea", item).value = typing[match.id];
      }
      list.appendChild(item);
    });
    var place = $("[data-place]");
    place.textContent = view.place === null ? "" : fmt(T.place, { place: view.place });
    place.setAttribute("data-place", view.place === null ? "" : String(view.place));
    show(place, view.place !== null);
    show($('[data-view="results"]'), view.results.length > 0 || view.place !== null);
  }

  // The call: a vibration where the phone allows, and a short beep the player switched on.

  function soundOn() {
    return storage("get", SOUND) === "on";
  }

  function renderSound() {
    var button = $('[data-action="sound"]');
    button.textContent = soundOn() ? T.sound_on : T.sound_off;
    button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  }

  function audio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) {
      return null;
    }
    if (state.audio === null) {
      state.audio = new Context(); // made on the player's tap: browsers let it sound then
    }
    return state.audio;
  }

  function beep() {
    var context = audio();
    if (!context) {
      return;
    }
    var oscillator = context.createOscillator();
    var gain = context.createGain();
    oscillator.frequency.value = 880;
    gain.gain.value = 0.2;
    oscillator.connect(gain);
    gain.connect(context.destination);
    oscillator.start();
    oscillator.stop(context.currentTime + 0.4);
  }

  function alertPlayer() {
    if (navigator.vibrate) {
      navigator.vibrate([300, 150, 300]);
    }
    if (soundOn()) {
      beep();
    }
  }

  // The feed: the tournament's server-sent events, read with the key.

  function follow(url) {
    if (!window.ReadableStream || !window.TextDecoder) {
      poll();
      return;
    }
    var headers = { Accept: "text/event-stream", Authorization: "Token " + state.key };
    if (state.lastEventId) {
      headers["Last-Event-ID"] = state.lastEventId;
    }
    state.feed = window.fetch(url, { headers: headers, credentials: "omit", cache: "no-store" })
      .then(function (response) {
        if (!response.ok || !response.body) {
          throw new ApiError(response.status, null);
        }
        return read(response.body.getReader(), new TextDecoder(), "");
      })
      .then(function () {
        reconnect(url, state.retry); // a stream ends after a while; resumed from its last id
      }, function () {
        reconnect(url, POLL_MS);
        load();
      });
  }

  function reconnect(url, wait) {
    window.setTimeout(function () { follow(url); }, wait);
  }

  function read(reader, decoder, buffer) {
    return reader.read().then(function (chunk) {
      if (chunk.done) {
        return null;
      }
      buffer += decoder.decode(chunk.value, { stream: true });
      var messages = buffer.split("\n\n");
      buffer = messages.pop();
      messages.forEach(heard);
      return read(reader, decoder, buffer);
    });
  }

  function heard(message) {
    var data = null;
    message.split("\n").forEach(function (line) {
      if (line.indexOf("id:") === 0) {
        state.lastEventId = line.slice(3).trim();
      } else if (line.indexOf("retry:") === 0) {
        state.retry = Number(line.slice(6)) || RECONNECT_MS;
      } else if (line.indexOf("data:") === 0) {
        data = line.slice(5);
      }
    });
    if (data !== null && concernsMe(data)) {
      refreshSoon();
    }
  }

  // The tournament's own events (entries, calls, rounds) and the player's matches' events:
  // the cards played at the other tables change nothing here.
  function concernsMe(data) {
    var event;
    try {
      event = JSON.parse(data);
    } catch (error) {
      return true;
    }
    if (event.stream_type !== "match" || !state.view) {
      return true;
    }
    var mine = state.view.results.map(function (match) { return match.id; });
    if (state.view.next_match) {
      mine.push(state.view.next_match.id);
    }
    return mine.indexOf(event.stream_id) !== -1;
  }

  function poll() {
    window.setInterval(load, POLL_MS);
  }

  // The player's actions.

  function send(url, body) {
    problem("");
    return api("POST", url, body).then(render, failed);
  }

  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-action]");
    if (!button || !state.view) {
      return;
    }
    var action = button.getAttribute("data-action");
    var me = root.dataset.meUrl;
    var item = button.closest("[data-result-match]");
    if (action === "check-in") {
      send(me + "check-in/");
    } else if (action === "bye") {
      send(me + "byes/", { round: Number(button.getAttribute("data-round")) });
    } else if (action === "withdraw") {
      show(button, false);
      show($("[data-withdraw-step]"), true);
    } else if (action === "withdraw-cancel") {
      show($("[data-withdraw-step]"), false);
      show($('[data-action="withdraw"]'), state.view.may_withdraw);
    } else if (action === "withdraw-confirm") {
      show($("[data-withdraw-step]"), false);
      send(me + "withdraw/", {});
    } else if (action === "confirm" && item) {
      send(me + "matches/" + item.getAttribute("data-result-match") + "/confirm/");
    } else if (action === "dispute" && item) {
      show($("[data-dispute-form]", item), true);
      $("textarea", item).focus();
    } else if (action === "sound") {
      storage("set", SOUND, soundOn() ? "off" : "on");
      if (soundOn()) {
        beep(); // the tap lets the page sound, and the player hears what a call sounds like
      }
      renderSound();
    }
  });

  root.addEventListener("submit", function (event) {
    var form = event.target.closest("[data-dispute-form]");
    if (!form) {
      return;
    }
    event.preventDefault();
    var reason = form.elements.reason.value.trim();
    if (!reason) {
      problem(T.reason_needed);
      return;
    }
    var item = form.closest("[data-result-match]");
    send(root.dataset.meUrl + "matches/" + item.getAttribute("data-result-match") + "/dispute/", {
      reason: reason,
    });
  });

  window.addEventListener("hashchange", function () {
    // Another key opened on this page (a second code scanned): start again with it.
    if (new URLSearchParams(window.location.hash.slice(1)).get("key")) {
      window.location.reload();
    }
  });

  state.key = takeKey();
  if (!state.key) {
    showAccess(T.no_key);
    return;
  }
  load();
})();
