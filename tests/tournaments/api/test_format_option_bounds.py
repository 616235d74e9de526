"""Issue 23 §4: every format option is bounded at creation, by one check that the API, the
admin's form and the services share (tournaments/stream/options.py): out of bounds is
`invalid_format_option`, and nothing is created."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from common.actors import Actor
from tests.factories.api import API
from tests.tournaments.admin.builders import TOURNAMENT_FORM, add_tournament
from tournaments.errors import InvalidFormatOption, InvalidTournament
from tournaments.models import Tournament
from tournaments.services import registration
from tournaments.stream.options import FORMAT_OPTION_BOUNDS

pytestmark = pytest.mark.django_db

ORGANIZER = Actor(device="bounds-test")
FORMAT_OF = {
    "swiss_rounds": "swiss",
    "group_size": "groups_then_knockout",
    "advance_per_group": "groups_then_knockout",
    "legs": "round_robin",
    "rounds": "round_robin",
}


def options(option: str, value: int) -> dict[str, Any]:
    """The options of a tournament that takes `option` set to `value`."""
    chosen: dict[str, Any] = {"format": FORMAT_OF.get(option, "round_robin"), option: value}
    if option == "rounds":
        chosen["scoring"] = "points"
    return chosen


@pytest.mark.parametrize("option", sorted(FORMAT_OPTION_BOUNDS))
def test_an_option_past_its_bounds_is_refused_and_its_bound_is_accepted(option: str) -> None:
    bound = FORMAT_OPTION_BOUNDS[option]

    # Below the least, tables and no-show minutes keep their own `invalid_tournament`.
    with pytest.raises(InvalidTournament):
        registration.tournament_create(
            name="Coppa", table_size=2, actor=ORGANIZER, **options(option, bound.least - 1)
        )
    for value in (bound.most + 1, 10**9):
        with pytest.raises(InvalidFormatOption) as refused:
            registration.tournament_create(
                name="Coppa", table_size=2, actor=ORGANIZER, **options(option, value)
            )
        assert refused.value.code == "invalid_format_option"
        assert option in refused.value.detail
    for value in (bound.least, bound.most):
        registration.tournament_create(
            name="Coppa", table_size=2, actor=ORGANIZER, **options(option, value)
        )

    assert Tournament.objects.count() == 2


@pytest.mark.parametrize(
    ("option", "format"),
    [("swiss_rounds", "swiss"), ("legs", "round_robin"), ("group_size", "groups_then_knockout")],
)
def test_the_api_refuses_a_billion_with_invalid_format_option_and_creates_nothing(
    organizer: APIClient, option: str, format: str
) -> None:
    body = {"name": "Coppa", "format": format, "table_size": 2, option: 10**9}

    response = organizer.post(f"{API}/tournaments/", body, format="json")

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_format_option"
    assert option in response.json()["detail"]
    assert not Tournament.objects.exists()


def test_the_admin_form_shows_the_bound_of_a_swiss_of_a_billion_rounds_and_creates_nothing(
    admin_client: Client,
) -> None:
    response = add_tournament(admin_client, swiss_rounds=str(10**9))

    assert response.status_code == 200
    assert "swiss_rounds is a whole number from 1 to 30" in response.content.decode()
    assert not Tournament.objects.filter(name=TOURNAMENT_FORM["name"]).exists()
