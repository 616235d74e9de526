"""The match admin shows the organizer which results a side disputes."""

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from common.actors import Actor
from games.matches import services
from games.models import Match, Round
from games.rules.tricks import Play
from tests.factories.accounts import UserFactory
from tests.games.api.builders import a_correction, legal_round

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


def finished_card_match(*sides: str) -> tuple[uuid.UUID, str, list[Play]]:
    """A best-of-1 match whose one round was entered card by card; its briscola and plays."""
    match_id = services.match_create(
        table_size=2, sides=list(sides), best_of=1, actor=ORGANIZER
    ).match_id
    briscola, plays = legal_round(seed=4)
    services.round_start(match_id=match_id, briscola=briscola, dealer_seat=0, actor=ORGANIZER)
    batch = [(play.seat, play.card.code) for play in plays]
    services.cards_play(match_id=match_id, round_number=1, plays=batch, actor=ORGANIZER)
    return match_id, briscola, plays


def test_the_organizer_corrects_a_card_of_a_finished_round_from_the_match_admin(
    admin_client: Client,
) -> None:
    match_id, briscola, plays = finished_card_match("Anna", "Bruno")
    index, card, points = a_correction(briscola, plays)
    url = reverse("admin:games_match_changelist")
    chosen = {"action": "correct_card", "_selected_action": [str(match_id)]}

    asked = admin_client.post(url, chosen)
    answer = admin_client.post(
        url,
        chosen
        | {
            "apply": "1",
            "round_number": "1",
            "play_number": str(index + 1),
            "card": card.code,
            "reason": "the three was misread",
        },
        follow=True,
    )

    assert "Correct a card of a finished round" in asked.content.decode()
    in_italian = admin_client.post(url, chosen, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Correggi una carta di una partita conclusa" in in_italian
    said = [str(message) for message in answer.context["messages"]]
    assert said == ["Anna v Bruno: a card of round 1 corrected."]
    (corrected,) = Round.objects.filter(match_id=match_id)
    assert tuple(corrected.points) == points
    assert [c["reason"] for c in corrected.corrections] == ["the three was misread"]


def test_a_card_correction_the_rules_refuse_is_an_error_message_and_records_nothing(
    admin_client: Client,
) -> None:
    match_id, _briscola, plays = finished_card_match("Anna", "Bruno")
    before = Match.objects.get(id=match_id).version

    answer = admin_client.post(
        reverse("admin:games_match_changelist"),
        {
            "action": "correct_card",
            "_selected_action": [str(match_id)],
            "apply": "1",
            "round_number": "1",
            "play_number": "1",
            "card": plays[0].card.code,
            "reason": "no change",
        },
        follow=True,
    )

    (said,) = [str(message) for message in answer.context["messages"]]
    assert said.startswith("Anna v Bruno: ")
    assert Match.objects.get(id=match_id).version == before
