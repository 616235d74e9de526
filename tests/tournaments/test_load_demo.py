import io

import pytest
from django.core.management import call_command

from games.eventstore.models import Event
from games.models import Match, Round
from games.selectors import round_replay
from tournaments.management.commands.load_demo import CUP_NAME, SWISS_NAME
from tournaments.models import Entrant, Fixture, Tournament, TournamentView

pytestmark = pytest.mark.django_db


def load_demo(*options: str) -> str:
    out = io.StringIO()
    call_command("load_demo", *options, stdout=out)
    return out.getvalue()


def test_loading_the_demo_twice_adds_nothing_the_second_time() -> None:
    first = load_demo("--small")
    counts = (Tournament.objects.count(), Entrant.objects.count(), Event.objects.count())

    second = load_demo("--small")

    assert (Tournament.objects.count(), Entrant.objects.count(), Event.objects.count()) == counts
    assert counts[0] == 2
    assert "round 1" in first
    assert f"{CUP_NAME}: already loaded" in second
    assert f"{SWISS_NAME}: already loaded" in second


def test_the_demo_has_brackets_standings_and_card_by_card_replays() -> None:
    output = load_demo()

    cup = Tournament.objects.get(name=CUP_NAME)
    swiss = Tournament.objects.get(name=SWISS_NAME)
    assert (cup.entrants.count(), swiss.entrants.count()) == (16, 12)
    assert (cup.status, swiss.status) == ("in_progress", "in_progress")
    assert cup.settings["format"] == "single_elimination"
    assert (swiss.settings["format"], swiss.settings["swiss_rounds"]) == ("swiss", 4)
    for tournament in (cup, swiss):
        view = TournamentView.objects.get(tournament=tournament)
        assert len(view.standings) == tournament.entrants.count()
        assert view.bracket["stages"][0]["rounds"]
    assert Fixture.objects.filter(tournament=swiss, round=3).exists()
    assert Fixture.objects.filter(tournament=cup, round=3).count() == 2
    card_rounds = Round.objects.filter(
        match__in=Match.objects.filter(id__in=Fixture.objects.values("match_id")),
        status="finished",
        points_entered=False,
    )
    assert card_rounds.count() >= 10
    sample = card_rounds.first()
    assert sample is not None
    replay = round_replay(match_id=sample.match_id, round_number=sample.number)
    assert len(replay["tricks"]) == 20
    assert sum(replay["points"]) == 120
    assert Round.objects.filter(points_entered=True, status="finished").exists()
    assert Match.objects.filter(status="in_progress").count() == 2
    assert Event.objects.filter(metadata__device="load_demo").count() == Event.objects.count()
    assert "projected" in output
