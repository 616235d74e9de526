// The table page: a scorer enters a round card by card (or its points) through the REST API.
//
// The device key comes in the URL's fragment (#key=...), is kept in localStorage and removed from
// the address bar; every request sends it as `Authorization: Token KEY` (without a key, the
// signed-in session and its CSRF token). Cards tapped go to a queue kept in localStorage, each
// with its own Idempotency-Key and the match version it expects, and are sent in order; while the
// network is down they wait there (the page follows the trick locally), and a refusal stops the
// queue and is shown as the API words it. No inline script or style: the CSP forbids both.
(function () {
  "use strict";

  const root = document.getElementById("table-page");
  if (!root) {
    return;
  }
  const T = JSON.parse(document.getElementById("table-strings").textContent);
  const KEY_STORE = "briscola.table.key";
  const matchId = root.dataset.matchId || null;
  const tableSize = Number(root.dataset.tableSize || 0);
  const QUEUE_STORE = "briscola.table.queue." + matchId;
  const MOST_CARDS_IN_A_BATCH = 48;
  const RETRY_MS = 3000;
  const POLL_MS = 15000;

  const state = {
    match: null,
    replay: null,
    queue: loadQueue(),
    sent: [],
    stopped: null,
    sending: null,
    dealer: null,
    briscola: null,
    correcting: null,
    settling: null,
    busy: false,
    messageSlot: null,
  };

  // Helpers.

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  function $(selector, element) {
    return (element || root).querySelector(selector);
  }

  function $$(selector, element) {
    return Array.from((element || root).querySelectorAll(selector));
  }

  function show(element, visible) {
    if (element) {
      element.hidden = !visible;
    }
  }

  function storage(action, name, value) {
    try {
      if (action === "get") {
        return window.localStorage.getItem(name);
      }
      if (action === "set") {
        window.localStorage.setItem(name, value);
      } else {
        window.localStorage.removeItem(name);
      }
    } catch (error) {
      return null;
    }
    return null;
  }

  function newKey() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return "table-" + Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function loadQueue() {
    if (!matchId) {
      return [];
    }
    try {
      const queue = JSON.parse(storage("get", QUEUE_STORE) || "[]");
      return Array.isArray(queue) ? queue : [];
    } catch (error) {
      return [];
    }
  }

  function saveQueue() {
    if (state.queue.length) {
      storage("set", QUEUE_STORE, JSON.stringify(state.queue));
    } else {
      storage("remove", QUEUE_STORE);
    }
  }

  // The device key.

  function takeKeyFromFragment() {
    const params = new URLSearchParams(window.location.hash.slice(1));
    const key = params.get("key");
    if (key) {
      storage("set", KEY_STORE, key);
    }
    if (window.location.hash) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
  }

  function deviceKey() {
    return storage("get", KEY_STORE);
  }

  // The API.

  function ApiError(status, body) {
    this.status = status;
    this.body = body || {};
    this.message = (body && body.detail) || "HTTP " + status;
  }

  function NetworkError(message) {
    this.message = message;
  }

  async function api(method, url, body, headers) {
    const sent = { Accept: "application/json", "Accept-Language": document.documentElement.lang };
    const key = deviceKey();
    if (key) {
      sent.Authorization = "Token " + key;
    } else if (method !== "GET") {
      sent["X-CSRFToken"] = root.dataset.csrf;
    }
    if (body !== undefined) {
      sent["Content-Type"] = "application/json";
    }
    Object.assign(sent, headers || {});
    let response;
    try {
      response = await window.fetch(url, {
        method: method,
        headers: sent,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: key ? "omit" : "same-origin",
        cache: "no-store",
      });
    } catch (error) {
      throw new NetworkError(String(error));
    }
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    if (!response.ok) {
      throw new ApiError(response.status, data);
    }
    return data;
  }

  function matchUrl() {
    return root.dataset.matchesUrl + matchId + "/";
  }

  function roundUrl(number, action) {
    return matchUrl() + "rounds/" + number + "/" + (action ? action + "/" : "");
  }

  function isOffline(error) {
    return error instanceof NetworkError || (error instanceof ApiError && (error.status >= 500 || error.status === 429));
  }

  // Messages. The notice and the alert box are shown next to what they are about: in the slot
  // (data-problem-slot) of the part of the page on screen, or of the form a message names (the
  // void form), not at the top of a page scrolled away. A render may change the part on screen,
  // so each render places them again.

  function isOnScreen(element) {
    return element.getClientRects().length > 0; // none inside a hidden view or a closed <details>
  }

  function messageSlot() {
    const named = state.messageSlot ? $('[data-problem-slot="' + state.messageSlot + '"]') : null;
    if (named && isOnScreen(named)) {
      return named;
    }
    const shown = ["play", "points", "setup", "over"].map(function (view) {
      return $('[data-problem-slot="' + view + '"]');
    }).filter(function (slot) { return slot && isOnScreen(slot); });
    return shown.length ? shown[0] : $('[data-problem-slot="page"]');
  }

  function placeMessages() {
    const slot = messageSlot();
    [$("[data-notice]"), $("[data-problem]")].forEach(function (box) {
      if (box.parentNode !== slot) {
        slot.appendChild(box);
      }
    });
  }

  function showMessage(box, visible) {
    show(box, visible);
    placeMessages();
    if (visible && box.closest('[data-view="play"]')) {
      bringPlayIntoView(); // the message lies between the trick and the deck: keep all three
    } else if (visible) {
      box.scrollIntoView({ block: "nearest" });
    }
  }

  function notice(text) {
    const element = $("[data-notice]");
    element.textContent = text || "";
    showMessage(element, Boolean(text));
  }

  function problem(text, withDiscard, slot) {
    state.messageSlot = text ? slot || null : null;
    $("[data-problem-text]").textContent = text || "";
    show($('[data-action="discard-queue"]'), Boolean(text && withDiscard));
    showMessage($("[data-problem]"), Boolean(text));
  }

  function report(error, slot) {
    if (isOffline(error)) {
      notice(T.offline);
      return;
    }
    if (error instanceof ApiError && error.status === 401) {
      showAccess();
      return;
    }
    problem(error.message, false, slot);
  }

  function showAccess() {
    show($('[data-view="access"]'), true);
    $("[data-access-text]").textContent = T.no_access;
    show($('[data-view="match"]'), false);
    show($('[data-view="list"]'), false);
  }

  // The match as the page shows it.

  function sideCount() {
    return tableSize === 3 ? 3 : 2;
  }

  function sideOf(seat) {
    return tableSize === 3 ? seat : seat % 2;
  }

  function sideName(side) {
    const sides = state.match ? state.match.sides : [];
    return sides[side] ? sides[side].name : fmt(T.side_name, { side: side + 1 });
  }

  function seatLabel(seat) {
    return fmt(T.seat_of, { seat: seat + 1, side: sideName(sideOf(seat)) });
  }

  function latestRound() {
    const rounds = state.match ? state.match.rounds : [];
    return rounds.length ? rounds[rounds.length - 1] : null;
  }

  function deckButton(code) {
    return $('[data-card="' + code + '"]');
  }

  // The page keeps canonical codes (the API answers with them); it sends a card as the table's
  // scorer types it: French suit letters at a table of French cards (decision 0002).
  function typed(code) {
    const button = code === null ? null : deckButton(code);
    return button && button.dataset.typed ? button.dataset.typed : code;
  }

  function cardFace(code) {
    const button = deckButton(code);
    const face = document.createElement("span");
    face.className = "face";
    if (button) {
      const svg = button.querySelector(".card-svg");
      if (svg) {
        face.appendChild(svg.cloneNode(true));
      }
      face.setAttribute("title", button.getAttribute("aria-label"));
    }
    return face;
  }

  function cardTile(code) {
    const tile = deckButton(code).querySelector(".card-chip").cloneNode(true);
    tile.classList.add("tile");
    return tile;
  }

  function cardLabel(code) {
    const button = deckButton(code);
    return button ? button.getAttribute("aria-label") : code;
  }

  function trickWinner(plays, briscola) {
    const trump = briscola.slice(-1);
    let best = plays[0];
    plays.slice(1).forEach(function (play) {
      const card = deckButton(play.card).dataset;
      const top = deckButton(best.card).dataset;
      if (card.suit === top.suit ? Number(card.strength) > Number(top.strength) : card.suit === trump) {
        best = play;
      }
    });
    return best.seat;
  }

  function trickPoints(plays) {
    return plays.reduce(function (sum, play) {
      return sum + Number(deckButton(play.card).dataset.points);
    }, 0);
  }

  // The round as recorded by the server, with the cards waiting on the device played on it.
  function tableModel() {
    const replay = state.replay;
    const tricks = replay.tricks.map(function (trick) {
      return {
        leader: trick.leader,
        plays: trick.plays.map(function (play) { return { seat: play[0], card: play[1], queued: false }; }),
        winner: trick.winner,
        points: trick.points,
      };
    });
    const recorded = new Set();
    tricks.forEach(function (trick) {
      trick.plays.forEach(function (play) { recorded.add(play.card); });
    });
    const points = replay.points.slice();
    // Cards sent since the replay was read, then the cards still waiting on the device.
    const waiting = state.sent.concat(state.queue).filter(function (item) {
      return item.round === replay.round && !recorded.has(item.card);
    });
    waiting.forEach(function (item) {
      let trick = tricks.length ? tricks[tricks.length - 1] : null;
      if (!trick || trick.winner !== null) {
        trick = { leader: item.seat, plays: [], winner: null, points: null };
        tricks.push(trick);
      }
      trick.plays.push({ seat: item.seat, card: item.card, queued: state.queue.indexOf(item) !== -1 });
      if (trick.plays.length === tableSize) {
        trick.winner = trickWinner(trick.plays, replay.briscola);
        trick.points = trickPoints(trick.plays);
        points[sideOf(trick.winner)] += trick.points;
      }
    });
    const played = new Set();
    tricks.forEach(function (trick) {
      trick.plays.forEach(function (play) { played.add(play.card); });
    });
    const tricksPerRound = $$("[data-card]").length / tableSize;
    const last = tricks.length ? tricks[tricks.length - 1] : null;
    let seatOnTurn;
    if (!waiting.length) {
      seatOnTurn = replay.seat_on_turn;
    } else if (last.winner === null) {
      seatOnTurn = (last.leader + last.plays.length) % tableSize;
    } else {
      seatOnTurn = tricks.length === tricksPerRound ? null : last.winner;
    }
    return {
      tricks: tricks,
      points: points,
      played: played,
      waiting: waiting,
      seatOnTurn: seatOnTurn,
      playable: waiting.length ? null : replay.playable,
    };
  }

  // Rendering.

  function render() {
    const queued = state.queue.length;
    const queue = $("[data-queue]");
    queue.dataset.queue = String(queued);
    $("[data-queue-count]").textContent = String(queued);
    queue.classList.toggle("waiting", queued > 0);
    if (!state.match || !$('[data-view="match"]')) {
      placeMessages();
      return;
    }
    show($('[data-view="match"]'), true);
    const match = state.match;
    const latest = latestRound();
    const inPlay = latest && latest.status === "in_progress";
    const model = inPlay && state.replay ? tableModel() : null;
    $("[data-match-title]").textContent = match.sides.map(function (side) { return side.name; }).join(" – ");
    renderSides(latest, model);
    renderNeeds();
    renderDecidingRound();
    renderResult(latest);
    const over = match.status === "finished";
    renderMatchResult(over);
    show($('[data-view="setup"]'), !inPlay && !over);
    show($('[data-view="points"]'), Boolean(inPlay && !latest.briscola));
    const playView = $('[data-view="play"]');
    const playAppears = playView.hidden && Boolean(inPlay && latest.briscola && model);
    show(playView, Boolean(inPlay && latest.briscola && model));
    show($('[data-view="over"]'), over);
    if (!inPlay && !over) {
      renderSetup();
    }
    if (inPlay && !latest.briscola) {
      renderPointsEntry();
    }
    if (model) {
      renderPlay(latest, model);
    }
    if (over) {
      renderOver();
    }
    renderSettling(over);
    placeMessages();
    if (playAppears) {
      bringPlayIntoView();
    }
  }

  // On a phone "To play", the trick and the deck fit one screen (decision 0047); when long names
  // (or a message) push them down, the page scrolls once, as the round's cards (or the message)
  // appear, so that no tap has to.
  function bringPlayIntoView() {
    const top = $(".table-state").getBoundingClientRect().top;
    const below = $("[data-deck]").getBoundingClientRect().bottom + 8 - window.innerHeight;
    if (below > 0 && top > 0) {
      window.scrollBy(0, Math.min(below, top));
    }
  }

  function renderSides(latest, model) {
    const list = $("[data-sides]");
    list.textContent = "";
    const match = state.match;
    for (let side = 0; side < sideCount(); side += 1) {
      let points = 0;
      if (model) {
        points = model.points[side] || 0;
      } else if (latest && latest.status === "finished") {
        points = latest.points[side] || 0;
      }
      const item = document.createElement("li");
      item.className = "side";
      const name = document.createElement("span");
      name.className = "side-name";
      name.textContent = sideName(side);
      const wins = document.createElement("span");
      wins.className = "side-wins";
      wins.textContent = fmt(T.wins, { wins: match.round_wins[side] || 0 });
      const round = document.createElement("span");
      round.className = "side-points";
      const value = document.createElement("strong");
      value.dataset.pointsSide = String(side);
      value.textContent = String(points);
      round.append(T.round_points + " ", value);
      item.append(name, wins, round);
      if (match.scoring === "points") {
        item.append(runningTotal(side, model));
      }
      list.appendChild(item);
    }
  }

  function runningTotal(side, model) {
    // A match scored by points is won on the total: the rounds finished, and the cards of the
    // round in play as they stand.
    const total = document.createElement("span");
    total.className = "side-total";
    const value = document.createElement("strong");
    value.dataset.totalSide = String(side);
    value.textContent = String((state.match.total_points[side] || 0) + (model ? model.points[side] || 0 : 0));
    total.append(T.running_total + " ", value);
    return total;
  }

  function renderDecidingRound() {
    const match = state.match;
    const element = $("[data-deciding-round]");
    const due = Boolean(match.deciding_round_due) && match.status !== "finished";
    show(element, due);
    element.textContent = !due ? "" : match.rounds_planned === 1
      ? T.deciding_round_one
      : fmt(T.deciding_round, { rounds: match.rounds_planned });
  }

  function renderNeeds() {
    const match = state.match;
    const element = $("[data-needs]");
    if (match.status === "finished" || match.deciding_round_due) {
      element.textContent = "";
      return;
    }
    if (match.scoring === "points") {
      const played = match.rounds.filter(function (r) { return r.status === "finished"; }).length;
      element.textContent = fmt(T.needs_rounds, { rounds: Math.max(match.rounds_planned - played, 0) });
      return;
    }
    const needed = Math.floor(match.best_of / 2) + 1;
    const lines = [];
    for (let side = 0; side < sideCount(); side += 1) {
      lines.push(fmt(T.needs_wins, { side: sideName(side), wins: needed - (match.round_wins[side] || 0) }));
    }
    element.textContent = lines.join(" · ");
  }

  function renderResult(latest) {
    const element = $("[data-result]");
    const title = $("[data-round-title]");
    if (!latest) {
      element.dataset.result = "";
      element.textContent = "";
      return;
    }
    title.textContent = fmt(T.round_title, { number: latest.status === "in_progress" ? latest.number : latest.number + 1 });
    const points = latest.points.join("–");
    if (latest.status === "finished" && latest.result) {
      element.dataset.result = latest.result;
      element.textContent = latest.result === "tie"
        ? fmt(tieIsReplayed(latest) ? T.round_tied : T.round_tied_counted, { number: latest.number, points: points })
        : fmt(T.round_won, { number: latest.number, side: sideName(Number(latest.result.slice(4))), points: points });
    } else if (latest.status === "voided") {
      element.dataset.result = "";
      element.textContent = fmt(T.round_voided, { number: latest.number, reason: latest.void_reason });
    } else {
      element.dataset.result = "";
      element.textContent = "";
    }
  }

  // Once the match is over, its heading is the match's result, not a round's number.
  function renderMatchResult(over) {
    const title = $("[data-round-title]");
    const match = state.match;
    if (!over) {
      title.dataset.matchResult = "";
      return;
    }
    const winner = match.winner ? Number(match.winner.slice(4)) : null;
    title.dataset.matchResult = match.winner || "none";
    if (winner !== null && match.forfeited_by) {
      title.textContent = fmt(T.match_result_forfeit, {
        side: sideName(winner),
        loser: sideName(Number(match.forfeited_by.slice(4))),
      });
      return;
    }
    // Rounds won (points in all, when scored by points), the winner's first, as a result is said.
    const counts = match.scoring === "points" ? match.total_points : match.round_wins;
    const order = [];
    for (let side = 0; side < match.sides.length; side += 1) {
      order.push(side);
    }
    if (winner !== null) {
      order.splice(order.indexOf(winner), 1);
      order.unshift(winner);
    }
    const score = order.map(function (side) { return String(counts[side] || 0); }).join("–");
    title.textContent = winner === null
      ? fmt(T.match_result_level, { score: score })
      : fmt(T.match_result_won, { side: sideName(winner), score: score });
  }

  function tieIsReplayed(round) {
    // A tie is played again in a best-of match, and in a deciding round (decision 0029); one of
    // the fixed rounds of a match scored by points counts as it is.
    const match = state.match;
    if (match.scoring !== "points") {
      return true;
    }
    const finished = match.rounds.filter(function (r) { return r.status === "finished"; });
    return finished.indexOf(round) >= match.rounds_planned;
  }

  function renderSetup() {
    const first = state.match.rounds.length === 0;
    show($("[data-dealer-choice]"), first);
    if (state.dealer === null) {
      state.dealer = state.match.first_dealer;
    }
    $$("[data-dealer]").forEach(function (button) {
      const seat = Number(button.dataset.dealer);
      button.textContent = seatLabel(seat);
      button.setAttribute("aria-pressed", String(seat === state.dealer));
    });
    $$("[data-briscola]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.dataset.briscola === state.briscola));
    });
    $('[data-action="start-round"]').disabled = !state.briscola || state.busy;
    $('[data-action="points-only"]').disabled = state.busy;
  }

  function renderPointsEntry() {
    const box = $("[data-points-inputs]");
    const count = sideCount();
    const asked = count === 2 ? 1 : count;
    if (box.children.length !== asked) {
      box.textContent = "";
      for (let side = 0; side < asked; side += 1) {
        const label = document.createElement("label");
        label.htmlFor = "points-side-" + side;
        label.textContent = fmt(T.points_for, { side: sideName(side) });
        const input = document.createElement("input");
        input.id = "points-side-" + side;
        input.type = "number";
        input.min = "0";
        input.max = "120";
        input.inputMode = "numeric";
        input.required = true;
        input.dataset.pointsInput = String(side);
        input.addEventListener("input", renderOtherSide);
        const row = document.createElement("div");
        row.className = "points-row";
        row.append(label, input);
        box.appendChild(row);
      }
    }
    renderOtherSide();
  }

  function enteredPoints() {
    const values = $$("[data-points-input]").map(function (input) { return input.value === "" ? null : Number(input.value); });
    if (sideCount() === 2) {
      return values[0] === null ? null : [values[0], 120 - values[0]];
    }
    return values.indexOf(null) === -1 ? values : null;
  }

  function renderOtherSide() {
    const other = $("[data-points-other]");
    const points = enteredPoints();
    if (sideCount() === 2) {
      other.textContent = fmt(T.other_side, { side: sideName(1), points: points ? points[1] : "–" });
    } else {
      other.textContent = T.points_total;
    }
  }

  function renderPlay(latest, model) {
    const briscola = $("[data-briscola-shown]");
    briscola.textContent = "";
    briscola.appendChild(cardFace(latest.briscola));
    briscola.appendChild(document.createTextNode(cardLabel(latest.briscola)));

    const last = model.tricks.length ? model.tricks[model.tricks.length - 1] : null;
    const leader = last && last.winner === null ? last.leader : model.seatOnTurn === null ? latest.leader_seat : model.seatOnTurn;
    const order = $("[data-order]");
    order.textContent = "";
    for (let step = 0; step < tableSize; step += 1) {
      const seat = (leader + step) % tableSize;
      const item = document.createElement("li");
      item.textContent = seatLabel(seat);
      item.dataset.seat = String(seat);
      if (seat === model.seatOnTurn) {
        item.setAttribute("aria-current", "true");
      }
      order.appendChild(item);
    }
    const turn = $("[data-turn]");
    turn.textContent = model.seatOnTurn === null ? "" : fmt(T.turn, { seat: seatLabel(model.seatOnTurn) });
    turn.dataset.seat = model.seatOnTurn === null ? "" : String(model.seatOnTurn);

    const trickBox = $("[data-trick]");
    trickBox.textContent = "";
    const winner = $("[data-trick-winner]");
    if (last) {
      last.plays.forEach(function (play) {
        const figure = document.createElement("figure");
        figure.className = "trick-card" + (play.queued ? " queued" : "");
        figure.dataset.played = play.card;
        figure.appendChild(cardFace(play.card));
        const caption = document.createElement("figcaption");
        caption.textContent = fmt(T.seat, { seat: play.seat + 1 }) + (play.queued ? " · " + T.queued : "");
        figure.appendChild(caption);
        trickBox.appendChild(figure);
      });
    }
    if (last && last.winner !== null) {
      winner.dataset.trickWinner = String(last.winner);
      winner.textContent = fmt(T.trick_taken, { number: model.tricks.length, seat: seatLabel(last.winner), points: last.points });
    } else {
      winner.dataset.trickWinner = "";
      winner.textContent = "";
    }

    const queuedCards = new Set(state.queue.map(function (item) { return item.card; }));
    const playable = model.playable ? new Set(model.playable) : null;
    const correcting = state.correcting;
    $$("[data-card]").forEach(function (button) {
      const code = button.dataset.card;
      const played = model.played.has(code);
      let usable;
      if (correcting && correcting.index !== null) {
        const allowed = correcting.allowed;
        usable = !played && allowed !== undefined && (allowed === null || allowed.has(code));
      } else {
        usable = !played && !correcting && !state.busy && model.seatOnTurn !== null && !state.stopped && (!playable || playable.has(code));
      }
      button.disabled = !usable;
      button.classList.toggle("played", played && !queuedCards.has(code));
      button.classList.toggle("queued", queuedCards.has(code));
    });

    const correctButton = $('[data-action="correct"]');
    correctButton.setAttribute("aria-pressed", String(Boolean(correcting)));
    correctButton.disabled = model.waiting.length > 0 || state.replay.plays === 0;
    $('[data-action="undo"]').disabled = model.played.size === 0 || state.busy;
    const help = $("[data-correct-help]");
    const playsList = $("[data-plays]");
    show(help, Boolean(correcting));
    show(playsList, Boolean(correcting) && correcting.index === null);
    if (correcting) {
      help.textContent = correcting.index === null ? T.choose_play : fmt(T.choose_new_card, { card: cardLabel(correcting.card) });
      playsList.textContent = "";
      let index = 0;
      state.replay.tricks.forEach(function (trick) {
        trick.plays.forEach(function (play) {
          const item = document.createElement("li");
          const button = document.createElement("button");
          button.type = "button";
          button.className = "choice";
          button.dataset.playIndex = String(index);
          button.dataset.playCard = play[1];
          // Short on screen (the seat and the card's tile), named in full for a screen reader.
          button.setAttribute("aria-label", fmt(T.seat, { seat: play[0] + 1 }) + ": " + cardLabel(play[1]));
          button.append(fmt(T.seat, { seat: play[0] + 1 }), cardTile(play[1]));
          item.appendChild(button);
          playsList.appendChild(item);
          index += 1;
        });
      });
    }
  }

  // Each side's mark on the result as it stands, and only the actions still open (decision
  // record 0052): a side that confirmed has none; a side that disputes may still confirm (which
  // withdraws its dispute); when every side confirmed, nothing is offered.
  function standingDispute(side) {
    const name = "side" + side;
    const open = (state.match.disputes || []).filter(function (d) { return d.side === name && d.standing; });
    return open.length ? open[open.length - 1] : null;
  }

  function renderOver() {
    const match = state.match;
    const confirmed = new Set(match.confirmed_by);
    const disputed = new Set(match.disputed_by);
    const marks = $("[data-confirmations]");
    marks.textContent = "";
    const open = [];
    for (let side = 0; side < match.sides.length; side += 1) {
      const name = "side" + side;
      if (confirmed.has(name)) {
        const item = document.createElement("li");
        item.dataset.confirmedSide = String(side);
        item.textContent = fmt(T.confirmed, { sides: sideName(side) });
        marks.appendChild(item);
      } else if (disputed.has(name)) {
        const item = document.createElement("li");
        const dispute = standingDispute(side);
        item.dataset.disputedSide = String(side);
        item.textContent = dispute && dispute.reason
          ? fmt(T.disputed_because, { side: sideName(side), reason: dispute.reason })
          : fmt(T.disputed, { sides: sideName(side) });
        marks.appendChild(item);
        open.push([side, ["confirm"]]);
      } else {
        open.push([side, ["confirm", "dispute"]]);
      }
    }
    show($("[data-confirm-open]"), open.length > 0);
    show($("[data-dispute-field]"), open.some(function (entry) { return entry[1].indexOf("dispute") !== -1; }));
    const box = $("[data-confirm-sides]");
    // Rebuilt only when what is open changes, so a poll does not take a button from under a tap.
    const offered = JSON.stringify(open) + match.sides.map(function (s) { return s.name; }).join("|");
    if (box.dataset.offered === offered) {
      return;
    }
    box.dataset.offered = offered;
    box.textContent = "";
    const labels = { confirm: [T.confirm, "button"], dispute: [T.dispute, "button secondary"] };
    open.forEach(function (entry) {
      const side = entry[0];
      const row = document.createElement("div");
      row.className = "actions";
      row.dataset.openSide = String(side);
      entry[1].forEach(function (action) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = labels[action][1];
        button.dataset.action = action;
        button.dataset.side = String(side);
        button.textContent = fmt(labels[action][0], { side: sideName(side) });
        row.appendChild(button);
      });
      box.appendChild(row);
    });
  }

  // The organizer's corrections after the match (decision record 0048): only a device the API
  // says may settle the match (`may_organize`: never a table's tablet) is offered them. The
  // organizer chooses the round, the play and the card actually played, and says why; the play
  // that had recorded that card takes the corrected play's card. Online only, as every
  // correction.

  function correctableRounds() {
    return state.match.rounds.filter(function (r) {
      return r.status === "finished" && r.briscola && !r.points_entered && !r.ruling;
    });
  }

  function renderSettling(over) {
    const section = $("[data-settle]");
    if (!section) {
      return;
    }
    const rounds = over && state.match.may_organize ? correctableRounds() : [];
    show(section, rounds.length > 0);
    if (!rounds.length) {
      state.settling = null;
    }
    const settling = state.settling;
    const toggle = $('[data-action="correct-finished"]');
    toggle.setAttribute("aria-pressed", String(Boolean(settling)));
    toggle.disabled = state.busy;
    show($("[data-settle-panel]"), Boolean(settling));
    if (!settling) {
      return;
    }
    const roundRow = $("[data-settle-rounds]");
    roundRow.textContent = "";
    rounds.forEach(function (r) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "choice";
      button.dataset.settleRound = String(r.number);
      button.setAttribute("aria-pressed", String(settling.round === r.number));
      button.textContent = fmt(T.round_title, { number: r.number });
      roundRow.appendChild(button);
    });
    const plays = settling.replay ? settling.replay.tricks.reduce(function (all, trick) {
      return all.concat(trick.plays);
    }, []) : [];
    const list = $("[data-settle-plays]");
    list.textContent = "";
    plays.forEach(function (play, index) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "choice";
      button.dataset.settlePlay = String(index);
      button.setAttribute("aria-pressed", String(settling.index === index));
      button.setAttribute("aria-label", fmt(T.seat, { seat: play[0] + 1 }) + ": " + cardLabel(play[1]));
      button.append(fmt(T.seat, { seat: play[0] + 1 }), cardTile(play[1]));
      item.appendChild(button);
      list.appendChild(item);
    });
    show(list, plays.length > 0);
    const chosen = settling.index === null ? null : plays[settling.index][1];
    $$("[data-settle-card]").forEach(function (button) {
      const code = button.dataset.settleCard;
      button.disabled = chosen === null || code === chosen || state.busy;
      button.setAttribute("aria-pressed", String(code === settling.card));
    });
    let help;
    if (settling.round === null) {
      help = T.choose_round;
    } else if (chosen === null) {
      help = T.choose_play;
    } else if (settling.card === null) {
      help = fmt(T.choose_new_card, { card: cardLabel(chosen) });
    } else {
      help = fmt(T.choose_card_then_why, { card: cardLabel(settling.card) });
    }
    $("[data-settle-help]").textContent = help;
    $('[data-action="settle-card"]').disabled = state.busy;
  }

  async function chooseSettledRound(number) {
    const settling = { round: number, replay: null, index: null, card: null };
    state.settling = settling;
    render();
    try {
      settling.replay = await api("GET", roundUrl(number, "replay"));
    } catch (error) {
      if (state.settling === settling) {
        state.settling = { round: null, replay: null, index: null, card: null };
      }
      report(error, "settle");
    }
    render();
  }

  function toggleSettling() {
    if (state.settling) {
      state.settling = null;
      render();
      return;
    }
    const rounds = correctableRounds();
    if (rounds.length === 1) {
      chooseSettledRound(rounds[0].number);
      return;
    }
    state.settling = { round: null, replay: null, index: null, card: null };
    render();
  }

  function settleCard(form) {
    const settling = state.settling;
    const reason = form.elements.reason.value.trim();
    if (!settling || settling.index === null || settling.card === null) {
      problem(settling && settling.round !== null ? T.choose_play : T.choose_round, false, "settle");
      return;
    }
    if (!reason) {
      problem(T.reason_needed, false, "settle");
      form.elements.reason.focus();
      return;
    }
    const body = versioned({ play_index: settling.index, card: typed(settling.card), reason: reason });
    command(roundUrl(settling.round, "correct"), body, "settle").then(function (done) {
      if (done) {
        state.settling = null;
        form.reset();
        render();
      }
    });
  }

  // Loading.

  async function refresh() {
    const match = await api("GET", matchUrl());
    const latest = match.rounds.length ? match.rounds[match.rounds.length - 1] : null;
    let replay = null;
    if (latest && latest.status === "in_progress" && latest.briscola) {
      replay = await api("GET", roundUrl(latest.number, "replay"));
    }
    if (state.match && match.version < state.match.version) {
      return; // an answer overtaken by a later one
    }
    state.match = match;
    state.replay = replay;
    state.sent = state.sent.filter(function (item) {
      return replay && !replay.tricks.some(function (trick) {
        return trick.plays.some(function (play) { return play[1] === item.card; });
      });
    });
    notice("");
    render();
  }

  async function tryRefresh() {
    try {
      await refresh();
    } catch (error) {
      report(error);
    }
  }

  async function showList() {
    let listed;
    try {
      listed = await api("GET", root.dataset.scorerUrl);
    } catch (error) {
      report(error);
      return;
    }
    const open = listed.filter(function (found) { return found.status !== "finished"; });
    if (open.length === 1) {
      window.location.replace(window.location.pathname + "?match=" + open[0].id);
      return;
    }
    const list = $("[data-match-list]");
    list.textContent = "";
    listed.forEach(function (found) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = window.location.pathname + "?match=" + found.id;
      link.dataset.matchLink = found.id;
      link.textContent = found.sides.join(" – ");
      const about = document.createElement("span");
      about.className = "muted";
      const where = found.tournament ? fmt(T.tournament_table, { tournament: found.tournament.name, table: found.table === null ? "–" : found.table }) : "";
      about.textContent = [where, T["status_" + found.status] || found.status].filter(Boolean).join(" · ");
      item.append(link, document.createTextNode(" "), about);
      list.appendChild(item);
    });
    if (!listed.length) {
      const item = document.createElement("li");
      item.textContent = T.no_matches;
      list.appendChild(item);
    }
    show($('[data-view="list"]'), true);
  }

  // Writes other than cards: online only, each with the match's expected version.

  async function command(url, body, slot) {
    if (state.busy) {
      return false;
    }
    state.busy = true;
    problem("");
    render();
    let done = false;
    try {
      await api("POST", url, body, { "Idempotency-Key": newKey() });
      done = true;
      state.sent = [];
      await refresh();
    } catch (error) {
      report(error, slot);
      if (!done && error instanceof ApiError && error.status === 409) {
        await tryRefresh(); // the match moved on (another tablet?): show it as it is now
      }
    } finally {
      state.busy = false;
      render();
    }
    return done;
  }

  function versioned(body) {
    return Object.assign({ expected_version: state.match.version }, body);
  }

  function startRound(pointsOnly) {
    const body = pointsOnly ? { points_only: true } : { briscola: typed(state.briscola) };
    if (state.match.rounds.length === 0 && state.dealer !== null) {
      body.dealer_seat = state.dealer;
    }
    return command(matchUrl() + "rounds/", versioned(body)).then(function (done) {
      if (done) {
        state.briscola = null;
        render();
      }
    });
  }

  // Cards.

  // The cards a corrected play may be: those the rules let its seat play at that point of the
  // round (the replay up to it says which), less the cards played since; never the face-up
  // briscola before it is drawn. Corrections are sent online only, so this asks the server.
  async function chooseCorrection(index, card) {
    const correcting = { index: index, card: card, allowed: undefined };
    state.correcting = correcting;
    render();
    try {
      const before = await api("GET", roundUrl(latestRound().number, "replay") + "?upto=" + index);
      correcting.allowed = before.playable ? new Set(before.playable) : null;
    } catch (error) {
      if (state.correcting === correcting) {
        state.correcting = null;
      }
      report(error);
    }
    render();
  }

  function tapCard(code) {
    const latest = latestRound();
    if (state.correcting) {
      if (state.correcting.index !== null) {
        const index = state.correcting.index;
        state.correcting = null;
        command(roundUrl(latest.number, "plays/" + index + "/correct"), versioned({ card: typed(code) }));
      }
      return;
    }
    const model = tableModel();
    if (model.seatOnTurn === null || model.played.has(code) || state.stopped || state.busy) {
      return;
    }
    const previous = state.queue.length ? state.queue[state.queue.length - 1] : null;
    state.queue.push({
      round: latest.number,
      seat: model.seatOnTurn,
      card: code,
      expected_version: previous ? previous.expected_version + 1 : state.match.version,
      key: newKey(),
    });
    saveQueue();
    render();
    drain();
  }

  function drain() {
    if (!state.sending && !state.stopped && state.queue.length) {
      state.sending = sendQueue().then(function (delivered) {
        state.sending = null;
        if (delivered && state.queue.length) {
          return drain(); // cards tapped while the last answer was awaited
        }
        return undefined;
      });
    }
    return state.sending || Promise.resolve();
  }

  // The cards waiting for one round go in one request (plays/batch/: all or none). A batch is
  // fixed when first sent (its size and key kept with its first card), so a retry after a lost
  // answer sends the same cards with the same key and gets the first answer back.
  function nextBatch() {
    const first = state.queue[0];
    if (!first.batch) {
      let size = 1;
      while (size < state.queue.length && size < MOST_CARDS_IN_A_BATCH && state.queue[size].round === first.round) {
        size += 1;
      }
      first.batch = { size: size, key: size > 1 ? newKey() : first.key };
      saveQueue();
    }
    return state.queue.slice(0, first.batch.size);
  }

  function sendBatch(items) {
    const first = items[0];
    if (items.length === 1) {
      return api(
        "POST",
        roundUrl(first.round, "plays"),
        { seat: first.seat, card: typed(first.card), expected_version: first.expected_version },
        { "Idempotency-Key": first.key },
      );
    }
    return api(
      "POST",
      roundUrl(first.round, "plays/batch"),
      {
        plays: items.map(function (item) { return [item.seat, typed(item.card)]; }),
        expected_version: first.expected_version,
      },
      { "Idempotency-Key": first.batch.key },
    );
  }

  async function sendQueue() {
    let sent = false;
    while (state.queue.length && !state.stopped) {
      const items = nextBatch();
      let answer;
      try {
        answer = await sendBatch(items);
      } catch (error) {
        if (isOffline(error)) {
          notice(T.offline);
        } else {
          state.stopped = error.message;
          problem(fmt(T.refused, { detail: error.message }), true);
        }
        render();
        return false;
      }
      state.sent = state.sent.concat(state.queue.splice(0, items.length));
      saveQueue();
      state.match.version = answer.version;
      sent = true;
      render();
    }
    if (sent && !state.queue.length) {
      await tryRefresh();
    }
    return true;
  }

  async function undo() {
    const latest = latestRound();
    // Cards already sent once (a batch fixed, maybe recorded) are not taken back here.
    const fixed = state.queue.length && state.queue[0].batch ? state.queue[0].batch.size : 0;
    const unsent = state.queue.length - Math.max(fixed, state.sending ? 1 : 0);
    if (unsent > 0) {
      state.queue.pop();
      saveQueue();
      if (!state.queue.length && state.stopped) {
        state.stopped = null;
        problem("");
      }
      render();
      return;
    }
    await drain();
    if (!state.queue.length && !state.stopped) {
      await command(roundUrl(latest.number, "undo"), versioned({}));
    }
  }

  async function discardQueue() {
    state.queue = [];
    saveQueue();
    state.stopped = null;
    problem("");
    await tryRefresh();
  }

  // Events.

  function bind() {
    root.addEventListener("click", function (event) {
      const target = event.target.closest("button");
      if (!target || !root.contains(target) || target.disabled) {
        return;
      }
      const data = target.dataset;
      if (data.card) {
        tapCard(data.card);
      } else if (data.dealer !== undefined) {
        state.dealer = Number(data.dealer);
        render();
      } else if (data.briscola) {
        state.briscola = data.briscola;
        render();
      } else if (data.playIndex !== undefined) {
        chooseCorrection(Number(data.playIndex), data.playCard);
      } else if (data.settleRound !== undefined) {
        chooseSettledRound(Number(data.settleRound));
      } else if (data.settlePlay !== undefined) {
        state.settling.index = Number(data.settlePlay);
        state.settling.card = null;
        render();
      } else if (data.settleCard !== undefined) {
        state.settling.card = data.settleCard;
        render();
      } else if (data.action === "correct-finished") {
        toggleSettling();
      } else if (data.action === "start-round") {
        startRound(false);
      } else if (data.action === "points-only") {
        startRound(true);
      } else if (data.action === "undo") {
        undo();
      } else if (data.action === "correct") {
        state.correcting = state.correcting ? null : { index: null, card: null };
        render();
      } else if (data.action === "confirm") {
        command(matchUrl() + "confirm/", { side: Number(data.side) });
      } else if (data.action === "dispute") {
        const reason = $("[data-dispute-reason]");
        if (!reason.value.trim()) {
          problem(T.reason_needed);
          reason.focus();
          return;
        }
        command(matchUrl() + "dispute/", { side: Number(data.side), reason: reason.value.trim() });
      } else if (data.action === "discard-queue") {
        discardQueue();
      } else if (data.action === "forget-key") {
        storage("remove", KEY_STORE);
        target.hidden = true;
      }
    });
    const pointsForm = $("[data-points-form]");
    if (pointsForm) {
      pointsForm.addEventListener("submit", function (event) {
        event.preventDefault();
        const points = enteredPoints();
        const total = points ? points.reduce(function (a, b) { return a + b; }, 0) : 0;
        if (!points || total !== 120 || points.some(function (p) { return p < 0 || p > 120; })) {
          problem(T.points_total);
          return;
        }
        command(roundUrl(latestRound().number, "score"), versioned({ points: points }));
      });
    }
    const voidForm = $("[data-void-form]");
    if (voidForm) {
      voidForm.addEventListener("submit", function (event) {
        event.preventDefault();
        const reason = voidForm.elements.reason.value.trim();
        if (!reason) {
          problem(T.reason_needed, false, "void");
          return;
        }
        voidForm.reset();
        voidForm.closest("details").open = false;
        command(roundUrl(latestRound().number, "void"), versioned({ reason: reason }));
      });
    }
    const settleForm = $("[data-settle-form]");
    if (settleForm) {
      settleForm.addEventListener("submit", function (event) {
        event.preventDefault();
        settleCard(settleForm);
      });
    }
    window.addEventListener("online", drain);
    window.setInterval(function () {
      if (state.queue.length && !state.stopped && state.match) {
        drain();
      }
    }, RETRY_MS);
    // Another tablet, or a player confirming, may move the match on: look again when idle.
    window.setInterval(function () {
      if (state.match && !state.queue.length && !state.sending && !state.busy && !document.hidden) {
        tryRefresh();
      }
    }, POLL_MS);
  }

  async function start() {
    takeKeyFromFragment();
    show($('[data-action="forget-key"]'), Boolean(deviceKey()));
    const login = $("[data-login-link]");
    login.href = login.getAttribute("href") + "?next=" + encodeURIComponent(window.location.pathname + window.location.search);
    bind();
    render();
    if (!matchId) {
      if (!deviceKey() && root.dataset.signedIn !== "true") {
        showAccess(); // nobody to list matches for: no request the API would refuse
        return;
      }
      await showList();
      return;
    }
    await tryRefresh();
    if (state.match) {
      drain();
    }
  }

  start();
})();
