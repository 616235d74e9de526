"""What the rebuild property (test_rebuild_from_an_emptied_schema.py) does to a started
tournament: play, correct and forfeit its matches through the services, and one random step
(`step`) dispatched on the table `STEPS` of actions."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from uuid import UUID

from django.db import transaction
from django.utils import timezone
from hypothesis import strategies as st

from common.actors import Actor
from games.matches import services as match_services
from games.models import Match, Round
from games.rules.errors import RuleViolation
from tournaments.models import Entrant, Fixture, Tournament
from tournaments.projections import consumer
from tournaments.services import corrections, registration, running, scheduling
from tournaments.tasks import running as running_tasks

ORGANIZER = Actor(device="rebuild-test")


class Refused(Exception):
    """A command the services refused: it left nothing behind (its savepoint rolled back)."""


def attempt(command: Callable[[], object]) -> bool:
    """Carry out a command that may be refused in the random state it meets; whether it was."""
    try:
        with transaction.atomic():
            command()
    except (RuleViolation, Refused):
        return False
    return True


# Playing: every result is entered as a round's points.


def live_fixtures(tournament_id: UUID) -> list[Fixture]:
    return list(
        Fixture.objects.filter(tournament_id=tournament_id).exclude(status="reset").order_by("id")
    )


def matches_of(tournament_id: UUID, **filters: object) -> list[Match]:
    """The matches of the tournament's live fixtures, in the order the fixtures were created
    (match ids derive from a random tournament id: their order would change from run to run,
    and hypothesis replays its draws on the same positions)."""
    ids = [fixture.match_id for fixture in live_fixtures(tournament_id)]
    found = Match.objects.filter(id__in=ids, **filters).in_bulk()
    return [found[match_id] for match_id in ids if match_id in found]


def open_matches(tournament_id: UUID) -> list[Match]:
    return [match for match in matches_of(tournament_id) if match.status != "finished"]


def enter_round(match_id: UUID, points: list[int]) -> None:
    """Start a round without a briscola (points only) unless one is open, and enter its points."""
    open_round = Round.objects.filter(match_id=match_id, status="in_progress").first()
    if open_round is None:
        number = (
            match_services.round_start(match_id=match_id, briscola=None, actor=ORGANIZER)
            .state.rounds[-1]
            .number
        )
    else:
        number = open_round.number
    match_services.round_points_enter(
        match_id=match_id, round_number=number, points=points, actor=ORGANIZER
    )


def play_to_winner(match_id: UUID, side: int, *, tie_first: bool = False) -> None:
    """Enter rounds won by `side` until the match is over (a tied round first, if asked:
    it does not count, and is replayed). At a table of three the others share the rest."""
    sides = 3 if Match.objects.values_list("table_size", flat=True).get(id=match_id) == 3 else 2
    if tie_first:
        enter_round(match_id, [60, 60] if sides == 2 else [40, 40, 40])
    winning = ([80, 40] if sides == 2 else [70, 30, 20]) if side == 0 else [40, 80]
    if sides == 3 and side == 1:
        winning = [30, 70, 20]
    while Match.objects.get(id=match_id).status != "finished":
        enter_round(match_id, winning)


def correct_result(match_id: UUID) -> None:
    """Void every counted round the winner won, and let the other side win instead."""
    match = Match.objects.get(id=match_id)
    if match.winner is None or match.forfeited_by is not None:
        raise Refused
    won = f"side{match.winner}"
    for counted in Round.objects.filter(match_id=match_id, result=won).order_by("-number"):
        match_services.round_void(
            match_id=match_id,
            round_number=counted.number,
            reason="the scores were swapped",
            actor=ORGANIZER,
        )
    play_to_winner(match_id, 1 - match.winner)


# One random step.


def on_a_match(data: st.DataObject, tournament_id: UUID, action: str) -> None:
    matches = open_matches(tournament_id)
    if not matches:
        return
    match = data.draw(st.sampled_from(matches), label="match")
    side = data.draw(st.integers(0, 1), label="side")
    if action == "play":
        tie_first = data.draw(st.booleans(), label="tied round first")
        attempt(lambda: play_to_winner(match.id, side, tie_first=tie_first))
    elif action == "start a round":
        attempt(
            lambda: match_services.round_start(match_id=match.id, briscola=None, actor=ORGANIZER)
        )
    else:
        attempt(
            lambda: match_services.match_forfeit(
                match_id=match.id, side=side, reason="left", actor=ORGANIZER
            )
        )


def correct_one(data: st.DataObject, tournament_id: UUID, _action: str) -> None:
    consumer.consume()  # the winner has moved on: the correction comes after it
    finished = matches_of(
        tournament_id, status="finished", forfeited_by__isnull=True, winner__isnull=False
    )
    if finished:
        match = data.draw(st.sampled_from(finished), label="corrected match")
        attempt(lambda: correct_result(match.id))


def on_an_entrant(data: st.DataObject, tournament_id: UUID, action: str) -> None:
    entrants = list(
        Entrant.objects.filter(tournament_id=tournament_id, withdrawn=False).order_by("id")
    )
    withdrawn = Entrant.objects.filter(tournament_id=tournament_id, withdrawn=True).count()
    entrant = data.draw(st.sampled_from(entrants), label="entrant")
    if action == "check in":
        registration.entrant_check_in(
            tournament_id=tournament_id, entrant_id=entrant.id, actor=ORGANIZER
        )
    elif withdrawn < 2 and len(entrants) > 2:
        registration.entrant_withdraw(
            tournament_id=tournament_id, entrant_id=entrant.id, reason="gone", actor=ORGANIZER
        )


def assign_a_table(data: st.DataObject, tournament_id: UUID, _action: str) -> None:
    matches = open_matches(tournament_id)
    if not matches:
        return
    match = data.draw(st.sampled_from(matches), label="match")
    tables = Tournament.objects.get(id=tournament_id).settings["tables"]
    table = data.draw(st.integers(1, tables), label="table")
    attempt(
        lambda: scheduling.fixture_table_assign(match_id=match.id, table=table, actor=ORGANIZER)
    )


def call_a_match(data: st.DataObject, tournament_id: UUID, _action: str) -> None:
    matches = open_matches(tournament_id)
    if matches:
        match = data.draw(st.sampled_from(matches), label="called match")
        attempt(lambda: scheduling.fixture_call(match_id=match.id, actor=ORGANIZER))


def rename_an_entrant(data: st.DataObject, tournament_id: UUID, _action: str) -> None:
    renamed = data.draw(
        st.sampled_from(list(Entrant.objects.filter(tournament_id=tournament_id))),
        label="renamed entrant",
    )
    corrections.entrant_correct(
        tournament_id=tournament_id,
        entrant_id=renamed.id,
        name=f"{renamed.name} (corrected)",
        reason="typo",
        actor=ORGANIZER,
    )


def time_passes(data: st.DataObject, _tournament_id: UUID, _action: str) -> None:
    minutes = data.draw(st.sampled_from([1, 30]), label="minutes later")
    done = running_tasks.catch_up_all(now=timezone.now() + timedelta(minutes=minutes))
    assert done.failures == 0


STEPS: dict[str, Callable[[st.DataObject, UUID, str], object]] = {
    "play": on_a_match,
    "consume": lambda _data, _tournament_id, _action: consumer.consume(),
    "start a round": on_a_match,
    "forfeit": on_a_match,
    "correct": correct_one,
    "withdraw": on_an_entrant,
    "check in": on_an_entrant,
    "schedule": lambda _data, tournament_id, _action: scheduling.fixture_schedule(
        tournament_id=tournament_id, actor=ORGANIZER
    ),
    "assign a table": assign_a_table,
    "time passes": time_passes,
    "publish the next round": lambda _data, tournament_id, _action: attempt(
        lambda: running.swiss_round_publish(tournament_id=tournament_id, actor=ORGANIZER)
    ),
    "call a match": call_a_match,
    "rename an entrant": rename_an_entrant,
}
"""What one random step does, by the action drawn."""


def step(data: st.DataObject, tournament_id: UUID) -> None:
    action = data.draw(
        st.sampled_from(
            ["play"] * 5
            + ["consume"] * 3
            + ["start a round", "forfeit", "correct", "correct", "withdraw", "check in"]
            + ["schedule", "assign a table", "time passes", "publish the next round"]
            + ["call a match", "rename an entrant"]
        ),
        label="action",
    )
    STEPS[action](data, tournament_id, action)
