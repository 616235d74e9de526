"""Who is the same person across player rows: one rule for the ratings and the seasons."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import Club
from tests.factories.accounts import ClubFactory
from tests.factories.ratings import club_tournament, play_all
from tests.factories.tournaments import ORGANIZER
from tournaments.models import Entrant, Player, PlayerRating
from tournaments.selectors.people import PlayerFacts, persons_of
from tournaments.services.corrections import entrant_correct
from tournaments.services.erasure import player_erase


def test_rows_of_one_account_are_one_person_named_by_the_first_row() -> None:
    rows: list[PlayerFacts] = [
        (9, "Anna B.", False, 4),
        (3, "Anna", False, 4),
        (5, "Bea", False, 7),
    ]

    assert persons_of(rows) == {3: 3, 9: 3, 5: 5}


def test_rows_of_no_account_with_the_same_name_case_and_spacing_aside_are_one_person() -> None:
    rows: list[PlayerFacts] = [(1, "Anna  Rossi", False, None), (2, "anna rossi", False, None)]

    assert persons_of(rows) == {1: 1, 2: 1}


def test_an_account_tells_namesakes_apart_and_an_erased_row_is_a_person_of_its_own() -> None:
    rows: list[PlayerFacts] = [
        (1, "Anna", False, None),
        (2, "Anna", False, 8),
        (3, "", True, None),
        (4, "", True, None),
    ]

    assert persons_of(rows) == {1: 1, 2: 2, 3: 3, 4: 4}


facts = st.tuples(
    st.integers(1, 40),
    st.sampled_from(["Anna", "anna", "Bea", " Bea", "Carla"]),
    st.booleans(),
    st.none() | st.integers(1, 3),
)


@given(st.lists(facts, unique_by=lambda row: row[0]))
def test_every_row_has_a_person_who_is_the_first_row_of_that_person(
    rows: list[PlayerFacts],
) -> None:
    persons = persons_of(rows)

    assert set(persons) == {row[0] for row in rows}
    for row, person in persons.items():
        assert person <= row
        assert persons[person] == person


@pytest.mark.django_db
def test_a_name_that_comes_back_next_week_carries_its_rating_over() -> None:
    club = ClubFactory.create()
    play_all(club_tournament(club=club, entrants=2, name="Monday"))
    play_all(club_tournament(club=club, entrants=2, name="Tuesday"))

    first = Player.objects.filter(name="Player 1").order_by("id").first()
    assert first is not None
    rated = PlayerRating.objects.get(club=club, player=first)
    assert rated.matches == 2
    assert PlayerRating.objects.filter(club=club).count() == 2


def two_nights_of_player_1(club_id: int) -> tuple[Player, Entrant]:
    """Two tournaments of two in the club, each won by `Player 1`: Monday's row, and
    Tuesday's entrant."""
    club = Club.objects.get(id=club_id)
    play_all(club_tournament(club=club, entrants=2, name="Monday"))
    tuesday = club_tournament(club=club, entrants=2, name="Tuesday")
    play_all(tuesday)
    monday = Player.objects.filter(name="Player 1").order_by("id").first()
    assert monday is not None
    assert PlayerRating.objects.get(club_id=club_id, player=monday).matches == 2
    return monday, Entrant.objects.get(tournament=tuesday, name="Player 1")


@pytest.mark.django_db
def test_renaming_a_player_counts_the_ratings_again_for_the_people_they_now_are() -> None:
    club = ClubFactory.create()
    monday, tuesday_entrant = two_nights_of_player_1(club.id)

    entrant_correct(
        tournament_id=tuesday_entrant.tournament_id,
        entrant_id=tuesday_entrant.id,
        actor=ORGANIZER,
        reason="her name is Paola",
        players=["Paola"],
    )

    paola = Player.objects.get(name="Paola")
    assert PlayerRating.objects.get(club=club, player=monday).matches == 1
    assert PlayerRating.objects.get(club=club, player=paola).matches == 1


@pytest.mark.django_db
def test_erasing_a_player_leaves_their_namesakes_rows_a_person_without_them() -> None:
    club = ClubFactory.create()
    monday, tuesday_entrant = two_nights_of_player_1(club.id)

    player_erase(player=monday, actor=ORGANIZER)

    tuesday = Player.objects.get(entries=tuesday_entrant)
    assert PlayerRating.objects.get(club=club, player=monday).matches == 1
    assert PlayerRating.objects.get(club=club, player=tuesday).matches == 1
