"""Issue 23 §3: a name on a page is inside `<bdi>`, so that a name written right to left, or
with an invisible right-to-left override, cannot reorder the rest of its line; the page's
title, where no element may go, puts it between Unicode isolates."""

from __future__ import annotations

import pytest
from django.test import Client

from common.actors import Actor
from tests.factories.tournaments import TournamentFactory
from tournaments.models import Fixture
from tournaments.projections import consumer
from tournaments.services import registration, running

pytestmark = pytest.mark.django_db

ORGANIZER = Actor(device="bdi-test")
NAMES = ["أحمد", "\u202eAda", "Bruno"]


def test_names_on_the_tournament_and_match_pages_are_isolated(client: Client) -> None:
    tournament = TournamentFactory.create(name="\u202eCoppa", format="round_robin", entrants=0)
    for name in NAMES:
        registration.entrant_register(
            tournament_id=tournament.id, name=name, players=[name], actor=ORGANIZER
        )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    consumer.consume()
    match_id = Fixture.objects.filter(tournament=tournament).values_list("match_id", flat=True)[0]

    page = client.get(f"/tournaments/{tournament.id}/").content.decode()
    match_page = client.get(f"/matches/{match_id}/").content.decode()

    assert "<h1><bdi>\u202eCoppa</bdi></h1>" in page
    assert "<title>\N{FIRST STRONG ISOLATE}\u202eCoppa\N{POP DIRECTIONAL ISOLATE}" in page
    for name in NAMES:
        assert f"<bdi>{name}</bdi></a>" in page
    assert match_page.count("<span><bdi>") == 2
