"""A tournament's names signature is drawn anew by every service that writes a name its reads
show (registration, a correction of the name or the players, an erasure), and by nothing else:
the ETag of the standings, the bracket and the match list is made of it (with the version)."""

import uuid

import pytest
from django.core.management import call_command

from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tournaments.models import Entrant, Player, Tournament
from tournaments.services import corrections, erasure, registration

pytestmark = pytest.mark.django_db


def signature(tournament_id: uuid.UUID) -> uuid.UUID:
    return Tournament.objects.get(id=tournament_id).names_signature


def entrant_named(tournament_id: uuid.UUID, name: str) -> Entrant:
    return Entrant.objects.get(tournament_id=tournament_id, name=name)


def test_registering_an_entrant_draws_a_new_signature() -> None:
    tournament = TournamentFactory.create(entrants=2)
    before = signature(tournament.id)

    registration.entrant_register(
        tournament_id=tournament.id, name="Rossi", players=["Rossi"], actor=ORGANIZER
    )

    assert signature(tournament.id) != before


def test_renaming_an_entrant_or_its_player_draws_a_new_signature_each_time() -> None:
    tournament = TournamentFactory.create(entrants=4, started=True)
    entrant = entrant_named(tournament.id, "Player 1")
    first = signature(tournament.id)

    corrections.entrant_correct(
        tournament_id=tournament.id,
        entrant_id=entrant.id,
        name="Rossi",
        reason="typo",
        actor=ORGANIZER,
    )
    second = signature(tournament.id)
    corrections.entrant_correct(
        tournament_id=tournament.id,
        entrant_id=entrant.id,
        players=["Mario Rossi"],
        reason="typo",
        actor=ORGANIZER,
    )

    assert len({first, second, signature(tournament.id)}) == 3


def test_a_correction_that_changes_no_name_keeps_the_signature() -> None:
    tournament = TournamentFactory.create(entrants=4)
    entrant = entrant_named(tournament.id, "Player 1")
    before = signature(tournament.id)

    corrections.entrant_correct(
        tournament_id=tournament.id,
        entrant_id=entrant.id,
        name="Player 1",
        reason="nothing",
        actor=ORGANIZER,
    )
    registration.entrant_check_in(
        tournament_id=tournament.id, entrant_id=entrant.id, actor=ORGANIZER
    )

    assert signature(tournament.id) == before


def test_erasing_a_player_draws_a_new_signature_for_their_tournament_only() -> None:
    tournament = TournamentFactory.create(entrants=4, started=True)
    other = TournamentFactory.create(entrants=4, started=True)
    before, other_before = signature(tournament.id), signature(other.id)
    player = Player.objects.get(entries__tournament_id=tournament.id, name="Player 2")

    erasure.player_erase(player=player, actor=ORGANIZER)

    assert signature(tournament.id) != before
    assert signature(other.id) == other_before


def test_rebuilding_the_projections_keeps_the_signature() -> None:
    tournament = TournamentFactory.create(entrants=4, started=True, projected=True)
    before = signature(tournament.id)

    call_command("rebuild_projections", "--quiet")

    assert signature(tournament.id) == before
