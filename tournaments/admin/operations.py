"""The console's operations: each calls one service for one tournament and says what it did
(a refusal raises); the buttons of a tournament's page and the changelist actions run them."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.http import (
    HttpRequest,
)
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from common.admin import admin_actor
from common.parsing import ascii_int
from tournaments.admin import sign_up
from tournaments.admin.forms import (
    SeedsForm,
)
from tournaments.errors import (
    EntrantNotFound,
    InvalidFormatOption,
    InvalidGroupOrder,
    InvalidTournament,
)
from tournaments.models import (
    Entrant,
    Fixture,
    Tournament,
)
from tournaments.projections import consumer
from tournaments.services import registration, revealing, running, scheduling
from tournaments.stream.events import EntrantWithdrew, tournament_event

RANDOM_SEED_LIMIT = 1_000_000


def seed_given(request: HttpRequest, tournament: Tournament) -> str:
    seeded = registration.tournament_seed(
        tournament_id=tournament.id, method="given", actor=admin_actor(request)
    )
    return _("seeded by the given seeds (%(count)s entrants).") % {
        "count": len(seeded.state.seeding or ())
    }


def seed_random(request: HttpRequest, tournament: Tournament) -> str:
    """With the random seed typed on the tournament's page, or one drawn now."""
    given = request.POST.get("random_seed", "").strip()
    random_seed = ascii_int(given) if given else secrets.randbelow(RANDOM_SEED_LIMIT) + 1
    if random_seed is None:
        raise InvalidTournament.because(
            gettext_noop("a random seed is a whole number, not %(given)s"), given=repr(given[:40])
        )
    seeded = registration.tournament_seed(
        tournament_id=tournament.id,
        method="random",
        random_seed=random_seed,
        actor=admin_actor(request),
    )
    return _(
        "seeded at random with the random seed %(random_seed)s, recorded with the seeding "
        "(%(count)s entrants)."
    ) % {"random_seed": random_seed, "count": len(seeded.state.seeding or ())}


def start(request: HttpRequest, tournament: Tournament) -> str:
    state = running.tournament_start(tournament_id=tournament.id, actor=admin_actor(request)).state
    return _("started: %(count)s matches created.") % {"count": len(state.fixtures)}


def start_checked_in(request: HttpRequest, tournament: Tournament) -> str:
    result = running.tournament_start(
        tournament_id=tournament.id, only_checked_in=True, actor=admin_actor(request)
    )
    events = map(tournament_event, result.events)
    absent = sum(1 for event in events if isinstance(event, EntrantWithdrew))
    return _(
        "started with the %(count)s entrants checked in (%(absent)s withdrawn for not checking "
        "in): %(matches)s matches created."
    ) % {
        "count": len(result.state.order or ()),
        "absent": absent,
        "matches": len(result.state.fixtures),
    }


def check_in_entrant(request: HttpRequest, tournament: Tournament) -> str:
    """The entrant named by the button (`entrant`), checked in."""
    entrant = Entrant.objects.filter(
        tournament=tournament, id=int_field(request, "entrant")
    ).first()
    if entrant is None:
        raise EntrantNotFound.because(
            gettext_noop("entrant %(entrant)s is not registered in this tournament"),
            entrant=request.POST.get("entrant"),
        )
    registration.entrant_check_in(
        tournament_id=tournament.id, entrant_id=entrant.id, actor=admin_actor(request)
    )
    return _("%(name)s checked in.") % {"name": entrant.name}


def call_match(request: HttpRequest, tournament: Tournament) -> str:
    """The match named by the button (`match`), called to its table."""
    match_id = uuid_or_none(request.POST.get("match", ""))
    fixture = (
        None
        if match_id is None
        else Fixture.objects.filter(tournament=tournament, match_id=match_id).first()
    )
    if fixture is None:
        raise InvalidTournament.because(
            gettext_noop("match %(match)s is not a match of a tournament"),
            match=request.POST.get("match"),
        )
    scheduling.fixture_call(match_id=fixture.match_id, actor=admin_actor(request))
    return _("%(match)s called to table %(table)s.") % {
        "match": fixture.key,
        "table": fixture.table,
    }


def decide_group_places(request: HttpRequest, tournament: Tournament) -> str:
    """The group named by the form (`group`), its tied entrants ordered by the places typed
    (`place_<entrant id>`: 1 is the best), with the `reason`."""
    group = request.POST.get("group", "")
    places = {
        entrant: int_field(request, key)
        for key in request.POST
        if key.startswith("place_")
        and (entrant := ascii_int(key.removeprefix("place_"))) is not None
    }
    if sorted(places.values()) != list(range(1, len(places) + 1)):
        raise InvalidGroupOrder.because(
            gettext_noop(
                "give each tied entrant of group %(group)s a different place, 1 to %(count)s"
            ),
            group=group,
            count=len(places),
        )
    order = sorted(places, key=lambda entrant: places[entrant])
    running.group_places_decide(
        tournament_id=tournament.id,
        group=group,
        order=order,
        reason=request.POST.get("reason", ""),
        actor=admin_actor(request),
    )
    named = dict(Entrant.objects.filter(id__in=order).values_list("id", "name"))
    return _("group %(group)s: places decided (%(order)s).") % {
        "group": group,
        "order": ", ".join(named.get(e, f"#{e}") for e in order),
    }


def uuid_or_none(text: str) -> UUID | None:
    """A match id as typed: anything else names no match (a refusal, not an error)."""
    try:
        return UUID(text)
    except ValueError:
        return None


def int_field(request: HttpRequest, name: str) -> int:
    number = ascii_int(request.POST.get(name))
    return 0 if number is None else number


def open_check_in(request: HttpRequest, tournament: Tournament) -> str:
    registration.check_in_open(tournament_id=tournament.id, actor=admin_actor(request))
    return _("check-in is open.")


def close_check_in(request: HttpRequest, tournament: Tournament) -> str:
    registration.check_in_close(tournament_id=tournament.id, actor=admin_actor(request))
    return _("check-in is closed: later check-ins are refused until it opens again.")


def run_swiss_round_publish(request: HttpRequest, tournament: Tournament) -> str:
    """The service `swiss_round_publish` for one tournament, and the round it published."""
    state = running.swiss_round_publish(
        tournament_id=tournament.id, actor=admin_actor(request)
    ).state
    return _("Swiss round %(number)s published.") % {"number": len(state.swiss_rounds)}


def run_swiss_round_publish_allowing_same_group(
    request: HttpRequest, tournament: Tournament
) -> str:
    """The next Swiss round published with as few same-group pairings as it allows, when a
    strict `avoid_same_group` finds none without (decision record 0057)."""
    state = running.swiss_round_publish(
        tournament_id=tournament.id, actor=admin_actor(request), allow_same_group=True
    ).state
    return _("Swiss round %(number)s published.") % {"number": len(state.swiss_rounds)}


def schedule(request: HttpRequest, tournament: Tournament) -> str:
    called = scheduling.fixture_schedule(tournament_id=tournament.id, actor=admin_actor(request))
    tables = ", ".join(
        _("%(match)s at table %(table)s") % {"match": f.key, "table": f.table} for f in called
    )
    if not tables:
        return _("no match waits for a free table.")
    return _("tables given: %(tables)s.") % {"tables": tables}


def change_tables(request: HttpRequest, tournament: Tournament) -> str:
    """The tables typed on the tournament's page (`tables`); blank before the start: as many
    as the entrants need (decision record 0049)."""
    given = request.POST.get("tables", "").strip()
    tables = ascii_int(given) if given else None
    if given and tables is None:
        raise InvalidFormatOption.because(
            gettext_noop("%(option)s is a whole number"), option="tables"
        )
    result = scheduling.tournament_tables_change(
        tournament_id=tournament.id, tables=tables, actor=admin_actor(request)
    )
    if result.state.settings.tables is None:
        return _("%(tables)s tables, as many as the entrants need until the start.") % {
            "tables": result.state.tables
        }
    return _("%(tables)s tables.") % {"tables": result.state.tables}


def reveal_results(request: HttpRequest, tournament: Tournament) -> str:
    """The silent final rounds' results and standings, shown to everybody (decision 0060)."""
    revealing.results_reveal(tournament_id=tournament.id, actor=admin_actor(request))
    return _("results revealed: everybody now sees every result and the standings.")


def seeds_form(tournament: Tournament, data: Any = None) -> SeedsForm:
    """Every entrant still in the tournament, seeded first."""
    entrants = sorted(
        Entrant.objects.filter(tournament=tournament, withdrawn=False),
        key=lambda entrant: (entrant.seed is None, entrant.seed or 0, entrant.id),
    )
    return SeedsForm(data, entrants=entrants)


def refresh(request: HttpRequest, tournament: Tournament) -> str:  # noqa: ARG001 - every operation takes these
    """What the consumer does when the worker runs: record results, advance, project."""
    processed = consumer.consume()
    return ngettext(
        "bracket and standings brought up to date (%(count)s new event read).",
        "bracket and standings brought up to date (%(count)s new events read).",
        processed,
    ) % {"count": processed}


@dataclass(frozen=True)
class Operation:
    label: Any
    """What the button says (translated when shown)."""
    run: Callable[[HttpRequest, Tournament], str]


OPERATIONS = {
    "seed_given": Operation(gettext_lazy("Seed by the given seeds"), seed_given),
    "seed_random": Operation(gettext_lazy("Seed at random"), seed_random),
    "start": Operation(gettext_lazy("Start the tournament"), start),
    "start_checked_in": Operation(
        gettext_lazy("Start with the checked-in entrants only (the others withdraw)"),
        start_checked_in,
    ),
    "open_check_in": Operation(gettext_lazy("Open check-in"), open_check_in),
    "check_in_entrant": Operation(gettext_lazy("Check in"), check_in_entrant),
    "call_match": Operation(gettext_lazy("Call to its table"), call_match),
    "decide_group_places": Operation(gettext_lazy("Decide the places"), decide_group_places),
    "close_check_in": Operation(gettext_lazy("Close check-in"), close_check_in),
    "publish_swiss_round": Operation(
        gettext_lazy("Publish the next Swiss round"), run_swiss_round_publish
    ),
    "publish_swiss_round_allowing_same_group": Operation(
        gettext_lazy("Publish the next Swiss round, letting entrants of one group meet"),
        run_swiss_round_publish_allowing_same_group,
    ),
    "schedule": Operation(gettext_lazy("Give waiting matches the free tables"), schedule),
    "tables": Operation(gettext_lazy("Change the tables"), change_tables),
    "refresh": Operation(gettext_lazy("Bring bracket and standings up to date"), refresh),
    "registration": Operation(
        gettext_lazy("Save the sign-up settings"), sign_up.change_registration
    ),
    "application_approve": Operation(gettext_lazy("Approve"), sign_up.approve),
    "application_decline": Operation(gettext_lazy("Decline"), sign_up.decline),
    "application_promote": Operation(gettext_lazy("Enter now"), sign_up.promote),
    "application_up": Operation(gettext_lazy("Move up"), sign_up.move_up),
    "application_key_revoke": Operation(gettext_lazy("Revoke the player key"), sign_up.revoke_key),
    "application_erase": Operation(gettext_lazy("Erase the name and contact"), sign_up.erase),
    "reveal_results": Operation(gettext_lazy("Reveal the results"), reveal_results),
}
