import pytest

from games.matches import services as match_services
from tests.factories.tournaments import ORGANIZER, TournamentFactory
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
