"""`rebuild_projections` reads and folds the tournament streams once for the tournament rows, the
views and the ratings (decision record 0066): what it writes is what each of them writes from a
fold of its own, and the log is read once per stream kind."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.eventstore.api import last_position
from games.matches import services as match_services
from tests.factories.accounts import ClubFactory
from tests.factories.ratings import caught_up, club_tournament, live, played, rating_rows
from tests.factories.tournaments import ORGANIZER
from tournaments.models import Entrant, Fixture, FixtureStatus, Table, Tournament, TournamentView
from tournaments.projections import consumer, rebuild
from tournaments.projections.folded_log import fold_tournament_log
from tournaments.ratings import projection as ratings
from tournaments.services.pipeline import load_tournament

pytestmark = pytest.mark.django_db


def a_club_evening() -> None:
    """Two club tournaments, rated: a cup whose semi-final changes winner after a round voided
    once the final began (that final reset, the new one being played), and a round robin with
    two results."""
    club = ClubFactory.create()
    cup = club_tournament(club=club, format="single_elimination", best_of=3)
    semi, other = live(cup)
    played(semi.match_id, winner=0)
    played(semi.match_id, winner=0)
    played(other.match_id, winner=1)
    played(other.match_id, winner=1)
    final = next(f for f in live(cup) if f.key == "R2-1")
    played(final.match_id, winner=0)
    match_services.round_void(
        match_id=semi.match_id, round_number=2, reason="wrong count", actor=ORGANIZER
    )
    played(semi.match_id, winner=1)
    played(semi.match_id, winner=1)
    final_again = next(f for f in live(cup) if f.key == "R2-1")
    played(final_again.match_id, winner=1)
    league = club_tournament(club=club)
    first, second, *_ = live(league)
    played(first.match_id, winner=0)
    played(second.match_id, winner=1)
    caught_up()


def projection_rows() -> dict[str, Any]:
    """Every row the tournament projections write, as plain values in a fixed order."""
    return {
        "tournaments": list(
            Tournament.objects.order_by("id").values_list(
                "id", "status", "version", "settings", "created_at", "updated_at"
            )
        ),
        "tables": list(Table.objects.order_by("tournament_id", "number").values_list()),
        "entrants": list(
            Entrant.objects.order_by("id").values_list(
                "id", "seed", "checked_in", "withdrawn", "fixed_table", "group"
            )
        ),
        "fixtures": list(Fixture.objects.order_by("match_id").values()),
        "views": list(
            TournamentView.objects.order_by("tournament_id").values_list(
                "tournament_id", "bracket", "standings", "public", "position"
            )
        ),
        "ratings": rating_rows(),
    }


def test_the_rows_views_and_ratings_from_one_fold_are_those_each_rebuilds_from_its_own() -> None:
    a_club_evening()

    call_command("rebuild_projections", "--quiet", stdout=io.StringIO())
    from_one_fold = projection_rows()
    rebuild.rebuild_rows()
    consumer.rebuild_views()
    ratings.rebuild_ratings()

    assert projection_rows() == from_one_fold
    assert from_one_fold["ratings"]
    statuses = {fixture["status"] for fixture in from_one_fold["fixtures"]}
    assert {FixtureStatus.IN_PROGRESS, FixtureStatus.RESET} <= statuses
    call_command("verify_projections", "--quiet", stdout=io.StringIO())


def test_rebuild_projections_reads_each_kind_of_stream_once() -> None:
    a_club_evening()

    with CaptureQueriesContext(connection) as queries:
        call_command("rebuild_projections", "--quiet", stdout=io.StringIO())

    reads = [q["sql"] for q in queries if "payload" in q["sql"] and "eventstore_event" in q["sql"]]
    assert len(reads) == 2  # the match streams, then the tournament streams


def test_each_tournament_folded_is_the_tournament_a_command_loads() -> None:
    a_club_evening()

    log = fold_tournament_log()

    assert log.head == last_position()
    assert set(log.tournaments) == set(Tournament.objects.values_list("id", flat=True))
    for tournament_id, folded in log.tournaments.items():
        assert (folded.state, folded.version) == load_tournament(tournament_id=tournament_id)
    assert [event.position for event in log.events] == sorted(e.position for e in log.events)
