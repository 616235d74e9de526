"""Django's own refusals under /api/ are JSON with a code, like the API's; elsewhere they stay
Django's pages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.http import HttpResponseNotAllowed, HttpResponseServerError
from django.test import Client, RequestFactory
from rest_framework.response import Response

from common.exceptions import ApiErrorEnvelopeMiddleware


@pytest.mark.parametrize("path", ["/api/v1/tournaments/", "/api/v1/nowhere/"])
@pytest.mark.usefixtures("db")
def test_a_request_for_a_host_not_allowed_is_400_bad_request_in_json_under_the_api(
    path: str,
) -> None:
    response = Client(HTTP_HOST="evil.example").get(path)

    assert response.status_code == 400
    assert response.json() == {"code": "bad_request", "detail": "the request could not be read"}


@pytest.mark.usefixtures("db")
def test_a_request_for_a_host_not_allowed_is_django_s_page_outside_the_api() -> None:
    response = Client(HTTP_HOST="evil.example").get("/")

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


# With DEBUG on, as `make run` serves, Django answers with its HTML debug pages; under /api/ a
# client reads the envelope all the same.


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize(
    "path", ["/api/v1/matches/not-a-uuid/rounds/", "/api/v1/matches//rounds/", "/api/nowhere"]
)
@pytest.mark.usefixtures("db")
def test_a_path_under_the_api_that_leads_nowhere_is_404_not_found_in_json(
    path: str, debug: bool, settings: Any
) -> None:
    settings.DEBUG = debug

    response = Client().get(path)

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": f"there is nothing at {path}"}


@pytest.mark.usefixtures("db")
def test_the_404_of_the_api_is_in_the_request_s_language(settings: Any) -> None:
    settings.DEBUG = True

    response = Client().get("/api/v1/nowhere/", HTTP_ACCEPT_LANGUAGE="it")

    assert response.json()["detail"] == "non c'è niente all'indirizzo /api/v1/nowhere/"


@pytest.mark.usefixtures("db")
def test_a_path_that_leads_nowhere_outside_the_api_is_still_django_s_page(settings: Any) -> None:
    settings.DEBUG = True

    response = Client().get("/nowhere/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.usefixtures("db")
def test_a_method_a_view_under_the_api_does_not_take_is_405_in_json_with_allow(
    settings: Any, django_user_model: Any
) -> None:
    settings.DEBUG = True
    client = Client()
    client.force_login(django_user_model.objects.create_user(username="someone"))

    response = client.delete("/api/v1/tournaments/")

    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
    assert "GET" in response["Allow"]


def test_an_html_405_or_500_under_the_api_becomes_the_envelope() -> None:
    request = RequestFactory().post("/api/v1/somewhere/")

    refused = ApiErrorEnvelopeMiddleware(lambda _: HttpResponseNotAllowed(["GET"]))(request)
    failed = ApiErrorEnvelopeMiddleware(
        lambda _: HttpResponseServerError("<html>Traceback</html>")
    )(request)

    assert refused.status_code == 405
    assert json.loads(refused.content) == {
        "code": "method_not_allowed",
        "detail": "POST is not allowed at /api/v1/somewhere/",
    }
    assert refused["Allow"] == "GET"
    assert failed.status_code == 500
    assert json.loads(failed.content)["code"] == "server_error"


@pytest.mark.usefixtures("db")
def test_an_exception_under_the_api_with_debug_on_answers_500_in_json(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.DEBUG = True

    def broken(**_: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("tournaments.api.tournaments.lookup.tournament_list", broken)

    response = Client(raise_request_exception=False).get("/api/v1/tournaments/")

    assert response.status_code == 500
    assert response.json()["code"] == "server_error"


def test_an_answer_of_a_drf_view_is_left_as_it_is() -> None:
    request = RequestFactory().get("/api/v1/somewhere/")
    answer = Response({"code": "match_not_found", "detail": "there is no match"}, status=404)

    assert ApiErrorEnvelopeMiddleware(lambda _: answer)(request) is answer
