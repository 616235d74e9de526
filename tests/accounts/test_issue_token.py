import uuid
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import selectors, services
from accounts.models import Club, Role, RoleGrant

pytestmark = pytest.mark.django_db


def issue_token(username: str, *options: str) -> str:
    out = StringIO()
    call_command("issue_token", username, *options, stdout=out)
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


# Granting a role with the token.

TOURNAMENT = uuid.UUID("00000000-0000-4000-8000-000000000013")


def test_issue_token_grants_a_role_in_a_club_and_creates_the_club() -> None:
    printed = issue_token("organizer", "--club", "trastevere", "--role", "organizer")

    assert printed == f"{Token.objects.get(user__username='organizer').key}\n"
    club = Club.objects.get(slug="trastevere")
    grant = RoleGrant.objects.get()
    assert (grant.user.username, grant.role, grant.club) == ("organizer", "organizer", club)


def test_issue_token_grants_a_role_in_an_existing_club() -> None:
    club = services.club_create(name="Circolo Trastevere", slug="trastevere")

    issue_token("scorer1", "--club", "trastevere", "--role", "scorer")

    assert Club.objects.get() == club
    assert club.name == "Circolo Trastevere"
    assert RoleGrant.objects.get().club == club


def test_issue_token_grants_a_role_in_a_tournament() -> None:
    printed = issue_token("scorer1", "--tournament", str(TOURNAMENT), "--role", "scorer")

    user = get_user_model().objects.get(username="scorer1")
    assert printed == f"{Token.objects.get(user=user).key}\n"
    assert selectors.roles_of(user, tournament_id=TOURNAMENT) == {Role.SCORER}


def test_issue_token_assigns_a_scorer_to_some_tables_of_a_tournament() -> None:
    issue_token("scorer1", "--tournament", str(TOURNAMENT), "--role", "scorer", "--tables", "4,3")

    grant = RoleGrant.objects.get(user__username="scorer1")
    assert (grant.role, grant.tables) == (Role.SCORER, [3, 4])


def test_issue_token_refuses_tables_for_a_role_that_is_not_a_scorers() -> None:
    with pytest.raises(CommandError, match="tables are assigned to a scorer"):
        issue_token("org", "--tournament", str(TOURNAMENT), "--role", "organizer", "--tables", "3")

    assert not RoleGrant.objects.exists()


def test_issue_token_with_a_role_is_idempotent() -> None:
    first = issue_token("scorer1", "--tournament", str(TOURNAMENT), "--role", "scorer")
    second = issue_token("scorer1", "--tournament", str(TOURNAMENT), "--role", "scorer")

    assert first == second
    assert RoleGrant.objects.count() == 1


def test_issue_token_takes_the_tournament_as_a_call_command_option() -> None:
    out = StringIO()
    call_command("issue_token", "scorer1", tournament=str(TOURNAMENT), role="player", stdout=out)

    user = get_user_model().objects.get(username="scorer1")
    assert selectors.roles_of(user, tournament_id=TOURNAMENT) == {Role.PLAYER}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--role", "scorer"], "give --club or --tournament"),
        (["--role", "scorer", "--club", "c", "--tournament", str(TOURNAMENT)], "give --club or"),
        (["--club", "trastevere"], "give --role too"),
        (["--tournament", str(TOURNAMENT)], "give --role too"),
        (["--role", "referee", "--club", "c"], "invalid choice: 'referee'"),
        (["--role", "scorer", "--tournament", "table-3"], "not a tournament id"),
        (["--role", "scorer", "--club", "no spaces"], "not a slug"),
    ],
)
def test_issue_token_refuses_incomplete_role_options_and_writes_nothing(
    options: list[str], message: str
) -> None:
    with pytest.raises(CommandError, match=message):
        issue_token("scorer1", *options)

    assert not get_user_model().objects.exists()
    assert not Token.objects.exists()
    assert not Club.objects.exists()
    assert not RoleGrant.objects.exists()
