"""An Italian organizer and an Italian visitor see no English of ours (issue 24 §3, decision
record 0050): every admin page of the console (lists, add pages, a row's page, the tournament's
console with its own pages and operations, the actions' pages), opened by a superuser and by an
organizer, and every public page, rendered in Italian from one realistic world (the demo: nights
played to their end, a cup, a Swiss and a tournament at tables of three half played; a
tournament still taking entries; a free-standing match). A page fails when its visible text holds
a message of our catalogue untranslated, or one of the English words that must never show.

The Django test client only: what the pages' scripts draw after loading (the table page's
cards) is checked by their own tests, not here."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import transaction
from django.http import HttpRequest
from django.test import Client, RequestFactory
from django.urls import NoReverseMatch, reverse
from django.utils import formats, translation

from accounts.models import Club, User
from common.actors import Actor
from games.matches import services as match_services
from games.models import Match, MatchSide, Round
from games.templatetags.cards import card_label
from tests.factories.accounts import UserFactory
from tests.factories.tournaments import TournamentFactory
from tournaments.management.demo_club import CLUB_SLUG, ORGANIZER_USERNAME, SEASON_SLUG
from tournaments.models import Entrant, Player, Season, Tournament, TournamentStatus
from tournaments.selectors import sheets

pytestmark = pytest.mark.django_db

CATALOGUE = Path(settings.BASE_DIR) / "config" / "locale" / "it" / "LC_MESSAGES" / "django.po"

NEVER_IN_ITALIAN = (
    "Finished",
    "finished",
    "Round",
    "Jack of",
    "Fante of",
    "Knight of",
    "King of",
    "Ace of",
    "Save and",
    "Waiting",
    "In progress",
    "Registration",
    "Tournament",
    "Entrants",
    "Standings",
    "Bracket",
    "Table",
    "Seed",
    "Winner",
    "Event log",
    "of Coins",
    "of Cups",
    "of Swords",
    "of Batons",
    "league stage",
    "Team 1",
    "Squadra 1",
    "fase league",
)
"""English words of ours that no Italian page shows, whatever the catalogue says (and two
Italian words a singles sheet must not show)."""

SHORTEST_MESSAGE = 6
"""Shorter messages ("OK", "Set", "CSV") are too often a name or a word of both languages."""

ACTOR = Actor(device="italian-check")
DUMP = os.environ.get("ITALIAN_CHECK_DUMP")


# The catalogue.


def po_entries(text: str) -> Iterator[tuple[str, str, bool]]:
    """(msgid, msgstr, fuzzy) of a .po file; a plural entry gives its singular and first form."""
    entry: dict[str, str] = {}
    key = ""
    fuzzy = False

    def done() -> Iterator[tuple[str, str, bool]]:
        if entry.get("msgid"):
            yield entry["msgid"], entry.get("msgstr", entry.get("msgstr[0]", "")), fuzzy

    for line in [*text.splitlines(), ""]:
        line = line.strip()
        if not line:
            yield from done()
            entry, key, fuzzy = {}, "", False
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[key] = entry.get(key, "") + unquoted(line)
        else:
            key, _, rest = line.partition(" ")
            if key in entry:  # a new entry without a blank line before it
                yield from done()
                entry, fuzzy = {}, False
            entry[key] = unquoted(rest)
    yield from done()


def unquoted(text: str) -> str:
    return text.strip()[1:-1].replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")


@dataclass(frozen=True)
class Message:
    said: str
    longest: str
    """Its longest stretch of plain text: a page without it cannot hold the message."""
    pattern: re.Pattern[str]


@cache
def english_of_ours() -> tuple[Message, ...]:
    """The messages of our catalogue that say something in English, each as a pattern that
    finds it in a page's text (a placeholder stands for a few words of one piece of text)."""
    found = []
    for msgid, msgstr, fuzzy in po_entries(CATALOGUE.read_text(encoding="utf-8")):
        said = " ".join(msgid.split())
        if msgstr and not fuzzy and " ".join(msgstr.split()) == said:
            continue  # the same in both languages ("Briscola", "Swiss"...)
        if len(PLACEHOLDER.sub("", said)) < SHORTEST_MESSAGE or " " not in said.strip():
            continue  # a short word or a single one: too often a name or a word of both
        literal = PLACEHOLDER.split(said)
        pattern = r"[^|]{1,40}?".join(re.escape(part) for part in literal)
        found.append(Message(said, max(literal, key=len), re.compile(rf"(?<!\w){pattern}(?!\w)")))
    return tuple(found)


# The pages.


class VisibleText(HTMLParser):
    """The text a reader sees or hears: text outside scripts and styles, a page's title, and
    the attributes that are read out or shown (titles, labels, placeholders, buttons)."""

    HIDDEN = frozenset({"script", "style", "template", "noscript"})
    SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.hidden += 1
        found = dict(attrs)
        for name in self.SHOWN_ATTRIBUTES:
            if found.get(name):
                self.parts.append(str(found[name]))
        if tag == "input" and found.get("type") in {"submit", "button"} and found.get("value"):
            self.parts.append(str(found["value"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN and self.hidden:
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " | ".join(" ".join(part.split()) for part in parser.parts)


@dataclass
class World:
    superuser: User
    organizer: User
    club: Club
    in_registration: Tournament
    started: Tournament
    finished: Tournament
    free_match: Match
    names: tuple[str, ...] = field(default=())
    """The names of things (tournaments, entrants, players, clubs, people): data, not ours."""


def build_world() -> World:
    call_command("load_demo", "--small", stdout=io.StringIO())
    club = Club.objects.get(slug=CLUB_SLUG)
    in_registration = TournamentFactory.create(
        name="Serata del giovedì", club=club, format="swiss", entrants=6, tables=3
    )
    started = Tournament.objects.filter(status=TournamentStatus.IN_PROGRESS, club=club).first()
    if started is None:
        started = Tournament.objects.filter(status=TournamentStatus.IN_PROGRESS).first()
    finished = Tournament.objects.filter(status=TournamentStatus.FINISHED).first()
    assert started is not None
    assert finished is not None
    free = match_services.match_create(
        table_size=2, sides=["Rossi", "Bianchi"], best_of=3, actor=ACTOR
    ).match_id
    match_services.round_start(match_id=free, briscola=None, actor=ACTOR)
    match_services.round_points_enter(match_id=free, round_number=1, points=[70, 50], actor=ACTOR)
    match_services.round_start(match_id=free, briscola=None, actor=ACTOR)
    superuser = UserFactory.create(username="root", is_staff=True, is_superuser=True)
    names = {
        *Tournament.objects.values_list("name", flat=True),
        *Entrant.objects.values_list("name", flat=True),
        *Player.objects.values_list("name", flat=True),
        *Club.objects.values_list("name", flat=True),
        *Season.objects.values_list("name", flat=True),
        *MatchSide.objects.values_list("name", flat=True),
        *User.objects.values_list("username", flat=True),
        # Django's permissions are rows named in English when they are created, and name
        # models the console never shows (the permissions' widget on a superuser's pages).
        *Permission.objects.values_list("name", flat=True),
        *(
            str(kind.name)
            for kind in ContentType.objects.all()
            if kind.model_class() not in admin.site._registry
        ),
    }
    return World(
        superuser=superuser,
        organizer=User.objects.get(username=ORGANIZER_USERNAME),
        club=club,
        in_registration=in_registration,
        started=started,
        finished=finished,
        free_match=Match.objects.get(id=free),
        names=tuple(sorted((n for n in names if n), key=len, reverse=True)),
    )


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:  # noqa: ARG001 - for its side effect
    """Built once for the module, in a transaction rolled back at its end (each test's own
    changes are rolled back at the test's end, in a savepoint of this one)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


def italian(user: User | None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    if user is not None:
        client.force_login(user)
    return client


def english_on(html: str, names: tuple[str, ...]) -> list[str]:
    """Our English on a page: the catalogue's messages left untranslated, and the words that
    must never show (the names of things taken out first: they are data, not ours)."""
    text = visible_text(html)
    for name in names:
        text = text.replace(name, "·")
    found = [
        message.said
        for message in english_of_ours()
        if message.longest in text and message.pattern.search(text)
    ]
    found += [word for word in NEVER_IN_ITALIAN if never_shown(word).search(text)]
    return found


@cache
def never_shown(word: str) -> re.Pattern[str]:
    """The word, not as part of a longer one (an event's type, `TournamentFinished`, is a
    name in the log, not a word of the page)."""
    return re.compile(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])")


@dataclass
class Findings:
    world: World
    english: dict[str, list[str]] = field(default_factory=dict)
    broken: dict[str, int] = field(default_factory=dict)

    def read(self, client: Client, url: str, *, post: dict[str, Any] | None = None) -> str:
        response = client.get(url) if post is None else client.post(url, post, follow=True)
        if response.status_code != 200:
            self.broken[url] = response.status_code
            return ""
        html = response.content.decode()
        if DUMP:  # to read what the check reads: ITALIAN_CHECK_DUMP=<a folder>
            name = re.sub(r"\W+", "_", url).strip("_") or "home"
            (Path(DUMP) / f"{name}.txt").write_text(visible_text(html), encoding="utf-8")
        found = english_on(html, self.world.names)
        if found:
            self.english[url] = found
        return html

    def assert_italian(self) -> None:
        assert self.broken == {}, f"pages that did not open: {self.broken}"
        report = "\n".join(f"{url}: {said}" for url, said in sorted(self.english.items()))
        assert self.english == {}, f"English on Italian pages:\n{report}"


# The console.

ROWS_PER_MODEL = 3
OUR_APPS = frozenset({"accounts", "games", "eventstore", "tournaments"})


def rows_to_open(world: World, model: type[Any]) -> list[Any]:
    if model is Tournament:
        return [world.in_registration, world.started, world.finished]
    if model is Match:
        return [world.free_match, *Match.objects.exclude(id=world.free_match.id)[:2]]
    return list(model._default_manager.order_by("-pk")[:ROWS_PER_MODEL])


def as_user(user: User) -> HttpRequest:
    """A request of `user`, for asking the admins what they offer."""
    request = RequestFactory().get(reverse("admin:index"))
    request.user = user
    return request


def admin_pages(world: World, user: User) -> list[str]:
    """The console's pages this user may open: each model's list, add page and some rows."""
    request = as_user(user)
    urls = [reverse("admin:index")]
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in OUR_APPS:
            continue  # the site's own tools (groups, tokens, periodic tasks): Django's words
        if not model_admin.has_module_permission(request):
            continue
        info = (model._meta.app_label, model._meta.model_name)
        urls.append(reverse("admin:app_list", args=[info[0]]))
        urls.append(reverse("admin:{}_{}_changelist".format(*info)))
        if model_admin.has_add_permission(request):
            urls.append(reverse("admin:{}_{}_add".format(*info)))
        visible = model_admin.get_queryset(request)
        for row in rows_to_open(world, model):
            if visible.filter(pk=row.pk).exists():
                urls.append(reverse("admin:{}_{}_change".format(*info), args=[row.pk]))
    return list(dict.fromkeys(urls))


def console_pages(world: World) -> list[str]:
    """The tournament console's own pages: the forms and the printable sheets."""
    urls = []
    for name in ("import_entrants", "paste_entrants", "seeds"):
        urls.append(
            reverse(f"admin:tournaments_tournament_{name}", args=[world.in_registration.id])
        )
    for tournament in (world.started, world.finished):
        for kind in sheets.SHEETS:
            urls.append(
                reverse("admin:tournaments_tournament_sheet", args=[tournament.id, kind])
                + "?format=html"
            )
    return urls


def test_every_console_page_speaks_italian_to_a_superuser(world: World) -> None:
    findings = Findings(world)
    client = italian(world.superuser)

    for url in admin_pages(world, world.superuser) + console_pages(world):
        findings.read(client, url)

    findings.assert_italian()


def test_every_console_page_speaks_italian_to_an_organizer(world: World) -> None:
    findings = Findings(world)
    client = italian(world.organizer)

    for url in admin_pages(world, world.organizer):
        findings.read(client, url)

    findings.assert_italian()


def test_the_consoles_operations_and_action_pages_speak_italian(world: World) -> None:
    """Each operation the console offers, run (what it says, or why it refuses, is a message
    on the tournament's page), and each changelist action's page, asked for one row."""
    findings = Findings(world)
    client = italian(world.superuser)
    from tournaments.admin.operations import OPERATIONS

    for tournament in (world.in_registration, world.started, world.finished):
        for name in OPERATIONS:
            findings.read(
                client,
                reverse("admin:tournaments_tournament_run", args=[tournament.id, name]),
                post={},
            )
    findings.read(
        client,
        reverse("admin:tournaments_tournament_paste_entrants", args=[world.in_registration.id]),
        post={"entrants": "Gino\nGino\nLuisa; Luisa, Pia; x"},
    )
    request = as_user(world.superuser)
    for model, model_admin in admin.site._registry.items():
        info = (model._meta.app_label, model._meta.model_name)
        rows = rows_to_open(world, model)
        if not rows:
            continue
        for action in model_admin.get_actions(request):
            if action == "delete_selected":
                continue
            findings.read(
                client,
                reverse("admin:{}_{}_changelist".format(*info)),
                post={"action": action, ACTION_CHECKBOX_NAME: [rows[-1].pk]},
            )

    findings.assert_italian()


# The public pages.


def public_pages(world: World) -> list[str]:
    urls = ["/", reverse("pages:tournament-list"), reverse("pages:table"), reverse("pages:me")]
    for tournament in Tournament.objects.filter(public=True):
        urls.append(reverse("pages:tournament-detail", args=[tournament.id]))
        urls.append(reverse("pages:tournament-screen", args=[tournament.id]))
    for player in Player.objects.order_by("id")[:3]:
        urls.append(reverse("pages:player-detail", args=[player.id]))
    urls.append(reverse("pages:club-seasons", args=[CLUB_SLUG]))
    urls.append(reverse("pages:season-detail", args=[CLUB_SLUG, SEASON_SLUG]))
    urls.append(reverse("pages:club-ratings", args=[CLUB_SLUG]))
    matches = [world.free_match, *Match.objects.filter(status="finished")[:2]]
    matches += list(Match.objects.filter(status="in_progress")[:2])
    for match in matches:
        urls.append(reverse("pages:match-detail", args=[match.id]))
        urls.append(f"{reverse('pages:table')}?match={match.id}")
        for number in Round.objects.filter(match=match).values_list("number", flat=True)[:2]:
            try:
                urls.append(reverse("pages:round-replay", args=[match.id, number]))
            except NoReverseMatch:
                continue
    return urls


def test_every_public_page_speaks_italian(world: World) -> None:
    findings = Findings(world)

    for url in public_pages(world):
        findings.read(italian(None), url)

    findings.assert_italian()


def test_a_card_is_named_wholly_in_the_readers_language() -> None:
    with translation.override("en"):
        english = [card_label(code) for code in ("8D", "9C", "10S", "1B")]
    with translation.override("it"):
        italian = [card_label(code) for code in ("8D", "9C", "10S", "1B")]

    assert english == ["Jack of Coins", "Knight of Cups", "King of Swords", "Ace of Batons"]
    assert italian == ["Fante di Denari", "Cavallo di Coppe", "Re di Spade", "Asso di Bastoni"]


def test_a_date_is_written_in_the_languages_own_case() -> None:
    moment = datetime(2026, 11, 28, 17, 45, tzinfo=UTC)

    with translation.override("it"):
        italian = formats.date_format(moment, "DATETIME_FORMAT")
    with translation.override("en"):
        english = formats.date_format(moment, "DATE_FORMAT")

    assert italian == "sabato 28 novembre 2026 17:45"
    assert english == "Nov. 28, 2026"
