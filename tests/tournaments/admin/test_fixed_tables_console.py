"""An entrant's fixed table in the organizer's console (decision record 0059): given on the
entrant's page with a reason, refused on the page when another entrant has it."""

import pytest
from django.test import Client

from games.eventstore.api import read_stream
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.admin.test_corrections import correction, entrant_named, entrant_page

pytestmark = pytest.mark.django_db


def test_the_entrant_s_page_gives_it_a_fixed_table_and_refuses_a_taken_one(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(entrants=2, tables=2).id
    first = entrant_named(tournament_id, "Player 1")
    second = entrant_named(tournament_id, "Player 2")

    given = admin_client.post(
        entrant_page(first), correction(first, fixed_table="2", reason="lift")
    )
    taken = admin_client.post(
        entrant_page(second), correction(second, fixed_table="2", reason="lift")
    )

    assert given.status_code == 302
    first.refresh_from_db()
    assert first.fixed_table == 2
    assert read_stream(stream_id=tournament_id)[-1].payload["fixed_table"] == 2
    assert taken.status_code == 200
    assert "table 2 is the fixed table of entrant" in taken.content.decode()
