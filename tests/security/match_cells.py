"""The permission matrix's cells for the matches: free-standing and tournament matches, their
rounds and plays, and the whole log."""

from __future__ import annotations

from tests.factories.api import API
from tests.security.cells import (
    EVERYBODY_READS,
    MEMBERS_READ,
    ORGANIZER_ONLY,
    ORGANIZER_READS,
    THIS_TABLE_SCORES,
    Cell,
    get,
    in_play,
    leader_plays,
    match_url,
    post,
    statuses,
)

MATCH_CELLS: list[Cell] = [
    # Free-standing matches: anybody signed in creates one (it is then theirs alone).
    Cell(
        "match-create",
        "post",
        post(
            lambda _w: f"{API}/matches/",
            lambda _w: {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}]},
        ),
        statuses(401, 201, 201, 201, 201, 201),
        player_key=401,
    ),
    Cell(
        "match-detail", "get", get(lambda w: match_url(w.match())), EVERYBODY_READS, player_key=200
    ),
    Cell(
        "match-detail",
        "get (private)",
        get(lambda w: match_url(w.private_match())),
        MEMBERS_READ,
        player_key=404,
    ),
    Cell(
        "result-confirm",
        "post",
        post(lambda w: match_url(w.finished_match(), "confirm"), lambda _w: {"side": 0}),
        statuses(401, 201, 403, 403, 403, 201),
        player_key=403,
    ),
    Cell(
        "result-dispute",
        "post",
        post(
            lambda w: match_url(w.finished_match(), "dispute"),
            lambda _w: {"side": 0, "reason": "we had 62 points"},
        ),
        statuses(401, 201, 403, 403, 403, 201),
        player_key=403,
    ),
    Cell(
        "match-forfeit",
        "post",
        post(lambda w: match_url(w.match(), "forfeit"), lambda _w: {"side": 1, "reason": "late"}),
        ORGANIZER_ONLY,
        player_key=403,
    ),
    Cell(
        "match-events",
        "get",
        get(lambda w: match_url(w.match(), "events")),
        ORGANIZER_READS,
        player_key=403,
    ),
    Cell(
        "match-event-stream",
        "get",
        get(lambda w: match_url(w.match(), "events", "stream")),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell(
        "match-event-stream",
        "get (private)",
        get(lambda w: match_url(w.private_match(), "events", "stream")),
        MEMBERS_READ,
        player_key=404,
    ),
    Cell(
        "round-start",
        "post",
        post(lambda w: match_url(w.match(), "rounds"), lambda _w: {"briscola": "7D"}),
        THIS_TABLE_SCORES,
        player_key=403,
    ),
    Cell("round-detail", "get", get(in_play), EVERYBODY_READS, player_key=200),
    Cell(
        "card-play",
        "post",
        post(lambda w: in_play(w) + "plays/", leader_plays),
        THIS_TABLE_SCORES,
        player_key=403,
    ),
    Cell(
        "card-play-batch",
        "post",
        post(
            lambda w: in_play(w) + "plays/batch/",
            lambda w: {"plays": [[leader_plays(w)["seat"], "1C"]]},
        ),
        THIS_TABLE_SCORES,
        player_key=403,
    ),
    Cell(
        "card-correct",
        "post",
        post(
            lambda w: match_url(w.card_played(), "rounds", 1, "plays", 0, "correct"),
            lambda _w: {"card": "2C"},
        ),
        THIS_TABLE_SCORES,
        player_key=403,
    ),
    Cell(
        "round-points-enter",
        "post",
        post(
            lambda w: match_url(w.round_started(briscola=None), "rounds", 1, "score"),
            lambda _w: {"points": [70, 50]},
        ),
        THIS_TABLE_SCORES,
        player_key=403,
    ),
    Cell(
        "play-undo",
        "post",
        post(lambda w: match_url(w.card_played(), "rounds", 1, "undo")),
        THIS_TABLE_SCORES,
        player_key=403,
    ),
    Cell(
        "round-void",
        "post",
        post(lambda w: in_play(w) + "void/", lambda _w: {"reason": "misdeal"}),
        THIS_TABLE_SCORES,
        player_key=403,
    ),
    Cell(
        "round-rule",
        "post",
        post(
            lambda w: match_url(w.finished_match(), "rounds", 1, "rule"),
            lambda _w: {"points": [50, 70], "reason": "the last trick was miscounted"},
        ),
        ORGANIZER_ONLY,
        player_key=403,
    ),
    Cell(
        "round-correct",
        "post",
        post(
            lambda w: match_url(w.finished_card_match()[0], "rounds", 1, "correct"),
            lambda w: w.finished_card_match()[1],
        ),
        ORGANIZER_ONLY,
        player_key=403,
    ),
    Cell(
        "round-replay",
        "get",
        get(lambda w: in_play(w) + "replay/"),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell(
        "log-events",
        "get",
        get(lambda _w: f"{API}/events/"),
        statuses(401, 403, 403, 403, 403, 403),
        player_key=401,
    ),
]
