"""The API's error details follow the request's language (Accept-Language or the language cookie),
English by default; the codes never change (decision record 0022)."""

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation
from rest_framework.test import APIClient

from accounts import services as accounts_services
from accounts.models import Role
from accounts.services import AccountsError
from common.explained import gettext_noop
from games.rules.errors import NotYourTurn, RuleViolation
from tests.factories.accounts import UserFactory, token_client
from tests.factories.api import API
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import legal_round, play_body, post, round_url, start_round
from tests.tournaments.api.builders import started_tournament, tournament_url
from tournaments.errors import TournamentError
from tournaments.formats.errors import FormatError
from tournaments.standings.errors import StandingsError

ROOT = Path(settings.BASE_DIR)
ITALIAN = {"HTTP_ACCEPT_LANGUAGE": "it"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


def client_of(username: str) -> APIClient:
    return token_client(UserFactory.create(username=username))


@pytest.fixture
def scorer(db: None) -> APIClient:  # noqa: ARG001 - requested for its side effect
    return client_of("scorer")


@pytest.fixture
def organizer(db: None) -> APIClient:  # noqa: ARG001 - requested for its side effect
    client = client_of("organizer")
    club = accounts_services.club_create(name="Circolo Briscola")
    user = get_user_model().objects.get(username="organizer")
    accounts_services.role_grant(user=user, role=Role.ORGANIZER, club=club)
    return client


def in_both_languages(send: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The same request answered in Italian, then in English: the same status both times."""
    italian, english = send(ITALIAN), send(ENGLISH)
    assert italian.status_code == english.status_code
    return italian.json(), english.json()


def a_match_with_a_round(scorer: APIClient) -> tuple[str, list[Any]]:
    briscola, plays = legal_round()
    match_id = ApiMatchFactory.create(client=scorer)["id"]
    start_round(scorer, match_id, briscola=briscola)
    return match_id, plays


def test_a_rule_violation_is_explained_in_the_request_language(scorer: APIClient) -> None:
    match_id, plays = a_match_with_a_round(scorer)
    out_of_turn = play_body(plays[1])

    italian, english = in_both_languages(
        lambda language: post(scorer, round_url(match_id, 1, "plays"), out_of_turn, **language)
    )

    assert italian["code"] == english["code"] == "not_your_turn"
    seat, on_turn = plays[1].seat, plays[0].seat
    assert english["detail"] == f"seat {seat} cannot play now: it is seat {on_turn}'s turn"
    assert italian["detail"] == f"il posto {seat} non può giocare ora: tocca al posto {on_turn}"


def test_a_version_conflict_is_explained_in_the_request_language(scorer: APIClient) -> None:
    match_id, plays = a_match_with_a_round(scorer)
    stale = play_body(plays[0], expected_version=99)

    italian, english = in_both_languages(
        lambda language: post(scorer, round_url(match_id, 1, "plays"), stale, **language)
    )

    assert italian["code"] == english["code"] == "version_conflict"
    assert italian["current_version"] == english["current_version"]
    assert english["detail"].startswith("The match changed since you last saw it")
    assert italian["detail"].startswith("Ci sono state altre modifiche a questo incontro")
    assert "99" in italian["detail"]


def test_a_permission_refusal_is_explained_in_the_request_language(scorer: APIClient) -> None:
    match_id, plays = a_match_with_a_round(scorer)
    stranger = client_of("stranger")

    italian, english = in_both_languages(
        lambda language: post(
            stranger, round_url(match_id, 1, "plays"), play_body(plays[0]), **language
        )
    )

    assert italian["code"] == english["code"] == "permission_denied"
    assert english["detail"] == "Only who created this match scores it."
    assert italian["detail"] == "Solo chi ha creato questo incontro ne segna i punti."


def test_an_unknown_route_under_the_api_is_explained_in_the_request_language(
    api_client: APIClient,
) -> None:
    italian, english = in_both_languages(
        lambda language: api_client.get(f"{API}/nowhere/", **language)
    )

    assert italian["code"] == english["code"] == "not_found"
    assert english["detail"] == f"there is nothing at {API}/nowhere/"
    assert italian["detail"] == f"non c'è niente all'indirizzo {API}/nowhere/"


def test_a_validation_error_is_explained_in_the_request_language_field_by_field(
    scorer: APIClient,
) -> None:
    body = {"table_size": "large", "sides": [{"name": "Rossi"}, {"name": "Bianchi"}]}

    italian, english = in_both_languages(
        lambda language: post(scorer, f"{API}/matches/", body, **language)
    )

    assert italian["code"] == english["code"] == "invalid_input"
    assert list(italian["fields"]) == list(english["fields"]) == ["table_size"]
    assert english["detail"] == "table_size: A valid integer is required."
    assert italian["detail"] == "table_size: È richiesto un numero intero valido."


def test_a_refused_header_is_explained_in_the_request_language(scorer: APIClient) -> None:
    match_id, plays = a_match_with_a_round(scorer)
    too_long = {"HTTP_IDEMPOTENCY_KEY": "k" * 129}

    italian, english = in_both_languages(
        lambda language: post(
            scorer, round_url(match_id, 1, "plays"), play_body(plays[0]), **too_long, **language
        )
    )

    assert italian["code"] == english["code"] == "invalid_input"
    assert english["detail"] == (
        "Idempotency-Key: an idempotency key is 1 to 128 printable characters"
    )
    assert italian["detail"] == (
        "Idempotency-Key: una chiave di idempotenza ha da 1 a 128 caratteri stampabili"
    )


@pytest.mark.django_db
def test_an_unknown_token_is_refused_in_the_request_language(api_client: APIClient) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)

    italian, english = in_both_languages(
        lambda language: api_client.get(f"{API}/matches/", **language)
    )

    assert italian["code"] == english["code"] == "authentication_failed"
    assert (english["detail"], italian["detail"]) == ("Invalid token.", "Token non valido.")


def test_a_tournament_refusal_is_explained_in_the_request_language(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 2)
    late = {"name": "Late", "players": ["Late"]}

    italian, english = in_both_languages(
        lambda language: post(
            organizer, tournament_url(tournament_id, "entrants"), late, **language
        )
    )

    assert italian["code"] == english["code"] == "registration_closed"
    assert english["detail"] == "the tournament has started: registration is closed"
    assert italian["detail"] == "il torneo è iniziato: le iscrizioni sono chiuse"


def test_the_language_cookie_chooses_the_language_of_details_too(api_client: APIClient) -> None:
    api_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"

    response = api_client.get(f"{API}/nowhere/")

    assert response.json()["detail"] == f"non c'è niente all'indirizzo {API}/nowhere/"


def test_details_are_english_when_the_browser_asks_for_a_language_the_site_lacks(
    api_client: APIClient,
) -> None:
    response = api_client.get(f"{API}/nowhere/", HTTP_ACCEPT_LANGUAGE="de")

    assert response.json()["detail"] == f"there is nothing at {API}/nowhere/"


def test_a_violation_keeps_its_english_detail_whatever_the_active_language() -> None:
    with translation.override("it"):
        violation = NotYourTurn.because(
            gettext_noop("seat %(seat)s cannot play now: it is seat %(on_turn)s's turn"),
            seat=1,
            on_turn=0,
        )

    assert violation.detail == str(violation) == "seat 1 cannot play now: it is seat 0's turn"
    assert violation.params == {"seat": 1, "on_turn": 0}


# Every message template is in the Italian catalogue, and every domain error is raised from one:
# a new message without its translation fails the build.

PACKAGES = ("games", "tournaments", "accounts", "config")
TRANSLATED_BASES = (RuleViolation, FormatError, StandingsError, AccountsError, TournamentError)


def source_files() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def calls_named(tree: ast.AST, name: str) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called == name:
                yield node


def marked_templates() -> dict[str, str]:
    """Each string marked with gettext_noop in the project's code, with where it is."""
    found = {}
    for path in source_files():
        for call in calls_named(ast.parse(path.read_text()), "gettext_noop"):
            literal = call.args[0] if call.args else None
            assert isinstance(literal, ast.Constant), f"{path}:{call.lineno} marks a non-literal"
            assert isinstance(literal.value, str), f"{path}:{call.lineno} marks a non-string"
            found[literal.value] = f"{path.relative_to(ROOT)}:{call.lineno}"
    return found


def error_class_names() -> set[str]:
    """The domain errors raised with a detail (an error with its own constructor, such as
    UnknownTiebreak, builds its template there)."""
    constructors = {vars(base)["__init__"] for base in TRANSLATED_BASES if "__init__" in vars(base)}
    names: set[str] = set()
    pending: list[type] = list(TRANSLATED_BASES)
    while pending:
        cls = pending.pop()
        if getattr(cls, "__init__", None) in constructors:
            names.add(cls.__name__)
        pending.extend(cls.__subclasses__())
    return names


def test_the_rules_mark_their_message_templates() -> None:
    templates = marked_templates()

    assert "seat %(seat)s cannot play now: it is seat %(on_turn)s's turn" in templates
    assert sum(where.startswith("games/rules/") for where in templates.values()) >= 40


def test_every_message_template_has_its_italian_translation() -> None:
    with translation.override("it"):
        untranslated = {
            template: where
            for template, where in marked_templates().items()
            if translation.gettext(template) == template
        }

    assert untranslated == {}


def test_every_domain_error_is_raised_from_a_message_template() -> None:
    """`raise InvalidCard("...")` would give the API an English-only detail: each is raised
    with `InvalidCard.because(gettext_noop("..."), ...)`."""
    names = error_class_names()
    direct = []
    for path in source_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Raise):
                continue
            called = node.exc.func if isinstance(node.exc, ast.Call) else None
            if isinstance(called, ast.Name) and called.id in names:
                direct.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    becauses = [
        call
        for path in source_files()
        for call in calls_named(ast.parse(path.read_text()), "because")
    ]

    assert direct == []
    assert becauses
    for call in becauses:
        template = call.args[0] if call.args else None
        marked = isinstance(template, ast.Call) and getattr(template.func, "id", None) == (
            "gettext_noop"
        )
        # A template chosen from a table (formats' NOT_PLAYABLE) is marked where the table is.
        assert marked or isinstance(template, ast.Subscript), ast.unparse(call)
