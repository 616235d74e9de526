"""Page views: thin adapters that read through selectors and render templates.

The tournament page and its projector screen poll themselves (htmx, every few seconds) for
their live part, or follow the tournament's event stream where the browser can (live.js). Each
answer carries an ETag made from what the pages show (`public.tournament_read_state`: not the
log's position, which every card moves), so a poll of an unchanged tournament costs a 304.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any
from uuid import UUID

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from common.bodies import BodyCache, body_of
from games.matches.stream.events import MATCH_EVENT_TYPES
from tournaments.errors import PlayerNotFound
from tournaments.models import FixtureStatus, Tournament
from tournaments.pages.drawing import draw
from tournaments.pages.ratings import rating_charts
from tournaments.seasons import selectors as season_selectors
from tournaments.selectors import lookup, players, projected, public, silence
from tournaments.selectors.signup import registration_of
from tournaments.standings.config import DEFAULT_TIEBREAKS
from tournaments.standings.placings import PLACING_TIEBREAKS_DEFAULT
from tournaments.stream.events import EVENT_CLASSES as TOURNAMENT_EVENT_TYPES
from tournaments.templatetags.tournament_pages import tiebreak_value

POLL_SECONDS = 5
"""How often the live parts poll; the setting TOURNAMENT_POLL_SECONDS overrides it (tests)."""
CURRENT_STATUSES = (FixtureStatus.READY, FixtureStatus.IN_PROGRESS)
FEED_EVENT_TYPES = sorted({*TOURNAMENT_EVENT_TYPES, *MATCH_EVENT_TYPES})


LIVE_FRAGMENTS: BodyCache[tuple[str, str]] = BodyCache(settings.TOURNAMENT_PAGE_CACHE_BYTES)
"""The live parts rendered in this process, by their path and ETag (decision record 0068): the
ETag is made of everything they show, whoever reads them (the reader's silent rounds included),
so when a followed tournament moves, its projectors' and phones' refreshes are one render."""
FRAGMENT_HEADERS = ("Content-Type",)


def poll_seconds() -> int:
    return int(getattr(settings, "TOURNAMENT_POLL_SECONDS", POLL_SECONDS))


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = lookup.tournament_list(reader=request.user).select_related("club")
    return render(request, "tournaments/tournament_list.html", {"tournaments": tournaments})


def readable_tournament(request: HttpRequest, tournament_id: UUID) -> Tournament:
    """The tournament if the visitor may read it; 404 otherwise, as the API answers."""
    tournament = (
        lookup.tournament_list(reader=request.user)
        .select_related("club")
        .filter(id=tournament_id)
        .first()
    )
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


def live_state(tournament_id: UUID) -> str:
    """Changes whenever the page could: what the tournament's readers see, or the language."""
    return f"{get_language()}-{public.tournament_read_state(tournament_id=tournament_id)}"


def page_owner(request: HttpRequest) -> str:
    """Whose copy of the whole page it is: it holds their CSRF token (the language switch posts
    it), so a new token, as after signing in, must not be answered 304."""
    csrf = request.META.get("CSRF_COOKIE", "")  # the secret the cookie holds, or will hold
    return f"{request.user.pk or 0}-{zlib.crc32(csrf.encode()):x}"


def not_modified(request: HttpRequest, etag: str) -> bool:
    wanted = request.headers.get("If-None-Match")
    return wanted is not None and (etag in parse_etags(wanted) or wanted.strip() == "*")


def is_caught_up(state: str) -> bool:
    """Whether the worker has projected every event the live state counts (its standings and
    bracket are as the log says): the page's script refreshes again until it has."""
    return state.rsplit("-", 2)[1] == "1"


def live_feed(tournament_id: UUID) -> dict[str, str]:
    """What the page's script follows instead of polling (tournaments/static/tournaments/
    live.js): the tournament's event stream from the position the page shows, and the event
    types it names (an EventSource hears only the types it listens to)."""
    position, _ = public.tournament_log_position(tournament_id=tournament_id)
    stream = reverse("api-v1:tournament-event-stream", args=[tournament_id])
    return {"url": f"{stream}?after={position}", "events": " ".join(FEED_EVENT_TYPES)}


def live_response(
    request: HttpRequest,
    *,
    tournament_id: UUID,
    kind: str,
    build: Callable[[], dict[str, Any]],
    hidden: int | None = None,
) -> HttpResponse:
    """The page, or (to an htmx poll) its live fragment, each with its ETag; 304 when the
    poll already has it. The page carries its fragment's ETag for the poll to send. `hidden`:
    the reader reads the results only before this round (another ETag: decision 0060)."""
    state = live_state(tournament_id)
    polled = bool(getattr(request, "htmx", False))
    shown = state if hidden is None else f"{state}-before-{hidden}"
    fragment_etag = f'"{kind}-live-{shown}"'

    def page_etag() -> str:
        return fragment_etag if polled else f'"{kind}-page-{shown}-{page_owner(request)}"'

    def rendered() -> HttpResponse:
        template = f"tournaments/{kind}_live.html" if polled else f"tournaments/{kind}.html"
        context = build() | {
            "etag": fragment_etag,
            "poll_seconds": poll_seconds(),
            "caught_up": is_caught_up(state),
        }
        if not polled:
            context["feed"] = live_feed(tournament_id)
        return render(request, template, context)

    if not_modified(request, page_etag()):
        response: HttpResponse = HttpResponseNotModified()
    elif polled:  # the same bytes for every reader of this state: built once per process
        response = LIVE_FRAGMENTS.kept_or_built(
            (request.path, fragment_etag), lambda: body_of(rendered(), FRAGMENT_HEADERS)
        ).response()
    else:  # the whole page holds its reader's CSRF token
        response = rendered()
    # After rendering: a first visit's page holds the CSRF secret its response sets.
    response["ETag"] = page_etag()
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["HX-Request", "Accept-Language", "Cookie"])
    return response


def standings_context(tournament: Tournament, hidden: int | None = None) -> dict[str, Any]:
    """`hidden`: the first silent round the reader may not read the results of (decision
    record 0060): the standings after the round before it, marked."""
    rows = projected.tournament_standings(tournament_id=tournament.id, public=hidden is not None)
    at_three = tournament.table_size == 3
    # In the configured order (the projection's JSON keeps no key order).
    default = PLACING_TIEBREAKS_DEFAULT if at_three else DEFAULT_TIEBREAKS
    tiebreaks = list(tournament.settings.get("tiebreaks") or default) if rows else []
    players = public.entrant_players(tournament_id=tournament.id)
    byes = at_three and any(row.get("byes") for row in rows)
    counts = (
        ["played", *(["byes"] if byes else []), "first", "second", "third"]
        if at_three
        else ["played", "won", "tied", "lost"]
    )
    columns = [*counts, *tiebreaks]
    for row in rows:
        row["players"] = players.get(row["entrant"], [])
        if at_three:  # tables won, and each place, as the columns name them
            row["first"], row["second"], row["third"] = row["placings"]
            row["won"] = row["first"]
        row["cells"] = [row[name] for name in counts] + [
            tiebreak_value(row, name) for name in tiebreaks
        ]
        # The first tie-break (match points, usually): the projector shows it beside the wins.
        row["lead"] = tiebreak_value(row, tiebreaks[0]) if tiebreaks else None
        row["sat_out_text"] = sat_out_text(row.get("sat_out", ()))
    # Said once a silent round is paired (and projected): before, the standings are complete.
    said = hidden is not None and projected.silent_view(tournament.id) is not None
    return {
        "standings": rows,
        "tiebreaks": tiebreaks,
        "columns": columns,
        "results_hidden": said,
        "standings_after_round": None if hidden is None else hidden - 1,
    }


SAT_OUT_WORDS = {
    "late_entry": gettext_lazy("late entry"),
    "late_entry_bye": gettext_lazy("late entry, a bye"),
    "requested_bye": gettext_lazy("requested bye"),
    "absent": gettext_lazy("absent"),
}
"""The rounds a Swiss drew without an entrant, said in the standings (decision record 0058)."""


def sat_out_text(sat_out: Any) -> str:
    return "; ".join(
        _("round %(round)s: %(kind)s")
        % {"round": item["round"], "kind": SAT_OUT_WORDS[item["kind"]]}
        for item in sat_out
    )


def with_places(fixtures: list[dict[str, Any]], table_size: int) -> list[dict[str, Any]]:
    """At tables of three, a finished table of two (the field forces one) has its places
    too, from its winner (1st and 2nd; both 1st when level), like the tables of three."""
    if table_size != 3:
        return fixtures
    for fixture in fixtures:
        finished = fixture["status"] == FixtureStatus.FINISHED
        if finished and not fixture.get("places") and len(fixture["entrants"]) == 2:
            winner = fixture.get("winner")
            fixture["places"] = [
                1 if winner in (None, entrant) else 2 for entrant in fixture["entrants"]
            ]
    return fixtures


def rounds_of(fixtures: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Fixtures grouped by stage and round, in order."""
    grouped: list[dict[str, Any]] = []
    for fixture in fixtures:
        if not grouped or (grouped[-1]["stage"], grouped[-1]["round"]) != (
            fixture["stage"],
            fixture["round"],
        ):
            grouped.append(
                {
                    "stage": fixture["stage"],
                    "round": fixture["round"],
                    "playoff": "-PO-" in fixture["key"],
                    "fixtures": [],
                }
            )
        grouped[-1]["fixtures"].append(fixture)
    return grouped


def tournament_detail(request: HttpRequest, tournament_id: UUID) -> HttpResponse:
    tournament = readable_tournament(request, tournament_id)
    hidden = silence.hidden_round_of_tournament(request.user, tournament)

    def build() -> dict[str, Any]:
        bracket = projected.tournament_bracket(
            tournament_id=tournament.id, public=hidden is not None
        )
        fixtures = with_places(
            silence.redacted_fixtures(
                public.tournament_fixtures_named(tournament_id=tournament.id), hidden, mark=True
            ),
            tournament.table_size,
        )
        champion = bracket.get("champion")
        return {
            "tournament": tournament,
            **standings_context(tournament, hidden),
            "drawing": draw(bracket),
            "rounds": rounds_of(fixtures),
            "champion": None if champion is None else bracket["entrants"].get(str(champion)),
            "seasons": season_selectors.seasons_of_tournament(tournament.id),
            "sign_up_open": tournament.status == "registration"
            and registration_of(tournament.settings).accepts(timezone.now()),
        }

    return live_response(
        request,
        tournament_id=tournament.id,
        kind="tournament_detail",
        build=build,
        hidden=hidden,
    )


def tournament_screen(request: HttpRequest, tournament_id: UUID) -> HttpResponse:
    tournament = readable_tournament(request, tournament_id)
    hidden = silence.hidden_round_of_tournament(request.user, tournament)

    def build() -> dict[str, Any]:
        fixtures = silence.redacted_fixtures(
            public.tournament_fixtures_named(tournament_id=tournament.id), hidden, mark=True
        )
        current = [f for f in fixtures if f["status"] in CURRENT_STATUSES]
        current.sort(key=lambda f: (f["table"] is None, f["table"] or 0, f["key"]))
        return {
            "tournament": tournament,
            **standings_context(tournament, hidden),
            "current": current,
        }

    return live_response(
        request,
        tournament_id=tournament.id,
        kind="tournament_screen",
        build=build,
        hidden=hidden,
    )


def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    try:
        player = players.player_get(player_id=player_id, reader=request.user)
    except PlayerNotFound:
        raise Http404("no such player") from None
    entries = public.player_matches(player=player, reader=request.user)
    context = {"player": player, "entries": entries, "charts": rating_charts(player)}
    return render(request, "tournaments/player_detail.html", context)
