"""Django's own refusals under /api/ are JSON with a code, like the API's; elsewhere they stay
Django's pages."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.parametrize("path", ["/api/v1/tournaments/", "/api/v1/nowhere/"])
def test_a_request_for_a_host_not_allowed_is_400_bad_request_in_json_under_the_api(
    path: str, db: None
) -> None:
    response = Client(HTTP_HOST="evil.example").get(path)

    assert response.status_code == 400
    assert response.json() == {"code": "bad_request", "detail": "the request could not be read"}


def test_a_request_for_a_host_not_allowed_is_django_s_page_outside_the_api(db: None) -> None:
    response = Client(HTTP_HOST="evil.example").get("/")

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
