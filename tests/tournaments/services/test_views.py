from typing import Any

import pytest

from games.matches import services as match_services
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.games.api.builders import legal_round
from tests.tournaments.builders import open_fixtures
from tournaments.models import Fixture, TournamentView
from tournaments.projections import consumer
from tournaments.services import running as tournament_running

pytestmark = pytest.mark.django_db


def score(match_id: object, points: list[int]) -> None:
    match_services.round_start(match_id=match_id, briscola=None, actor=ORGANIZER)  # type: ignore[arg-type]
    match_services.round_points_enter(
        match_id=match_id,  # type: ignore[arg-type]
        round_number=1,
        points=points,
        actor=ORGANIZER,
    )


def test_the_consumer_records_results_advances_the_bracket_and_projects_the_view() -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=3).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    (semi,) = open_fixtures(tournament_id)

    score(semi.match_id, [100, 20])
    consumer.consume()

    view = TournamentView.objects.get(tournament_id=tournament_id)
    (stage,) = view.bracket["stages"]
    first_round, final = stage["rounds"]
    played = next(m for m in first_round["matches"] if m["key"] == semi.key)
    assert played["status"] == "finished"
    assert played["winner"] == semi.home_id
    assert played["winner_to"] == {"key": final["matches"][0]["key"], "side": "away"}
    assert final["matches"][0]["status"] == "ready"
    assert Fixture.objects.filter(tournament_id=tournament_id, status="ready").count() == 1
    assert [row["rank"] for row in view.standings] == [1, 2, 3]
    assert {"entrant", "match_points", "tiebreaks"} <= set(view.standings[0])
    assert "name" not in view.standings[0]  # names are added when read, not projected


def test_consuming_twice_changes_nothing_and_rebuild_gives_the_same_views() -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=4).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    for fixture in open_fixtures(tournament_id)[:3]:
        score(fixture.match_id, [70, 50])
    consumer.consume()
    before = TournamentView.objects.get(tournament_id=tournament_id)

    assert consumer.consume() == 0
    consumer.rebuild_views()

    after = TournamentView.objects.get(tournament_id=tournament_id)
    assert (after.bracket, after.standings) == (before.bracket, before.standings)
    assert consumer.verify_views() == []


def test_a_card_within_a_round_moves_the_views_position_without_computing_it_again() -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=4).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    match_id = open_fixtures(tournament_id)[0].match_id
    briscola, plays = legal_round(dealer=0, seed=5)
    match_services.round_start(match_id=match_id, briscola=briscola, dealer_seat=0, actor=ORGANIZER)
    consumer.consume()
    computed = TournamentView.objects.get(tournament_id=tournament_id)
    # Marked, to tell a view computed again from one left as it was.
    TournamentView.objects.filter(tournament_id=tournament_id).update(standings=["marked"])

    for play in plays[:-1]:
        card(match_id, play)
    consumer.consume()
    mid_round = TournamentView.objects.get(tournament_id=tournament_id)
    card(match_id, plays[-1])  # the round's last card: the match (best of one) is over
    consumer.consume()
    over = TournamentView.objects.get(tournament_id=tournament_id)

    assert mid_round.standings == ["marked"]  # its fixture row and the tournament did not move
    assert mid_round.position > computed.position  # read up to there all the same
    assert over.standings != ["marked"]  # the fixture finished: computed again
    assert over.inputs != computed.inputs
    assert consumer.verify_views() == []


def card(match_id: object, play: Any) -> None:
    match_services.card_play(
        match_id=match_id,  # type: ignore[arg-type]
        round_number=1,
        seat=play.seat,
        card=play.card.code,
        actor=ORGANIZER,
    )
