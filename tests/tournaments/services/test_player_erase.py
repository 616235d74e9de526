"""Erasing a player changes ordinary tables only: the player's name is blanked, the entrants
they belong to are renamed, every read shows `erased player`, and no event changes."""

import uuid

import pytest

from common.actors import Actor
from games.matches import rebuilding as match_rebuilding
from games.matches.selectors import match_side_names
from games.models import Match
from tests.factories.matches import old_match_created
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.games.eventstore.builders import event_rows
from tests.tournaments.builders import ready_fixtures, win_by_points
from tournaments.models import Entrant, Fixture, FixtureStatus, Player
from tournaments.projections import consumer
from tournaments.selectors import projected
from tournaments.services import erasure, registration, running

pytestmark = pytest.mark.django_db

ERASER = Actor(user_id=None, device="admin")


def player_named(name: str) -> Player:
    return Player.objects.get(name=name)


def pairs_tournament() -> uuid.UUID:
    tournament = registration.tournament_create(
        name="Coppia", format="round_robin", table_size=4, best_of=1, actor=ORGANIZER
    )
    for number, players in enumerate([["Ada", "Bruno"], ["Carla", "Dino"]], start=1):
        registration.entrant_register(
            tournament_id=tournament.id,
            name=f"I Leoni {number}",
            players=players,
            seed=number,
            actor=ORGANIZER,
        )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    return tournament.id


def test_a_tournaments_match_refers_to_its_entrants_and_reads_their_names() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True
    ).id
    fixture = ready_fixtures(tournament_id)[0]

    match = Match.objects.get(id=fixture.match_id)

    assert match.sides == [{"entrant": fixture.home_id}, {"entrant": fixture.away_id}]
    assert match_side_names(match=match) == [fixture.home.name, fixture.away.name]


def test_erasing_a_single_blanks_the_name_and_the_entrant_reads_erased_player() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True
    ).id
    player = player_named("Player 1")

    erased = erasure.player_erase(player=player, actor=ERASER)

    player.refresh_from_db()
    entrant = Entrant.objects.get(tournament_id=tournament_id, players=player)
    assert erased
    assert (player.name, player.erased, str(player)) == ("", True, "erased player")
    assert entrant.name == "erased player"


def test_erasing_one_of_a_pair_keeps_the_partners_name() -> None:
    tournament_id = pairs_tournament()

    erasure.player_erase(player=player_named("Bruno"), actor=ERASER)

    names = projected.entrant_names(tournament_id=tournament_id)
    assert sorted(names.values()) == ["Ada / erased player", "I Leoni 2"]
    (fixture,) = ready_fixtures(tournament_id)[:1]
    match = Match.objects.get(id=fixture.match_id)
    assert "Ada / erased player" in match_side_names(match=match)


def test_erasing_both_of_a_pair_leaves_no_name() -> None:
    tournament_id = pairs_tournament()

    erasure.player_erase(player=player_named("Ada"), actor=ERASER)
    erasure.player_erase(player=player_named("Bruno"), actor=ERASER)

    names = projected.entrant_names(tournament_id=tournament_id)
    assert "erased player / erased player" in names.values()


def test_erasure_changes_no_event_and_appends_none() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True
    ).id
    win_by_points(ready_fixtures(tournament_id)[0].match_id)
    consumer.consume()
    before = event_rows()

    erasure.player_erase(player=player_named("Player 1"), actor=ERASER)

    assert event_rows() == before


def test_erasing_twice_is_harmless() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True
    ).id
    player = player_named("Player 1")
    erasure.player_erase(player=player, actor=ERASER)
    names, before = projected.entrant_names(tournament_id=tournament_id), event_rows()

    again = erasure.player_erase(player=player, actor=ERASER)

    assert not again
    assert projected.entrant_names(tournament_id=tournament_id) == names
    assert event_rows() == before


def test_standings_and_bracket_read_erased_player_and_the_views_need_no_new_projection() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True
    ).id
    win_by_points(ready_fixtures(tournament_id)[0].match_id)
    consumer.consume()
    entrant = Entrant.objects.get(tournament_id=tournament_id, name="Player 1")

    erasure.player_erase(player=player_named("Player 1"), actor=ERASER)

    standings = projected.tournament_standings(tournament_id=tournament_id)
    bracket = projected.tournament_bracket(tournament_id=tournament_id)
    assert next(row["name"] for row in standings if row["entrant"] == entrant.id) == (
        "erased player"
    )
    assert bracket["entrants"][str(entrant.id)] == "erased player"
    assert "Player 1" not in str(standings) + str(bracket)
    assert consumer.verify_views() == []


def test_a_match_created_before_events_carried_entrant_ids_is_named_through_its_fixture() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True
    ).id
    fixture = ready_fixtures(tournament_id)[0]
    old_id = uuid.uuid4()
    old_match_created(old_id, [{"name": fixture.home.name}, {"name": fixture.away.name}])
    match_rebuilding.rebuild()
    Fixture.objects.create(
        tournament_id=tournament_id,
        key="OLD-1",
        match_id=old_id,
        stage="main",
        round=1,
        home=fixture.home,
        away=fixture.away,
        status=FixtureStatus.RESET,
    )
    home_player = fixture.home.players.get()

    erasure.player_erase(player=home_player, actor=ERASER)

    old = Match.objects.get(id=old_id)
    assert old.sides == [{}, {}]
    assert match_side_names(match=old) == ["erased player", fixture.away.name]
