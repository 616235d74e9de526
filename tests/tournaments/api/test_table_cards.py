"""The table card: a printable card per table whose QR code opens the table page with a device
key that scores that table only."""

from __future__ import annotations

import re
from uuid import UUID

import pytest
import segno
from rest_framework.test import APIClient

from accounts.keys import hash_key
from accounts.models import DeviceToken
from tests.security.roles import OTHER_TABLE, THIS_TABLE, World, make_world
from tests.tournaments.api.builders import tournament_url
from tournaments.services.table_cards import card_key, dark_runs

pytestmark = pytest.mark.django_db

QR_RUN = re.compile(r"M(\d+) (\d+)h(\d+)v1h-\3z")


@pytest.fixture
def world() -> World:
    return make_world()


def card_url(tournament_id: str, table: int) -> str:
    return tournament_url(tournament_id, "tables", table, "card")


def qr_runs(svg: str) -> list[tuple[int, int, int]]:
    found = re.search(r'<path class="qr"[^>]* d="([^"]*)"', svg)
    assert found is not None, "the card has no QR code"
    return [tuple(map(int, run)) for run in QR_RUN.findall(found.group(1))]  # type: ignore[misc]


def test_the_card_is_an_svg_whose_qr_code_opens_the_table_page_with_a_key_for_the_table(
    world: World,
) -> None:
    tournament_id = world.tournament()

    response = world.organizer.get(card_url(tournament_id, THIS_TABLE))

    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert response["Cache-Control"] == "no-store"
    svg = response.content.decode()
    assert svg.startswith("<svg")
    assert f"Table {THIS_TABLE}" in svg
    key = card_key(UUID(tournament_id), THIS_TABLE, 1)
    expected = segno.make(f"http://testserver/table/#key={key}", error="m", micro=False)
    assert qr_runs(svg) == list(dark_runs(expected.matrix))
    token = DeviceToken.objects.get(key_hash=hash_key(key))
    assert str(token.tournament_id) == tournament_id
    assert token.tables == [THIS_TABLE]
    assert token.prefix in svg


def test_the_key_on_the_card_scores_its_table_and_no_other(world: World) -> None:
    match_id = world.match()  # at THIS_TABLE
    tournament_id = world.tournament()
    world.organizer.get(card_url(tournament_id, THIS_TABLE))
    world.organizer.get(card_url(tournament_id, OTHER_TABLE))
    this_table, other_table = APIClient(), APIClient()
    this_table.credentials(
        HTTP_AUTHORIZATION=f"Token {card_key(UUID(tournament_id), THIS_TABLE, 1)}"
    )
    other_table.credentials(
        HTTP_AUTHORIZATION=f"Token {card_key(UUID(tournament_id), OTHER_TABLE, 1)}"
    )
    start = f"/api/v1/matches/{match_id}/rounds/"

    refused = other_table.post(start, {"briscola": "7D"}, format="json")
    started = this_table.post(start, {"briscola": "7D"}, format="json")

    assert refused.status_code == 403
    assert started.status_code == 201
    assert this_table.get(card_url(tournament_id, THIS_TABLE)).status_code == 403


def test_printing_a_card_again_shows_the_same_key_until_its_token_is_revoked(world: World) -> None:
    tournament_id = world.tournament()
    url = card_url(tournament_id, THIS_TABLE)

    first = world.organizer.get(url).content
    again = world.organizer.get(url).content
    [token] = DeviceToken.objects.filter(tournament_id=tournament_id)
    revoked = world.organizer.post(
        tournament_url(tournament_id, "device-tokens", token.pk, "revoke"), format="json"
    )
    after = world.organizer.get(url).content

    assert first == again
    assert revoked.status_code == 200
    assert qr_runs(after.decode()) != qr_runs(first.decode())
    assert DeviceToken.objects.filter(
        key_hash=hash_key(card_key(UUID(tournament_id), THIS_TABLE, 2))
    ).exists()


@pytest.mark.parametrize(("query", "accept"), [({"format": "pdf"}, "*/*"), ({}, "application/pdf")])
def test_the_card_is_a_one_page_pdf_on_request(
    world: World, query: dict[str, str], accept: str
) -> None:
    tournament_id = world.tournament()

    response = world.organizer.get(card_url(tournament_id, THIS_TABLE), query, HTTP_ACCEPT=accept)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    pdf = response.content
    assert pdf.startswith(b"%PDF-1.4")
    assert pdf.rstrip().endswith(b"%%EOF")
    assert pdf.count(b"/Type /Page ") == 1
    startxref = int(pdf.rsplit(b"startxref", 1)[1].split()[0])
    assert pdf[startxref:].startswith(b"xref")
    offsets = re.findall(rb"(\d{10}) 00000 n", pdf[startxref:])
    assert [pdf[int(offset) :].split(b"\n", 1)[0] for offset in offsets] == [
        b"%d 0 obj" % number for number in range(1, len(offsets) + 1)
    ]
    assert b"(Table 3) Tj" in pdf
    assert b" re\n" in pdf


@pytest.mark.parametrize(
    ("persona", "status"),
    [
        ("anonymous", 401),
        ("player", 403),
        ("scorer_this_table", 403),
        ("organizer_other_club", 403),
    ],
)
def test_only_the_tournaments_organizers_get_a_card_and_refusals_are_json(
    world: World, persona: str, status: int
) -> None:
    tournament_id = world.tournament()

    response = world.clients[persona].get(card_url(tournament_id, THIS_TABLE), {"format": "pdf"})

    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert not DeviceToken.objects.filter(tournament_id=tournament_id).exists()


@pytest.mark.parametrize("table", [0, 5])
def test_a_table_the_tournament_does_not_have_has_no_card(world: World, table: int) -> None:
    tournament_id = world.tournament()

    response = world.organizer.get(card_url(tournament_id, table))

    assert response.status_code == 404
    assert response.json()["code"] == "table_not_found"


def test_a_card_in_another_format_is_not_acceptable(world: World) -> None:
    tournament_id = world.tournament()

    response = world.organizer.get(
        card_url(tournament_id, THIS_TABLE), HTTP_ACCEPT="application/json"
    )

    assert response.status_code == 406
    assert response.json()["code"] == "not_acceptable"
