"""The tournaments app registers its views with the games projection commands."""

import io

import pytest
from django.core.management import CommandError, call_command

from tests.factories.tournaments import TournamentFactory
from tournaments.models import TournamentView
from tournaments.projections.consumer import consume

pytestmark = pytest.mark.django_db


def test_rebuild_projections_also_rebuilds_the_tournament_views() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True
    ).id
    consume()
    before = TournamentView.objects.get(tournament_id=tournament_id)
    TournamentView.objects.all().delete()
    output = io.StringIO()

    call_command("rebuild_projections", "--quiet", stdout=output)

    after = TournamentView.objects.get(tournament_id=tournament_id)
    assert (after.bracket, after.standings) == (before.bracket, before.standings)
    assert "Rebuilt the tournament projections (1 written)" in output.getvalue()


def test_verify_projections_reports_a_tournament_view_that_drifted() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True
    ).id
    consume()
    call_command("verify_projections", "--quiet", stdout=io.StringIO())
    TournamentView.objects.filter(tournament_id=tournament_id).update(standings=[])
    output = io.StringIO()

    with pytest.raises(CommandError, match="1 differences"):
        call_command("verify_projections", "--quiet", stdout=output)

    assert f"tournament {tournament_id}: the standings differ" in output.getvalue()
