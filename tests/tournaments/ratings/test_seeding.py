import pytest

from accounts.models import Club, User
from games.eventstore.api import read_stream
from tests.factories.accounts import ClubFactory, UserFactory
from tests.factories.ratings import club_tournament, play_all
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tournaments.errors import InvalidTournament
from tournaments.models import Entrant, Player, PlayerRating, Tournament
from tournaments.services import erasure, registration, running

pytestmark = pytest.mark.django_db


def linked_to_accounts(tournament: Tournament) -> None:
    """Each player of the tournament linked to the account `user-<name>`, made if need be."""
    for player in Player.objects.filter(entries__tournament=tournament):
        username = f"user-{player.name.replace(' ', '-').lower()}"
        if not User.objects.filter(username=username).exists():
            UserFactory.create(username=username)
        erasure.player_link(player=player, username=username)


def rated_club() -> Club:
    """A club whose round robin was won by Player 1, then 2, 3 and 4, its players linked."""
    club = ClubFactory.create()
    first = club_tournament(club=club)
    linked_to_accounts(first)
    play_all(first)
    return club


def reverse_seeded(club: Club, **options: object) -> Tournament:
    """A tournament of the same four people, seeded worst first."""
    tournament = registration.tournament_create(
        name="Second",
        format="swiss",
        table_size=2,
        best_of=1,
        club=club,
        actor=ORGANIZER,
        **options,  # type: ignore[arg-type]
    )
    for seed, number in enumerate((4, 3, 2, 1), start=1):
        registration.entrant_register(
            tournament_id=tournament.id,
            name=f"Player {number}",
            players=[f"Player {number}"],
            seed=seed,
            actor=ORGANIZER,
        )
    linked_to_accounts(tournament)
    return tournament


def names(tournament: Tournament, order: list[int]) -> list[str]:
    by_id = dict(Entrant.objects.filter(tournament=tournament).values_list("id", "name"))
    return [by_id[entrant] for entrant in order]


def events(tournament: Tournament, event_type: str) -> list[dict[str, object]]:
    return [e.payload for e in read_stream(stream_id=tournament.id) if e.event_type == event_type]


def test_the_rows_of_one_account_are_one_person_rated_across_tournaments() -> None:
    club = rated_club()
    second = club_tournament(club=club, entrants=2)
    linked_to_accounts(second)
    play_all(second)

    person = Player.objects.filter(name="Player 1").order_by("id").first()
    assert person is not None
    assert PlayerRating.objects.get(player=person, club=club).matches == 4


def test_the_seed_method_rating_records_the_order_by_rating() -> None:
    club = rated_club()
    tournament = reverse_seeded(club)

    registration.tournament_seed(tournament_id=tournament.id, method="rating", actor=ORGANIZER)

    [seeded] = events(tournament, "EntrantsSeeded")
    assert seeded["method"] == "rating"
    order = seeded["order"]
    assert isinstance(order, list)
    assert names(tournament, order) == ["Player 1", "Player 2", "Player 3", "Player 4"]


def test_a_tournament_seeded_by_rating_records_the_order_at_its_start() -> None:
    club = rated_club()
    tournament = reverse_seeded(club, seeding="rating")

    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)

    [seeded] = events(tournament, "EntrantsSeeded")
    [started] = events(tournament, "TournamentStarted")
    assert seeded["method"] == "rating"
    assert started["order"] == seeded["order"]
    assert names(tournament, started["order"]) == [  # type: ignore[arg-type]
        "Player 1",
        "Player 2",
        "Player 3",
        "Player 4",
    ]


def test_swiss_round_one_pairs_the_top_half_against_the_bottom_half_by_rating() -> None:
    club = rated_club()
    tournament = reverse_seeded(club, seeding="rating")

    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)

    [paired] = events(tournament, "SwissRoundPaired")
    pairings = paired["pairings"]
    assert isinstance(pairings, list)
    tables = sorted(sorted(names(tournament, table[1:])) for table in pairings)
    assert tables == [["Player 1", "Player 3"], ["Player 2", "Player 4"]]


def test_a_seeding_fixed_before_the_start_is_kept() -> None:
    club = rated_club()
    tournament = reverse_seeded(club, seeding="rating")
    registration.tournament_seed(tournament_id=tournament.id, method="given", actor=ORGANIZER)

    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)

    [seeded] = events(tournament, "EntrantsSeeded")
    [started] = events(tournament, "TournamentStarted")
    assert seeded["method"] == "given"
    assert names(tournament, started["order"])[0] == "Player 4"  # type: ignore[arg-type]


def test_unrated_players_keep_the_given_order() -> None:
    tournament = TournamentFactory.create(club=ClubFactory.create(), seeding="rating")

    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)

    [started] = events(tournament, "TournamentStarted")
    assert names(tournament, started["order"]) == [  # type: ignore[arg-type]
        "Player 1",
        "Player 2",
        "Player 3",
        "Player 4",
    ]


def test_an_unknown_seeding_setting_is_refused() -> None:
    with pytest.raises(InvalidTournament):
        TournamentFactory.create(seeding="strongest")
