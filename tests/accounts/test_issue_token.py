from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def issue_token(username: str) -> str:
    out = StringIO()
    call_command("issue_token", username, stdout=out)
    return out.getvalue()


def test_issue_token_prints_only_the_key() -> None:
    printed = issue_token("scorer1")

    assert printed == f"{Token.objects.get(user__username='scorer1').key}\n"


def test_issue_token_creates_a_missing_user_who_has_no_usable_password() -> None:
    issue_token("scorer1")

    user = get_user_model().objects.get(username="scorer1")
    assert not user.has_usable_password()
    assert user.is_active


def test_issue_token_is_idempotent_and_reuses_the_token() -> None:
    first = issue_token("scorer1")
    second = issue_token("scorer1")

    assert first == second
    assert Token.objects.filter(user__username="scorer1").count() == 1
    assert get_user_model().objects.filter(username="scorer1").count() == 1


def test_issue_token_gives_an_existing_user_a_token_and_keeps_their_password() -> None:
    user = get_user_model().objects.create_user(username="organizer", password="s3cret-Pass")

    printed = issue_token("organizer")

    assert printed.strip() == Token.objects.get(user=user).key
    user.refresh_from_db()
    assert user.check_password("s3cret-Pass")


def test_issue_token_refuses_an_invalid_username() -> None:
    with pytest.raises(CommandError, match="not a valid username"):
        issue_token("no spaces allowed")

    assert not get_user_model().objects.exists()


def test_the_issued_token_authenticates_api_writes() -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token('scorer1').strip()}")

    response = client.post(
        "/api/v1/matches/",
        {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}]},
        format="json",
    )

    assert response.status_code == 201
