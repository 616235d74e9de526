import uuid

import pytest

from games.matches import services as match_services
from games.matches.selectors import match_side_names
from games.models import Match
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.builders import open_fixtures
from tournaments.errors import RegistrationClosed
from tournaments.models import Fixture, Tournament
from tournaments.services import registration, running
from tournaments.services import running as tournament_running

pytestmark = pytest.mark.django_db


def win_by_score(match_id: uuid.UUID, side: int) -> None:
    match_services.round_start(match_id=match_id, briscola=None, actor=ORGANIZER)
    points = [80, 40] if side == 0 else [40, 80]
    match_services.round_points_enter(
        match_id=match_id, round_number=1, points=points, actor=ORGANIZER
    )
    running.fixture_result_sync(match_id=match_id, actor=ORGANIZER)


def test_a_single_elimination_is_played_to_its_champion() -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=4).id

    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    assert sorted(f.key for f in open_fixtures(tournament_id)) == ["R1-1", "R1-2"]
    while fixtures := open_fixtures(tournament_id):
        for fixture in fixtures:
            win_by_score(fixture.match_id, side=0)

    tournament = Tournament.objects.get(id=tournament_id)
    final = Fixture.objects.get(tournament_id=tournament_id, key="R2-1")
    assert tournament.status == "finished"
    assert final.winner is not None
    assert final.winner.seed == 1


def test_matches_are_created_with_the_tournaments_rules_and_their_sides_are_its_entrants() -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=3).id

    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)

    fixtures = open_fixtures(tournament_id)
    assert len(fixtures) == 3
    match = Match.objects.get(id=fixtures[0].match_id)
    assert match.best_of == 1
    assert match.sides == [{"entrant": fixtures[0].home_id}, {"entrant": fixtures[0].away_id}]
    assert match_side_names(match=match) == [fixtures[0].home.name, fixtures[0].away.name]


def test_a_corrected_result_resets_the_matches_that_followed_from_it() -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=4).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    semi = Fixture.objects.get(tournament_id=tournament_id, key="R1-1")
    win_by_score(semi.match_id, side=0)
    other = Fixture.objects.get(tournament_id=tournament_id, key="R1-2")
    win_by_score(other.match_id, side=0)
    final = Fixture.objects.get(tournament_id=tournament_id, key="R2-1", status="ready")

    match_services.round_void(
        match_id=semi.match_id, round_number=1, reason="wrong card count", actor=ORGANIZER
    )
    match_services.round_start(match_id=semi.match_id, briscola=None, actor=ORGANIZER)
    match_services.round_points_enter(
        match_id=semi.match_id, round_number=2, points=[30, 90], actor=ORGANIZER
    )
    running.fixture_result_sync(match_id=semi.match_id, actor=ORGANIZER)

    final.refresh_from_db()
    assert final.status == "reset"
    new_final = Fixture.objects.get(tournament_id=tournament_id, key="R2-1", status="ready")
    assert new_final.match_id != final.match_id
    assert semi.away_id in (new_final.home_id, new_final.away_id)


def test_a_withdrawal_forfeits_the_entrants_open_matches() -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=3).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    leaving = Fixture.objects.filter(tournament_id=tournament_id)[0].home_id

    registration.entrant_withdraw(
        tournament_id=tournament_id, entrant_id=leaving, reason="ill", actor=ORGANIZER
    )

    forfeited = Fixture.objects.filter(tournament_id=tournament_id, home_id=leaving) | (
        Fixture.objects.filter(tournament_id=tournament_id, away_id=leaving)
    )
    assert all(Match.objects.get(id=f.match_id).status == "finished" for f in forfeited)


def test_swiss_rounds_follow_each_other_until_the_configured_number() -> None:
    tournament_id = TournamentFactory.create(format="swiss", entrants=6, swiss_rounds=3).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)

    rounds_seen = set()
    while fixtures := open_fixtures(tournament_id):
        for fixture in fixtures:
            rounds_seen.add(fixture.round)
            win_by_score(fixture.match_id, side=1)

    assert rounds_seen == {1, 2, 3}
    assert Tournament.objects.get(id=tournament_id).status == "finished"


def test_registration_closes_when_the_tournament_starts() -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=2).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)

    with pytest.raises(RegistrationClosed):
        registration.entrant_register(
            tournament_id=tournament_id, name="Late", players=["Late"], actor=ORGANIZER
        )


def test_a_corrected_group_result_that_changes_the_qualifiers_redraws_the_knockout() -> None:
    tournament_id = TournamentFactory.create(
        format="groups_then_knockout", entrants=8, group_size=4, advance_per_group=2
    ).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    for fixture in open_fixtures(tournament_id):
        win_by_score(fixture.match_id, side=0)
    first_knockout = {f.key: f.match_id for f in open_fixtures(tournament_id)}
    assert first_knockout
    assert all(not key.startswith(("A-", "B-")) for key in first_knockout)
    group_a = Fixture.objects.filter(tournament_id=tournament_id, stage="A", status="finished")

    for fixture in group_a:  # the group's home sides lose every match instead
        match_services.round_void(
            match_id=fixture.match_id, round_number=1, reason="scores swapped", actor=ORGANIZER
        )
        match_services.round_start(match_id=fixture.match_id, briscola=None, actor=ORGANIZER)
        match_services.round_points_enter(
            match_id=fixture.match_id, round_number=2, points=[20, 100], actor=ORGANIZER
        )
        running.fixture_result_sync(match_id=fixture.match_id, actor=ORGANIZER)

    old = Fixture.objects.filter(match_id__in=first_knockout.values())
    assert {f.status for f in old} == {"reset"}
    redrawn = {f.key: f.match_id for f in open_fixtures(tournament_id)}
    assert set(redrawn) == set(first_knockout)
    assert not set(redrawn.values()) & set(first_knockout.values())
