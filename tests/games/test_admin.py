"""The match admin shows the organizer which results a side disputes."""

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from common.actors import Actor
from games.matches import services
from tests.factories.accounts import UserFactory

pytestmark = pytest.mark.django_db

ORGANIZER = Actor(user_id=None, device="admin")


def finished_match(*sides: str) -> uuid.UUID:
    match_id = services.match_create(
        table_size=2, sides=list(sides), best_of=1, actor=ORGANIZER
    ).match_id
    services.round_start(match_id=match_id, briscola=None, actor=ORGANIZER)
    services.round_points_enter(match_id=match_id, round_number=1, points=[70, 50], actor=ORGANIZER)
    return match_id


def test_the_match_list_filters_disputed_results_and_names_who_disputes(
    admin_client: Client,
) -> None:
    disputed = finished_match("Anna", "Bruno")
    services.result_dispute(match_id=disputed, side=1, reason="we had 62", actor=ORGANIZER)
    undisputed = finished_match("Carla", "Dario")
    url = reverse("admin:games_match_changelist")

    def listed(**query: str) -> list[uuid.UUID]:
        response = admin_client.get(url, query)
        assert response.status_code == 200
        return [match.id for match in response.context["cl"].result_list]

    assert listed(disputed="yes") == [disputed]
    assert listed(disputed="no") == [undisputed]
    page = admin_client.get(url, {"disputed": "yes"}).content.decode()
    assert '<td class="field-disputed">Bruno</td>' in page


def test_a_confirmation_takes_the_match_off_the_disputed_list(admin_client: Client) -> None:
    match_id = finished_match("Anna", "Bruno")
    services.result_dispute(match_id=match_id, side=1, reason="we had 62", actor=ORGANIZER)
    services.result_confirm(match_id=match_id, side=1, actor=ORGANIZER)

    response = admin_client.get(reverse("admin:games_match_changelist"), {"disputed": "yes"})

    assert list(response.context["cl"].result_list) == []


def test_the_match_page_shows_each_dispute_with_its_side_and_reason_not_its_sender(
    admin_client: Client,
) -> None:
    match_id = finished_match("Anna", "Bruno")
    player = Actor(user_id=UserFactory.create(username="bruno_the_player").id, device="phone")
    services.result_dispute(match_id=match_id, side=1, reason="we had 62", actor=player)
    services.result_confirm(match_id=match_id, side=1, actor=player)
    services.result_dispute(match_id=match_id, side=0, reason="a card was <missed>", actor=player)

    page = admin_client.get(reverse("admin:games_match_change", args=[match_id]))

    assert page.status_code == 200
    html = page.content.decode()
    shown = re.findall(
        r'<li data-dispute="(\d)" data-standing="(\w+)"><strong>(\w+)</strong>'
        r" \((\w+)\): “(.*?)”",
        html,
    )
    assert shown == [
        ("0", "true", "Anna", "open", "a card was &lt;missed&gt;"),
        ("1", "false", "Bruno", "closed", "we had 62"),
    ]
    assert "bruno_the_player" not in html
