"""Issue 11 §4 through the services, against PostgreSQL: the optional check-in window, and a
start with the checked-in entrants only."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.builders import (
    check_in,
    check_in_seeds,
    event_types,
    fixtures,
    stream_after,
    version_of,
)
from tournaments.errors import CheckInNotAccepted, InvalidTournament, TooFewEntrants
from tournaments.models import Entrant, Tournament
from tournaments.selectors import answers
from tournaments.services import registration, running
from tournaments.services import registration as tournament_registration

pytestmark = pytest.mark.django_db


def entrant_of_seed(tournament_id: uuid.UUID, seed: int) -> int:
    return Entrant.objects.get(tournament_id=tournament_id, seed=seed).id


# The check-in window.


def test_a_tournament_that_never_opens_check_in_takes_check_ins_at_any_time() -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=4).id
    check_in_seeds(tournament_id, 1)
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)

    check_in_seeds(tournament_id, 2)

    checked_in = Entrant.objects.filter(tournament_id=tournament_id, checked_in=True)
    assert set(checked_in.values_list("seed", flat=True)) == {1, 2}
    assert "CheckInOpened" not in event_types(tournament_id)


def test_a_closed_check_in_refuses_check_ins_until_the_organizer_opens_it_again() -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=4).id
    first, second = entrant_of_seed(tournament_id, 1), entrant_of_seed(tournament_id, 2)
    before = version_of(tournament_id)

    registration.check_in_open(tournament_id=tournament_id, actor=ORGANIZER)
    check_in(tournament_id, first)
    registration.check_in_close(tournament_id=tournament_id, actor=ORGANIZER)
    with pytest.raises(CheckInNotAccepted) as refused:
        check_in(tournament_id, second)
    assert refused.value.code == "check_in_closed"
    assert not Entrant.objects.get(id=second).checked_in
    registration.check_in_open(tournament_id=tournament_id, actor=ORGANIZER)
    check_in(tournament_id, second)

    assert [event_type for event_type, _ in stream_after(tournament_id, before)] == [
        "CheckInOpened",
        "EntrantCheckedIn",
        "CheckInClosed",
        "CheckInOpened",
        "EntrantCheckedIn",
    ]
    assert Entrant.objects.get(id=second).checked_in
    assert answers.check_in_window(tournament_id=tournament_id).accepts(timezone.now())


def test_opening_an_open_window_or_closing_a_closed_one_records_nothing() -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=2).id
    tournament_registration.check_in_open(tournament_id=tournament_id, actor=ORGANIZER)
    before = version_of(tournament_id)

    opened_again = registration.check_in_open(tournament_id=tournament_id, actor=ORGANIZER)
    registration.check_in_close(tournament_id=tournament_id, actor=ORGANIZER)
    closed_again = registration.check_in_close(tournament_id=tournament_id, actor=ORGANIZER)

    assert (list(opened_again.events), list(closed_again.events)) == ([], [])
    assert [event_type for event_type, _ in stream_after(tournament_id, before)] == [
        "CheckInClosed"
    ]


def test_a_window_past_its_closing_time_refuses_check_ins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=2).id
    opened = timezone.now()
    closes_at = opened + timedelta(minutes=30)
    registration.check_in_open(tournament_id=tournament_id, actor=ORGANIZER, closes_at=closes_at)
    check_in_seeds(tournament_id, 1)  # before it closes
    window = answers.check_in_window(tournament_id=tournament_id)
    assert window.closes_at == closes_at.isoformat()

    monkeypatch.setattr(timezone, "now", lambda: closes_at + timedelta(seconds=1))
    with pytest.raises(CheckInNotAccepted) as refused:
        check_in_seeds(tournament_id, 2)

    assert refused.value.code == "check_in_closed"
    assert list(
        Entrant.objects.filter(tournament_id=tournament_id, checked_in=True).values_list(
            "seed", flat=True
        )
    ) == [1]
    assert not window.accepts(closes_at)


def test_a_window_cannot_be_opened_with_a_closing_time_already_past() -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=2).id
    before = version_of(tournament_id)

    with pytest.raises(InvalidTournament) as refused:
        registration.check_in_open(
            tournament_id=tournament_id,
            actor=ORGANIZER,
            closes_at=timezone.now() - timedelta(minutes=1),
        )

    assert refused.value.code == "invalid_tournament"
    assert version_of(tournament_id) == before


# Starting with the checked-in entrants only.


def test_a_start_with_the_checked_in_only_withdraws_the_others_and_pairs_those_present() -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=4).id
    check_in_seeds(tournament_id, 1, 2, 3)
    present = [entrant_of_seed(tournament_id, seed) for seed in (1, 2, 3)]
    absent = entrant_of_seed(tournament_id, 4)
    before = version_of(tournament_id)

    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER, only_checked_in=True)

    recorded = stream_after(tournament_id, before)
    assert recorded[:2] == [
        ("EntrantWithdrew", {"entrant": absent, "reason": "did not check in"}),
        ("TournamentStarted", {"order": present}),
    ]
    assert Entrant.objects.get(id=absent).withdrawn
    assert not Entrant.objects.filter(id__in=present, withdrawn=True).exists()
    assert Tournament.objects.get(id=tournament_id).status == "in_progress"
    playing = {e for f in fixtures(tournament_id) for e in (f.home_id, f.away_id)}
    assert absent not in playing
    assert playing - {None} <= set(present)


def test_a_start_with_the_checked_in_only_refuses_with_fewer_than_two_present() -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=4).id
    check_in_seeds(tournament_id, 1)
    before = version_of(tournament_id)

    with pytest.raises(TooFewEntrants) as refused:
        running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER, only_checked_in=True)

    assert refused.value.code == "too_few_entrants"
    assert "checked in" in str(refused.value)
    assert version_of(tournament_id) == before
    assert Tournament.objects.get(id=tournament_id).status == "registration"
    assert not Entrant.objects.filter(tournament_id=tournament_id, withdrawn=True).exists()


def test_a_start_without_the_option_keeps_the_entrants_who_did_not_check_in() -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=4).id
    check_in_seeds(tournament_id, 1)

    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)

    assert "EntrantWithdrew" not in event_types(tournament_id)
    playing = {e for f in fixtures(tournament_id) for e in (f.home_id, f.away_id)}
    assert playing == {entrant_of_seed(tournament_id, seed) for seed in (1, 2, 3, 4)}
