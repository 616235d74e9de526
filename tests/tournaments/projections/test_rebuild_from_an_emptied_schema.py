"""Issue 11 §1: every tournament fact comes from the log. Random tournaments run through the
services; what the API answers about them is read; the projection schema is emptied down to the
events and the name tables; `rebuild_projections` refills it; the API answers the same."""

from __future__ import annotations

from uuid import UUID

import pytest
from django.db import transaction
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts.services import club_create
from games.eventstore.api import last_position
from games.models import Match
from tests.tournaments.projections import snapshots
from tests.tournaments.projections.steps import (
    ORGANIZER,
    attempt,
    correct_result,
    matches_of,
    open_matches,
    play_to_winner,
    step,
)
from tournaments.models import Entrant, Fixture, Tournament
from tournaments.projections import consumer
from tournaments.ratings import projection as ratings
from tournaments.services import corrections, registration, running
from tournaments.services import registration as tournament_registration

pytestmark = pytest.mark.django_db

MOST_STEPS = 40

# Setting a tournament up.


FORMATS = [
    "single_elimination",
    "double_elimination",
    "round_robin",
    "swiss",
    "groups_then_knockout",
    # At tables of three (decision record 0031).
    "single_elimination@3",
    "round_robin@3",
    "swiss@3",
    "groups_then_knockout@3",
]


def random_options(
    data: st.DataObject, format: str, threes: bool, smallest: int
) -> tuple[dict[str, object], int]:
    """The format's settings and the number of entrants (`smallest` at least), drawn at random."""
    options: dict[str, object] = {
        "table_size": 3 if threes else data.draw(st.sampled_from([2, 4]), label="table_size"),
        "best_of": data.draw(st.sampled_from([1, 1, 3]), label="best_of"),
        "tables": data.draw(st.integers(1, 3), label="tables"),
        "no_show_minutes": data.draw(st.sampled_from([None, 10]), label="no_show_minutes"),
    }
    count = data.draw(st.integers(smallest, 7), label="entrants")
    if format == "swiss":
        options["swiss_rounds"] = data.draw(st.integers(2, 3), label="swiss_rounds")
        options["automatic_rounds"] = data.draw(st.booleans(), label="automatic_rounds")
    if format == "groups_then_knockout":
        # Not groups of two: five entrants (six, one withdrawn) make no three groups of two.
        options["group_size"] = data.draw(st.sampled_from([3, 4]), label="group_size")
    if format in ("single_elimination", "double_elimination"):
        options["third_place"] = format == "single_elimination" and data.draw(st.booleans())
    return options, count


def random_tournament(data: st.DataObject, format: str) -> UUID:
    """A tournament of the format with random options and size, seeds, check-ins, maybe a
    withdrawal and an explicit seeding, started. `format@3`: at tables of three."""
    format, _, threes = format.partition("@")
    smallest = {"groups_then_knockout": 4, "double_elimination": 3}.get(format, 3 if threes else 2)
    options, count = random_options(data, format, bool(threes), smallest)
    tournament = tournament_registration.tournament_create(
        name="Rebuilt",
        format=format,
        actor=ORGANIZER,
        club=club_create(name="Circolo del Rebuild"),
        **options,  # type: ignore[arg-type]
    )
    players = 2 if options["table_size"] == 4 else 1
    entrant_ids = []
    for number in range(1, count + 1):
        seed = data.draw(st.sampled_from([number, None]), label="seed")
        result = registration.entrant_register(
            tournament_id=tournament.id,
            name=f"Entrant {number}",
            players=[f"Player {number}.{p}" for p in range(players)],
            seed=seed,
            actor=ORGANIZER,
        )
        entrant_ids.append(registration.registered_entrant_id(result))
    for entrant_id in entrant_ids:
        if data.draw(st.booleans(), label="checks in before the start"):
            registration.entrant_check_in(
                tournament_id=tournament.id, entrant_id=entrant_id, actor=ORGANIZER
            )
    if count > smallest and data.draw(st.booleans(), label="withdraws before the start"):
        registration.entrant_withdraw(
            tournament_id=tournament.id,
            entrant_id=data.draw(st.sampled_from(entrant_ids)),
            reason="ill",
            actor=ORGANIZER,
        )
    seeding = data.draw(st.sampled_from([None, "given", "random"]), label="seeding")
    if seeding is not None:
        registration.tournament_seed(
            tournament_id=tournament.id,
            method=seeding,
            random_seed=data.draw(st.integers(0, 1000)) if seeding == "random" else None,
            actor=ORGANIZER,
        )
    if data.draw(st.booleans(), label="the first two seeds swapped"):
        # Refused when a third entrant holds one of the two seeds: then nothing changes.
        attempt(
            lambda: corrections.entrants_reseed(
                tournament_id=tournament.id,
                seeds={entrant_ids[0]: 2, entrant_ids[1]: 1},
                reason="swapped at the desk",
                actor=ORGANIZER,
            )
        )
    only_checked_in = data.draw(st.booleans(), label="start with the checked-in only")
    attempt(
        lambda: running.tournament_start(
            tournament_id=tournament.id, only_checked_in=only_checked_in, actor=ORGANIZER
        )
    )
    if Tournament.objects.get(id=tournament.id).status != "in_progress":
        running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    return tournament.id


def play_to_the_end(data: st.DataObject, tournament_id: UUID) -> None:
    """Play every open match, the consumer creating the next ones, until none is left (a Swiss
    tournament with manual rounds publishes them); then maybe correct one result more."""
    for _ in range(50):  # more than any tournament here has matches
        consume_until_quiet()
        if tournament_format(tournament_id) == "swiss":
            attempt(
                lambda: running.swiss_round_publish(tournament_id=tournament_id, actor=ORGANIZER)
            )
        matches = open_matches(tournament_id)
        if not matches:
            break
        for match in matches:
            play_to_winner(match.id, data.draw(st.integers(0, 1), label="side"))
    consume_until_quiet()
    finished = matches_of(
        tournament_id, status="finished", forfeited_by__isnull=True, winner__isnull=False
    )
    if not finished or not data.draw(st.booleans(), label="a correction after the end"):
        return
    corrected = data.draw(st.sampled_from(finished), label="corrected match")
    attempt(lambda: correct_result(corrected.id))


def tournament_format(tournament_id: UUID) -> str:
    return Tournament.objects.values_list("format", flat=True).get(id=tournament_id)


def note_what_happened(tournament_id: UUID) -> None:
    """For `--hypothesis-show-statistics`: which of the cases worth rebuilding were reached."""
    tournament = Tournament.objects.get(id=tournament_id)
    fixtures = Fixture.objects.filter(tournament_id=tournament_id)
    matches = Match.objects.filter(id__in=fixtures.values("match_id"))
    event(f"{tournament.format}, {tournament.status}")
    for seen, what in [
        (fixtures.filter(status="reset").exists(), "a fixture reset after a correction"),
        (fixtures.filter(table__isnull=False).exists(), "a match at a table"),
        (fixtures.filter(deadline__isnull=False).exists(), "a no-show deadline"),
        (matches.filter(forfeited_by__isnull=False).exists(), "a forfeit"),
        (Entrant.objects.filter(tournament=tournament, withdrawn=True).exists(), "a withdrawal"),
    ]:
        if seen:
            event(what)


def consume_until_quiet() -> None:
    while consumer.consume() + ratings.consume():
        pass


@pytest.mark.parametrize("format", FORMATS)
@settings(
    max_examples=2,  # a format's first example is its simplest, the second random
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    # No shrinking: an example takes seconds, and shrinking one would take minutes. The draws of
    # the failing example are printed all the same.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(data=st.data())
def test_every_api_answer_is_the_same_after_a_rebuild_from_an_emptied_schema(
    format: str, data: st.DataObject
) -> None:
    with transaction.atomic():  # each example starts from an empty log
        clients: dict[str, APIClient] = snapshots.readers()
        tournament_id = random_tournament(data, format)
        for _ in range(data.draw(st.integers(5, MOST_STEPS), label="steps")):
            step(data, tournament_id)
        if data.draw(st.booleans(), label="played to the end"):
            play_to_the_end(data, tournament_id)
        consume_until_quiet()
        note_what_happened(tournament_id)
        before = snapshots.snapshot(clients, [tournament_id])
        head = last_position()

        snapshots.empty_projections()
        snapshots.rebuild()

        after = snapshots.snapshot(clients, [tournament_id])
        changed = snapshots.differences(before, after)
        assert not changed, "\n".join(changed)
        status, report = snapshots.verify()
        assert (status, report) == (0, report)
        consume_until_quiet()  # a consumer that starts again from the rebuilt rows records nothing
        assert last_position() == head
        transaction.set_rollback(True)
