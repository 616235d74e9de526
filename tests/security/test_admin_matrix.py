"""Every page and action of the organizer's console, opened by each kind of person, answers as
decision record 0040 promises: club A's organizer opens and runs club A's things; club B's
organizer finds them "not found" (404, never a 403 that confirms they exist) and runs nothing;
a scorer (not staff) and an anonymous visitor are sent to the sign-in page. A new admin page, a
new model or a new action fails the completeness tests until it has its row here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse
from django_celery_beat.models import (
    ClockedSchedule,
    CrontabSchedule,
    IntervalSchedule,
    PeriodicTask,
    SolarSchedule,
)
from rest_framework.authtoken.models import Token

from accounts.organizers import ORGANIZERS_GROUP
from tests.security.admin_world import (
    ADMIN_PERSONAS,
    PRIVATE_NAME,
    AdminWorld,
    make_admin_world,
)

pytestmark = pytest.mark.usefixtures("db")


@dataclass(frozen=True)
class ModelRow:
    """What (club A's organizer, club B's organizer) get on the pages of a model."""

    changelist: tuple[int, int]
    add: tuple[int, int]
    change: tuple[int, int]
    history: tuple[int, int]
    delete: tuple[int, int]


CONSOLE = ModelRow((200, 200), (200, 200), (200, 404), (200, 404), (403, 404))
"""Club A's rows, added through services and never deleted."""
CONSOLE_NOT_ADDED = ModelRow((200, 200), (403, 403), (200, 404), (200, 404), (403, 404))
"""Club A's rows made by the services only (projections, the log, players)."""
SITE_ONLY = ModelRow((403, 403), (403, 403), (403, 403), (403, 403), (403, 403))
"""The site's own rows: superusers only."""

MODELS: dict[str, ModelRow] = {
    "tournaments.Tournament": CONSOLE,
    "tournaments.Entrant": CONSOLE,
    "tournaments.Fixture": CONSOLE_NOT_ADDED,
    "tournaments.Player": CONSOLE_NOT_ADDED,
    "tournaments.Season": CONSOLE,
    "tournaments.WebhookEndpoint": CONSOLE,
    "tournaments.WebhookDelivery": CONSOLE_NOT_ADDED,
    "tournaments.ClubRatingSettings": CONSOLE,
    "games.Match": CONSOLE_NOT_ADDED,
    "eventstore.Event": CONSOLE_NOT_ADDED,
    "eventstore.IdempotencyKey": SITE_ONLY,
    "accounts.Club": CONSOLE_NOT_ADDED,
    "accounts.RoleGrant": CONSOLE,
    "accounts.DeviceToken": CONSOLE,
    "accounts.User": SITE_ONLY,
    "auth.Group": SITE_ONLY,
    "authtoken.TokenProxy": SITE_ONLY,
    "django_celery_beat.PeriodicTask": SITE_ONLY,
    "django_celery_beat.ClockedSchedule": SITE_ONLY,
    "django_celery_beat.CrontabSchedule": SITE_ONLY,
    "django_celery_beat.SolarSchedule": SITE_ONLY,
    "django_celery_beat.IntervalSchedule": SITE_ONLY,
}


def site_row_of(world: AdminWorld, label: str) -> Any:
    """A row of a site-only model to open (any: only superusers may)."""
    rows: dict[str, Callable[[], Any]] = {
        "auth.Group": lambda: Group.objects.get(name=ORGANIZERS_GROUP),
        "authtoken.TokenProxy": lambda: Token.objects.create(user=world.users["scorer"]),
        "django_celery_beat.PeriodicTask": lambda: PeriodicTask.objects.first(),
        "django_celery_beat.ClockedSchedule": lambda: ClockedSchedule.objects.first(),
        "django_celery_beat.CrontabSchedule": lambda: CrontabSchedule.objects.first(),
        "django_celery_beat.SolarSchedule": lambda: SolarSchedule.objects.first(),
        "django_celery_beat.IntervalSchedule": lambda: IntervalSchedule.objects.first(),
    }
    return rows[label]() if label in rows else world.objects.get(label)


def pk_of(row: Any) -> str:
    return "1" if row is None else str(row.pk)


def model_url(label: str, view: str, pk: str) -> str:
    app_label, model = label.lower().split(".")
    name = f"admin:{app_label}_{model}_{view}"
    return reverse(name) if view in ("changelist", "add") else reverse(name, args=[pk])


@pytest.mark.parametrize("label", sorted(MODELS))
def test_each_model_page_answers_each_person_as_promised(label: str) -> None:
    world = make_admin_world()
    row = site_row_of(world, label)
    expected = MODELS[label]

    for view in ("changelist", "add", "change", "history", "delete"):
        url = model_url(label, view, pk_of(row))
        same_club, other_club = getattr(expected, view)
        answers = {persona: world.clients[persona].get(url) for persona in ADMIN_PERSONAS}

        assert answers["organizer"].status_code == same_club, (url, answers["organizer"])
        assert answers["organizer_other_club"].status_code == other_club, url
        for outsider in ("anonymous", "scorer"):
            assert answers[outsider].status_code == 302, (outsider, url)
            assert answers[outsider]["Location"].startswith(reverse("admin:login"))


@dataclass(frozen=True)
class Route:
    """A page of the console beyond a model's five: how to call it, what each organizer gets
    (club A's, club B's), and whether it recorded an event."""

    call: Callable[[AdminWorld, Client], Any]
    expected: tuple[int, int]
    records: bool = False


def get(url: Callable[[AdminWorld], str]) -> Callable[[AdminWorld, Client], Any]:
    return lambda world, client: client.get(url(world))


def tournament_url(name: str, *args: object, started: bool = True) -> Callable[[AdminWorld], str]:
    def url(world: AdminWorld) -> str:
        tournament = world.tournament if started else world.in_registration
        return reverse(f"admin:tournaments_tournament_{name}", args=[tournament.id, *args])

    return url


ROUTES: dict[str, Route] = {
    "index": Route(get(lambda _: reverse("admin:index")), (200, 200)),
    "app_list": Route(get(lambda _: reverse("admin:app_list", args=["tournaments"])), (200, 200)),
    "autocomplete": Route(
        get(
            lambda _: (
                reverse("admin:autocomplete")
                + "?app_label=tournaments&model_name=entrant&field_name=tournament&term=Torneo"
            )
        ),
        (200, 200),
    ),
    "jsi18n": Route(get(lambda _: reverse("admin:jsi18n")), (200, 200)),
    "password_change": Route(get(lambda _: reverse("admin:password_change")), (200, 200)),
    "password_change_done": Route(get(lambda _: reverse("admin:password_change_done")), (200, 200)),
    "view_on_site": Route(
        get(
            lambda world: reverse(
                "admin:view_on_site",
                args=[ContentType.objects.get_for_model(world.tournament).pk, world.tournament.pk],
            )
        ),
        (404, 404),
    ),
    "tournaments_tournament_run": Route(
        lambda world, client: client.post(
            tournament_url("run", "open_check_in", started=False)(world)
        ),
        (302, 404),
        records=True,
    ),
    "tournaments_tournament_import_entrants": Route(
        get(tournament_url("import_entrants", started=False)), (200, 404)
    ),
    "tournaments_tournament_paste_entrants": Route(
        lambda world, client: client.post(
            tournament_url("paste_entrants", started=False)(world),
            {"entrants": "Late\nLater; 9", "_register": "Register"},
        ),
        (302, 404),
        records=True,
    ),
    "tournaments_tournament_seeds": Route(get(tournament_url("seeds", started=False)), (200, 404)),
    "tournaments_tournament_sheet": Route(
        get(lambda world: tournament_url("sheet", "pairings")(world) + "?format=html"), (200, 404)
    ),
}
"""The console's pages that are not one of a model's five, by route name."""

NOT_PAGES = {"login", "logout", "auth_user_password_change"}
"""Signing in and out (tests/accounts/test_login_lockout.py) and a user's password, on
`accounts.User`'s own pages (superusers only, as the model's row says)."""


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_each_console_page_answers_each_person_as_promised(name: str) -> None:
    world = make_admin_world()
    route = ROUTES[name]
    same_club, other_club = route.expected

    before = world.events()
    refused = route.call(world, world.clients["organizer_other_club"])
    after_refusal = world.events()
    answered = route.call(world, world.clients["organizer"])
    outsiders = [route.call(world, world.clients[p]) for p in ("anonymous", "scorer")]

    assert refused.status_code == other_club
    assert after_refusal == before
    assert answered.status_code == same_club
    assert (world.events() > after_refusal) == route.records
    assert all(answer.status_code == 302 for answer in outsiders)
    if refused.status_code == 200:
        assert PRIVATE_NAME not in refused.content.decode()


@dataclass(frozen=True)
class ActionRow:
    """An action of the console on club A's row (by model label): the fields its page asks
    for, and whether club A's organizer running it records an event."""

    fields: dict[str, str]
    records: bool
    """True: it must record (False: the world's row may be one it refuses, with a message)."""


ACTIONS: dict[tuple[str, str], ActionRow] = {
    ("tournaments.Tournament", "seed_given"): ActionRow({}, records=False),
    ("tournaments.Tournament", "seed_random"): ActionRow({}, records=False),
    ("tournaments.Tournament", "start"): ActionRow({}, records=False),
    ("tournaments.Tournament", "publish_swiss_round"): ActionRow({}, records=False),
    ("tournaments.Tournament", "schedule"): ActionRow({}, records=False),
    ("tournaments.Entrant", "check_in"): ActionRow({}, records=False),
    ("tournaments.Entrant", "withdraw"): ActionRow({"apply": "1", "reason": "ill"}, records=True),
    ("tournaments.Entrant", "pause"): ActionRow({}, records=False),
    ("tournaments.Entrant", "return_to_play"): ActionRow({}, records=False),
    ("tournaments.Entrant", "request_bye"): ActionRow({}, records=False),
    ("tournaments.Fixture", "call_to_table"): ActionRow({}, records=True),
    ("tournaments.Fixture", "assign_table"): ActionRow({"apply": "1", "table": "2"}, True),
    ("tournaments.Fixture", "decide_level"): ActionRow(
        {"apply": "1", "winner": "home", "reason": "level"}, records=False
    ),
    ("tournaments.Fixture", "forfeit"): ActionRow(
        {"apply": "1", "side": "1", "reason": "late"}, records=True
    ),
    ("tournaments.Fixture", "void_round"): ActionRow(
        {"apply": "1", "reason": "misdeal"}, records=False
    ),
    ("games.Match", "forfeit"): ActionRow({"apply": "1", "side": "0", "reason": "late"}, True),
    ("games.Match", "void_round"): ActionRow({"apply": "1", "reason": "misdeal"}, records=False),
    ("games.Match", "rule_round"): ActionRow(
        {"apply": "1", "round_number": "1", "points": "55 65", "reason": "miscount"}, False
    ),
    ("games.Match", "correct_card"): ActionRow(
        {"apply": "1", "round_number": "1", "play_number": "1", "card": "3C", "reason": "x"},
        records=False,
    ),
    ("tournaments.Fixture", "rule_round"): ActionRow(
        {"apply": "1", "round_number": "1", "points": "55 65", "reason": "miscount"}, False
    ),
    ("tournaments.Player", "link"): ActionRow({"apply": "1", "username": "scorer"}, False),
    ("tournaments.Player", "erase"): ActionRow({"apply": "1", "confirm": "on"}, records=False),
    ("tournaments.WebhookEndpoint", "deactivate"): ActionRow({}, records=False),
    ("tournaments.WebhookDelivery", "redeliver"): ActionRow({}, records=False),
    ("accounts.RoleGrant", "revoke_roles"): ActionRow({}, records=False),
    ("accounts.DeviceToken", "revoke_tokens"): ActionRow({}, records=False),
}
"""Every action of every model admin of the console (Django's own delete action is off)."""


def run_action(world: AdminWorld, client: Client, label: str, action: str) -> Any:
    row = world.objects[label]
    url = model_url(label, "changelist", "")
    data = {"action": action, ACTION_CHECKBOX_NAME: [str(row.pk)], **ACTIONS[label, action].fields}
    return client.post(url, data)


@pytest.mark.parametrize(("label", "action"), sorted(ACTIONS))
def test_each_action_runs_for_the_clubs_organizer_only(label: str, action: str) -> None:
    world = make_admin_world()
    row = world.objects[label]
    rows = type(row).objects.filter(pk=row.pk)
    before, state_before = world.events(), rows.values().first()

    refused = run_action(world, world.clients["organizer_other_club"], label, action)
    events_after_refusal, state_after_refusal = world.events(), rows.values().first()
    outsiders = [
        run_action(world, world.clients[persona], label, action)
        for persona in ("anonymous", "scorer")
    ]
    answered = run_action(world, world.clients["organizer"], label, action)

    assert refused.status_code == 404
    assert events_after_refusal == before
    assert state_after_refusal == state_before
    assert all(answer.status_code == 302 for answer in outsiders)
    assert answered.status_code in (200, 302)
    if ACTIONS[label, action].records:
        assert world.events() > events_after_refusal


def admin_routes() -> set[str]:
    """Every named page of the admin site, but a model's five."""
    found: set[str] = set()
    model_views = {
        f"{model._meta.app_label}_{model._meta.model_name}_{view}"
        for model in admin.site._registry
        for view in ("changelist", "add", "change", "history", "delete")
    }

    def walk(patterns: list[URLPattern | URLResolver]) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns)
            elif entry.name is not None and entry.name not in model_views:
                found.add(entry.name)

    walk(admin.site.get_urls())
    return found


def test_every_console_page_has_its_row() -> None:
    assert admin_routes() == set(ROUTES) | NOT_PAGES


def test_every_model_of_the_console_has_its_row() -> None:
    assert {model._meta.label for model in admin.site._registry} == set(MODELS)


def test_every_action_of_the_console_has_its_row() -> None:
    found = {
        (model._meta.label, name)
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label in {"accounts", "eventstore", "games", "tournaments"}
        for name in model_admin.actions or ()
    }

    assert found == set(ACTIONS)


def test_club_b_organizer_reads_no_name_of_club_a_on_any_list() -> None:
    world = make_admin_world()
    client = world.clients["organizer_other_club"]
    scoped = [label for label, row in MODELS.items() if row.changelist == (200, 200)]

    pages = [client.get(model_url(label, "changelist", "")) for label in scoped]
    entrant_add = client.get(model_url("tournaments.Entrant", "add", ""))

    assert all(page.status_code == 200 for page in pages)
    for page in [*pages, entrant_add]:
        text = page.content.decode()
        assert PRIVATE_NAME not in text
        assert "Iscrizioni del Club A" not in text
        assert "Stagione del Club A" not in text
    assert world.clients["organizer"].get(model_url("tournaments.Tournament", "changelist", ""))
    own = world.clients["organizer"].get(model_url("tournaments.Tournament", "changelist", ""))
    assert PRIVATE_NAME in own.content.decode()
