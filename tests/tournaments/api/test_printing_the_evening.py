"""One click to print the evening (issue 24 §2, decision record 0049): every table's card in one
PDF (`tables/cards/?format=pdf`) and every score sheet of a round in one PDF
(`rounds/{n}/sheets/?format=pdf`), for the tournament's organizers only."""

from __future__ import annotations

import contextlib
import re
import zlib
from uuid import UUID

import pytest
from rest_framework.test import APIClient

from accounts.keys import hash_key
from accounts.models import DeviceToken
from tests.factories.tournaments import TournamentFactory
from tests.security.roles import THIS_TABLE, World, make_world
from tests.tournaments.api.builders import tournament_url
from tests.tournaments.builders import fixtures
from tournaments.services.table_cards import card_key

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    return make_world()


def cards_url(tournament_id: str | UUID) -> str:
    return tournament_url(tournament_id, "tables", "cards") + "?format=pdf"


def sheets_url(tournament_id: str | UUID, round_number: int, **query: str) -> str:
    extra = "".join(f"&{name}={value}" for name, value in query.items())
    return tournament_url(tournament_id, "rounds", round_number, "sheets") + f"?format=pdf{extra}"


def pages(pdf: bytes) -> int:
    """The page objects of a PDF (the page tree's `/Type /Pages` is not one), whether they
    stand alone or sit in compressed object streams (WeasyPrint writes those)."""
    inflated = [pdf]
    for stream in re.findall(rb"/FlateDecode[^>]*>>\s*stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        with contextlib.suppress(zlib.error):
            inflated.append(zlib.decompress(stream))
    return sum(len(re.findall(rb"/Type\s*/Page(?![a-z])", part)) for part in inflated)


def test_every_table_s_card_is_a_page_of_one_pdf_with_the_key_its_own_card_shows(
    world: World,
) -> None:
    tournament_id = world.tournament()  # four tables

    response = world.organizer.get(cards_url(tournament_id))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "no-store"
    pdf = response.content
    assert pdf.startswith(b"%PDF-1.4")
    assert pages(pdf) == 4
    startxref = int(pdf.rsplit(b"startxref", 1)[1].split()[0])
    offsets = re.findall(rb"(\d{10}) 00000 n", pdf[startxref:])
    assert [pdf[int(offset) :].split(b"\n", 1)[0] for offset in offsets] == [
        b"%d 0 obj" % number for number in range(1, len(offsets) + 1)
    ]
    assert [int(n) for n in re.findall(rb"\(Table (\d+)\) Tj", pdf)] == [1, 2, 3, 4]
    for table in range(1, 5):
        token = DeviceToken.objects.get(key_hash=hash_key(card_key(UUID(tournament_id), table, 1)))
        assert token.tables == [table]
    again = world.organizer.get(tournament_url(tournament_id, "tables", THIS_TABLE, "card"))
    assert DeviceToken.objects.filter(tournament_id=tournament_id).count() == 4
    token = DeviceToken.objects.get(tables=[THIS_TABLE], tournament_id=tournament_id)
    assert token.prefix in again.content.decode()


def test_a_tournament_by_need_prints_a_card_for_each_table_its_entrants_need(
    world: World,
) -> None:
    tournament = TournamentFactory.create(
        format="round_robin", entrants=5, tables=None, club=world.club
    )

    response = world.organizer.get(cards_url(tournament.id))

    assert response.status_code == 200
    assert pages(response.content) == 3


@pytest.mark.parametrize(
    ("persona", "status"),
    [
        ("anonymous", 401),
        ("player", 403),
        ("scorer_this_table", 403),
        ("organizer_other_club", 403),
    ],
)
def test_only_the_tournament_s_organizers_print_the_cards_and_the_sheets(
    world: World, persona: str, status: int
) -> None:
    tournament_id = world.tournament()
    client = world.clients[persona]

    for url in (cards_url(tournament_id), sheets_url(tournament_id, 1)):
        response = client.get(url)

        assert response.status_code == status
        assert response["Content-Type"] == "application/json"
    assert not DeviceToken.objects.filter(tournament_id=tournament_id).exists()


def test_a_private_tournament_s_prints_are_not_found_by_an_outsider_as_its_card(
    world: World,
) -> None:
    tournament_id = world.tournament(public=False)
    outsider = world.clients["organizer_other_club"]
    single = outsider.get(tournament_url(tournament_id, "tables", THIS_TABLE, "card"))

    for url in (cards_url(tournament_id), sheets_url(tournament_id, 1)):
        response = outsider.get(url)

        assert response.status_code == single.status_code == 404
        assert response.json()["code"] == single.json()["code"]


def test_a_device_token_of_another_tournament_finds_no_private_tournament_here(
    world: World,
) -> None:
    mine = world.tournament()
    issued = world.post(
        tournament_url(mine, "device-tokens"),
        {"scorer": "scorer_this_table", "name": "tablet 3", "tables": [THIS_TABLE]},
    )
    other = TournamentFactory.create(entrants=2, tables=2, public=False, started=True).id
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Token {issued['key']}")
    single = tablet.get(tournament_url(other, "tables", 1, "card"))

    for url in (cards_url(other), sheets_url(other, 1)):
        response = tablet.get(url)

        assert response.status_code == single.status_code == 404
        assert response.json()["code"] == "tournament_not_found"
    assert not DeviceToken.objects.filter(tournament_id=other).exists()


def test_a_round_s_score_sheets_are_one_pdf_a_page_per_match(world: World) -> None:
    tournament = TournamentFactory.create(
        format="round_robin", entrants=6, tables=3, club=world.club, started=True, projected=True
    )

    response = world.organizer.get(sheets_url(tournament.id, 1))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert pages(response.content) == len(fixtures(tournament.id, round=1)) == 3


def test_the_sheets_html_has_every_match_of_the_round_by_table(world: World) -> None:
    tournament = TournamentFactory.create(
        format="round_robin",
        entrants=6,
        tables=3,
        club=world.club,
        started=True,
        projected=True,
    )
    round_one = fixtures(tournament.id, round=1)
    round_two = fixtures(tournament.id, round=2)

    response = world.organizer.get(
        tournament_url(tournament.id, "rounds", 1, "sheets") + "?format=html"
    )

    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    sheets = re.findall(r'data-match="([^"]+)"', response.content.decode())
    assert sorted(sheets) == sorted(str(f.match_id) for f in round_one)
    assert not set(sheets) & {str(f.match_id) for f in round_two}


def test_a_round_without_matches_is_not_found(world: World) -> None:
    tournament_id = world.tournament()

    response = world.organizer.get(sheets_url(tournament_id, 7))

    assert response.status_code == 404
    assert response.json()["code"] == "round_not_found"


def test_a_stage_narrows_the_round_to_its_matches(world: World) -> None:
    tournament = TournamentFactory.create(
        format="groups_then_knockout",
        entrants=8,
        group_size=4,
        tables=4,
        club=world.club,
        started=True,
        projected=True,
    )
    group_a = fixtures(tournament.id, round=1, stage="A")
    every_group = fixtures(tournament.id, round=1)

    only_a = world.organizer.get(
        tournament_url(tournament.id, "rounds", 1, "sheets") + "?format=html&stage=A"
    )
    both = world.organizer.get(
        tournament_url(tournament.id, "rounds", 1, "sheets") + "?format=html"
    )

    assert len(every_group) == 4
    assert sorted(re.findall(r'data-match="([^"]+)"', only_a.content.decode())) == sorted(
        str(f.match_id) for f in group_a
    )
    assert len(re.findall(r'data-match="', both.content.decode())) == 4
