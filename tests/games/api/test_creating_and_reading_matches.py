"""The matches API: creating a match (client-chosen ids, retries, validation, who may write)
and reading it back; URLs and methods it does not know."""

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import pytest
from rest_framework.test import APIClient

from games.api import matches as matches_api
from tests.factories.api import API
from tests.factories.matches import TWO_SIDES, ApiMatchFactory
from tests.games.api.builders import created, event_count, match_url, post

MATCHES = f"{API}/matches/"


def test_creating_a_match_answers_201_with_the_match_and_its_defaults(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)

    assert UUID(match["id"])
    assert match["status"] == "not_started"
    assert match["table_size"] == 2
    assert (match["scoring"], match["best_of"], match["rounds_planned"]) == ("rounds", 3, None)
    assert match["sides"] == TWO_SIDES
    assert match["rounds"] == []
    assert match["round_wins"] == [0, 0]
    assert match["winner"] is None
    assert match["version"] == 1


def test_a_match_scored_by_points_names_the_rounds_it_plans(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, scoring="points", rounds=4)

    assert (match["scoring"], match["best_of"], match["rounds_planned"]) == ("points", None, 4)


def test_a_match_may_be_created_with_an_id_chosen_by_the_client(scorer: APIClient) -> None:
    match_id = "3b1f0d6e-5c2a-4e8b-9f47-2d9c8a1e6b30"

    match = ApiMatchFactory.create(client=scorer, id=match_id)

    assert match["id"] == match_id
    assert scorer.get(match_url(match_id)).json() == match


def test_retrying_a_creation_with_the_same_id_and_body_answers_200_with_the_match(
    scorer: APIClient,
) -> None:
    match_id = "3b1f0d6e-5c2a-4e8b-9f47-2d9c8a1e6b30"
    body = {"id": match_id, "table_size": 2, "best_of": 5, "sides": TWO_SIDES}
    match = created(post(scorer, MATCHES, body))

    retry = post(scorer, MATCHES, body)
    spelled_out = post(scorer, MATCHES, body | {"scoring": "rounds", "first_dealer": 0})

    assert (retry.status_code, retry["Content-Type"]) == (200, "application/json")
    assert retry.json() == match
    assert (spelled_out.status_code, spelled_out.json()) == (200, match)
    assert event_count(scorer, match_id) == 1


@pytest.mark.parametrize(
    "change",
    [
        {"best_of": 3},
        {"sides": [{"name": "Rossi"}, {"name": "Verdi"}]},
        {"first_dealer": 1},
    ],
)
def test_another_creation_with_a_used_id_is_refused_with_409_and_changes_nothing(
    scorer: APIClient, change: dict[str, Any]
) -> None:
    match_id = "3b1f0d6e-5c2a-4e8b-9f47-2d9c8a1e6b30"
    body = {"id": match_id, "table_size": 2, "best_of": 5, "sides": TWO_SIDES}
    match = created(post(scorer, MATCHES, body))

    retry = post(scorer, MATCHES, body | change)

    assert (retry.status_code, retry.json()["code"]) == (409, "match_exists")
    assert scorer.get(match_url(match_id)).json() == match


def test_a_creation_that_committed_but_failed_to_answer_is_answered_when_retried(
    scorer: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = "3b1f0d6e-5c2a-4e8b-9f47-2d9c8a1e6b30"
    body = {"id": match_id, "table_size": 2, "sides": TWO_SIDES}

    def lost_answer(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionResetError("the answer was lost after the commit")

    with monkeypatch.context() as patched:
        patched.setattr(matches_api, "match_created_response", lost_answer)
        scorer.raise_request_exception = False
        assert post(scorer, MATCHES, body).status_code == 500
    retry = post(scorer, MATCHES, body)

    assert retry.status_code == 200
    assert (retry.json()["id"], retry.json()["version"], retry.json()["sides"]) == (
        match_id,
        1,
        TWO_SIDES,
    )


@pytest.mark.parametrize(
    "match_id",
    [
        "3b1f0d6e-5c2a-1e8b-9f47-2d9c8a1e6b30",  # version 1
        str(uuid5(NAMESPACE_URL, "W1-1#0")),  # version 5, as a tournament's match ids are
    ],
)
def test_a_client_chosen_id_that_is_not_random_is_refused_and_nothing_is_created(
    scorer: APIClient, match_id: str
) -> None:
    response = post(scorer, MATCHES, {"id": match_id, "table_size": 2, "sides": TWO_SIDES})

    assert (response.status_code, response.json()["code"]) == (400, "invalid_input")
    assert "version 4" in response.json()["fields"]["id"][0]
    assert scorer.get(match_url(match_id)).status_code == 404


def test_a_three_player_match_names_three_sides(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, table_size=3, sides=[{"name": n} for n in "ABC"])

    assert [side["name"] for side in match["sides"]] == ["A", "B", "C"]
    assert match["round_wins"] == [0, 0, 0]


def test_a_match_with_a_variant_keeps_its_options(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, variant={"hand_size": 9, "deck_names": "french"})

    assert match["variant"]["hand_size"] == 9
    assert match["variant"]["deck_names"] == "french"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"table_size": 5}, "invalid_table_size"),
        ({"best_of": 2}, "invalid_match_format"),
        ({"scoring": "goals"}, "invalid_match_format"),
        ({"scoring": "points"}, "invalid_match_format"),
        ({"sides": [{"name": "Alone"}]}, "invalid_side"),
        ({"table_size": 3}, "invalid_side"),
        ({"variant": {"hand_size": 4}}, "invalid_variant"),
        ({"variant": {"hand_sise": 9}}, "invalid_variant"),
        ({"variant": {"removed_card_for_three": "4B"}}, "removed_card_must_be_a_two"),
        ({"variant": {"six_player_deck": 48}}, "invalid_variant"),
        ({"first_dealer": 2}, "invalid_seat"),
    ],
)
def test_a_match_the_rules_do_not_allow_is_422_with_the_rules_code(
    scorer: APIClient, fields: dict[str, Any], code: str
) -> None:
    response = post(scorer, MATCHES, {"table_size": 2, "sides": TWO_SIDES, **fields})

    assert response.status_code == 422
    assert response.json()["code"] == code
    assert response.json()["detail"]


def test_a_body_of_the_wrong_shape_is_400_invalid_input_naming_the_fields(
    scorer: APIClient,
) -> None:
    response = post(scorer, MATCHES, {"table_size": "two", "sides": [{"name": "A"}, {}]})

    body = response.json()
    assert response.status_code == 400
    assert body["code"] == "invalid_input"
    assert body["detail"].startswith("table_size: ")
    assert set(body["fields"]) == {"table_size", "sides"}
    assert body["fields"]["sides"] == {"1": {"name": ["This field is required."]}}


def test_malformed_json_is_400_malformed_json(scorer: APIClient) -> None:
    response = scorer.post(MATCHES, data='{"table_size": 2,', content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


def test_writing_without_a_token_is_401_not_authenticated(anonymous: APIClient) -> None:
    response = post(anonymous, MATCHES, {"table_size": 2, "sides": TWO_SIDES})

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert response["WWW-Authenticate"] == "Token"


def test_a_wrong_token_is_401_authentication_failed(anonymous: APIClient) -> None:
    anonymous.credentials(HTTP_AUTHORIZATION="Token not-a-real-key")

    response = post(anonymous, MATCHES, {"table_size": 2, "sides": TWO_SIDES})

    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_a_signed_in_browser_session_may_write_too(
    anonymous: APIClient, django_user_model: Any
) -> None:
    anonymous.force_login(django_user_model.objects.create_user(username="organizer"))

    assert post(anonymous, MATCHES, {"table_size": 2, "sides": TWO_SIDES}).status_code == 201


def test_a_browser_session_write_without_its_csrf_token_is_403_permission_denied(
    django_user_model: Any,
) -> None:
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(django_user_model.objects.create_user(username="organizer"))

    response = post(browser, MATCHES, {"table_size": 2, "sides": TWO_SIDES})

    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"


def test_anyone_may_read_a_match(scorer: APIClient, anonymous: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)

    response = anonymous.get(match_url(match["id"]))

    assert response.status_code == 200
    # The same match; only who reads it differs: its creator may settle it, a passer-by not.
    assert response.json() == match | {"may_organize": False}
    assert match["may_organize"] is True


def test_an_unknown_match_is_404_match_not_found(anonymous: APIClient) -> None:
    response = anonymous.get(match_url("7f8d0c4e-9a9b-4b43-8f7b-0a6f3c1d2e5f"))

    assert response.status_code == 404
    assert response.json()["code"] == "match_not_found"


@pytest.mark.parametrize(
    "path", ["/api/v1/matches/42/", "/api/v1/matches/not-a-uuid/rounds/", "/api/v1/nowhere/"]
)
def test_an_api_url_that_does_not_resolve_is_a_json_404_not_found(
    anonymous: APIClient, path: str
) -> None:
    response = anonymous.get(path)

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_an_unsupported_method_is_405_method_not_allowed(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)

    assert scorer.delete(match_url(match["id"])).json()["code"] == "method_not_allowed"
    assert scorer.get(MATCHES).status_code == 405
