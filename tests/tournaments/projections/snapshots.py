"""What the API answers about tournaments, and a projection schema emptied down to the log and
the name tables: the two halves of the rebuild tests in this package.

A snapshot is every public GET of the API for some tournaments and all their matches (the
replaced ones too), read by staff and by an anonymous reader, as `{(reader, url): (status,
body)}`; not the people's pages, whose HTML carries a fresh nonce and CSRF token each time.

Emptying deletes every projection row and resets every derived column with plain SQL, so that
nothing but the events and the names is left for `rebuild_projections` to start from.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any
from uuid import UUID

from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection
from rest_framework.test import APIClient

from games.eventstore.api import read_stream
from tests.factories.accounts import UserFactory
from tournaments.models import EntrantPlayer, Tournament

API = "/api/v1"
LOG_PAGE = 1000
"""The most events the log's endpoint answers at once (games.matches.selectors.MAX_LOG_PAGE)."""

FIXTURE_CREATED = "FixtureCreated"
"""The tournament event that names a match it created (a stored fact: its name never changes)."""

Answer = tuple[int, Any]
Snapshot = dict[tuple[str, str], Answer]


def readers() -> dict[str, APIClient]:
    """A superuser, who may read every GET (the log and the match events included), and an
    anonymous reader, who reads public tournaments: what the public sees depends on the rows
    too (a tournament's match is placed by its fixture row, `tournaments.selectors.access`)."""
    staff = UserFactory.create(username="rebuild-staff", is_staff=True, is_superuser=True)
    # A server error is an answer to compare like any other, not an exception in the test.
    staff_client = APIClient(raise_request_exception=False)
    staff_client.force_authenticate(staff)
    return {"staff": staff_client, "anonymous": APIClient(raise_request_exception=False)}


def tournament_tables(tournament_id: UUID) -> int:
    """How many tables the tournament was created with, as its log says."""
    created = read_stream(stream_id=tournament_id, to_version=1)[0]
    tables: int = created.payload["settings"]["tables"]
    return tables


def tournament_match_ids(tournament_id: UUID) -> list[UUID]:
    """Every match the tournament created, as its log says, those replaced after a corrected
    result included (their pages stay readable)."""
    return [
        UUID(event.payload["match_id"])
        for event in read_stream(stream_id=tournament_id)
        if event.event_type == FIXTURE_CREATED
    ]


def answer(client: APIClient, url: str) -> Answer:
    response = client.get(url)
    content_type = response.headers.get("Content-Type", "")
    body = response.json() if content_type.startswith("application/json") else response.content
    return response.status_code, body


def tournament_urls(tournament_id: UUID) -> list[str]:
    base = f"{API}/tournaments/{tournament_id}"
    statuses = ["", "?status=ready", "?status=in_progress", "?status=finished"]
    return [
        # The table cards first: the first card of a table issues its device token (kept by the
        # emptying, and shown again by later cards), which the device tokens' list then shows
        # in both snapshots. SVG only: a PDF carries the moment it was drawn.
        *(
            f"{base}/tables/{table}/card/"
            for table in range(1, tournament_tables(tournament_id) + 1)
        ),
        f"{base}/",
        *(f"{base}/matches/{query}" for query in statuses),
        f"{base}/standings/",
        f"{base}/bracket/",
        f"{base}/device-tokens/",
        *rating_urls(tournament_id),
    ]


def rating_urls(tournament_id: UUID) -> list[str]:
    """The club's leaderboard (everyone rated) and each player's ratings with their history."""
    club = Tournament.objects.filter(id=tournament_id).values_list("club__slug", flat=True)[0]
    players = EntrantPlayer.objects.filter(entrant__tournament_id=tournament_id)
    return [
        *([f"{API}/clubs/{club}/ratings/?min_matches=0"] if club else []),
        *(
            f"{API}/players/{player}/ratings/"
            for player in players.values_list("player_id", flat=True)
        ),
    ]


def match_snapshot(client: APIClient, reader: str, match_id: UUID) -> Snapshot:
    """The match, its events, and each of its rounds with its replay (the rounds as the match
    answer lists them, so that a rebuild that lost a round shows as a different set of URLs)."""
    base = f"{API}/matches/{match_id}"
    taken: Snapshot = {}
    for url in (f"{base}/", f"{base}/events/"):
        taken[(reader, url)] = answer(client, url)
    status, match = taken[(reader, f"{base}/")]
    numbers = [r["number"] for r in match.get("rounds", [])] if status == 200 else []
    for number in numbers:
        for url in (f"{base}/rounds/{number}/", f"{base}/rounds/{number}/replay/"):
            taken[(reader, url)] = answer(client, url)
    return taken


def log_pages(client: APIClient, reader: str) -> Snapshot:
    """The whole global log, page after page as a consumer reads it."""
    taken: Snapshot = {}
    after = 0
    while True:
        url = f"{API}/events/?after={after}&limit={LOG_PAGE}"
        status, page = taken[(reader, url)] = answer(client, url)
        if status != 200 or not page["events"]:
            return taken
        after = page["next_after"]


def snapshot(clients: dict[str, APIClient], tournament_ids: Iterable[UUID]) -> Snapshot:
    """Every GET of the API about these tournaments, by each reader.

    Nothing is left out: every field is compared. `overdue` in a tournament's matches compares
    a deadline with the clock when asked, but the deadlines the tests set lie minutes ahead, so
    it reads the same before and after a rebuild."""
    cache.clear()  # the throttles count requests in the cache; a snapshot makes hundreds
    ids = list(tournament_ids)
    # Not the API, but public: the consumer's lag. The snapshots are taken with the consumer
    # caught up, so a rebuild must leave it so, or the site reports itself unavailable. The other
    # checks (database, Redis) answer the same twice; `lag_seconds` is 0 once caught up.
    taken: Snapshot = {("anonymous", "/healthz"): answer(clients["anonymous"], "/healthz")}
    for reader, client in clients.items():
        for url in (f"{API}/tournaments/", f"{API}/scorer/matches/"):
            taken[(reader, url)] = answer(client, url)
        taken |= log_pages(client, reader)
        for tournament_id in ids:
            for url in tournament_urls(tournament_id):
                taken[(reader, url)] = answer(client, url)
            for match_id in tournament_match_ids(tournament_id):
                taken |= match_snapshot(client, reader, match_id)
    return taken


def differences(before: Snapshot, after: Snapshot) -> list[str]:
    """The GETs whose answers changed, one line per changed value, by its path in the answer
    (whole answers are too long to read in a failed assertion)."""
    lines = [f"{key}: gone after the rebuild" for key in before.keys() - after.keys()]
    lines += [f"{key}: new after the rebuild" for key in after.keys() - before.keys()]
    for key in before.keys() & after.keys():
        (status, body), (new_status, new_body) = before[key], after[key]
        if status != new_status:
            lines.append(f"{key}: answered {status}, then {new_status}: {new_body!r}"[:2000])
        else:
            lines += [f"{key} {change}" for change in changes(body, new_body, "")]
    return sorted(lines)


def changes(before: Any, after: Any, path: str) -> list[str]:
    """Where two JSON values differ: `path: before -> after` for each differing leaf (a list of
    another length, or a value of another type, is one difference)."""
    if isinstance(before, dict) and isinstance(after, dict):
        found = []
        for name in sorted(before.keys() | after.keys(), key=str):
            if name not in after or name not in before:
                found.append(
                    f"{path}.{name}: {before.get(name, '(none)')!r} -> "
                    f"{after.get(name, '(none)')!r}"
                )
            else:
                found += changes(before[name], after[name], f"{path}.{name}")
        return found
    if isinstance(before, list | tuple) and isinstance(after, list | tuple):
        if len(before) != len(after):
            return [f"{path}: {len(before)} items -> {len(after)} items: {after!r}"[:2000]]
        return [
            change
            for index, (old, new) in enumerate(zip(before, after, strict=True))
            for change in changes(old, new, f"{path}[{index}]")
        ]
    return [] if before == after else [f"{path or '.'}: {before!r} -> {after!r}"[:2000]]


# Emptying the projections. Every foreign key of these tables is NO ACTION at the database (Django
# cascades in Python only), and no named row refers to a projection row (Fixture refers to
# Entrant, not the other way), so these statements delete no name; the constraints are checked
# at once afterwards all the same.

EMPTY_PROJECTIONS = [
    # The match projections: MatchSide (free-standing matches' names) stays.
    "DELETE FROM games_round",
    "DELETE FROM games_match",
    # The tournament projections.
    "DELETE FROM tournaments_fixture",
    "DELETE FROM tournaments_tournamentview",
    "DELETE FROM tournaments_table",
    "DELETE FROM tournaments_playerrating",
    "DELETE FROM tournaments_ratingchange",
    # The consumer's checkpoint stays: it is how far the policies have acted on the log, not a
    # fact derived from it (a rebuild must not make the consumer act on everything again).
    # The derived columns of the name tables: names, players, club and `public` stay, and so do
    # `created_at` and `registered_at`, which are the server's clock when the rows were created,
    # not the events' `recorded_at`.
    "UPDATE tournaments_entrant SET seed = NULL, checked_in = false, withdrawn = false, "
    'fixed_table = NULL, "group" = NULL',
    "UPDATE tournaments_tournament SET status = 'registration', version = 0, "
    "settings = '{}'::jsonb, updated_at = 'epoch'",
    # `format` and `table_size` copy the settings of `TournamentCreated`: derived too.
    "UPDATE tournaments_tournament SET format = '', table_size = 0",
]


def empty_projections() -> None:
    with connection.cursor() as cursor:
        for statement in EMPTY_PROJECTIONS:
            cursor.execute(statement)
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def rebuild() -> None:
    call_command("rebuild_projections", "--quiet", stdout=io.StringIO(), stderr=io.StringIO())


def verify() -> tuple[int, str]:
    """Run `verify_projections`: its exit status and everything it wrote. The command fails
    with CommandError (status 1 from the command line) or SystemExit; both are read here."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_projections", "--quiet", stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, f"{out.getvalue()}{err.getvalue()}{error}"
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
        return code, f"{out.getvalue()}{err.getvalue()}"
    return 0, f"{out.getvalue()}{err.getvalue()}"
