"""Issue 23 §4: no query parameter of a page or of the admin answers 500.

Digits `str.isdigit()` accepts and `int()` cannot read (`²`, `①`), numbers past any column,
repeated parameters and control characters: first the cases that answered 500, then a bounded
hypothesis fuzz over every page and the admin's pages of a tournament (one world per test)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts.models import Club
from tests.factories.accounts import ClubFactory, UserFactory
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.pages.builders import play_ready
from tournaments.models import Entrant, Fixture, Tournament
from tournaments.ratings.selectors import DEFAULT_MIN_MATCHES

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "²"
CIRCLED_ONE = "①"


CHANGELIST_PARAMETERS = ("p", "o", "q", "e", "all", "_changelist_filters")
"""What every admin list reads (page, order, search, error, show all, the filters to return to),
besides its own filters."""
FILTER_PARAMETERS = (
    "tournament__id__exact",
    "status__exact",
    "stage__exact",
    "table_size__exact",
    "club__id__exact",
    "erased__exact",
    "active__exact",
    "disputed",
    "state",
)


@dataclass(frozen=True)
class Pages:
    club: Club
    tournament: Tournament
    match_id: str
    player_id: int

    def public(self) -> list[tuple[str, tuple[str, ...]]]:
        """Each page and the query parameters it reads."""
        return [
            ("/", ()),
            ("/tournaments/", ()),
            (f"/tournaments/{self.tournament.id}/", ()),
            (f"/tournaments/{self.tournament.id}/screen/", ()),
            (f"/players/{self.player_id}/", ()),
            (f"/clubs/{self.club.slug}/ratings/", ("min_matches",)),
            (f"/clubs/{self.club.slug}/seasons/", ()),
            (f"/matches/{self.match_id}/", ()),
            (f"/matches/{self.match_id}/rounds/1/", ("upto",)),
            ("/table/", ("match",)),
        ]

    def admin(self) -> list[tuple[str, tuple[str, ...]]]:
        """Every model's list, the tournament's page and its sheets (as HTML: the PDF is the
        same page drawn), its entrant's and match's pages, and the add pages that read the
        query; each with the parameters it reads."""
        changelists = [
            (
                reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist"),
                CHANGELIST_PARAMETERS + FILTER_PARAMETERS,
            )
            for model in admin.site._registry
        ]
        tournament = self.tournament.id
        entrant = Entrant.objects.filter(tournament=self.tournament).first()
        assert entrant is not None
        sheet = ("round", "stage")
        return [
            *changelists,
            (reverse("admin:tournaments_tournament_change", args=[tournament]), ()),
            (reverse("admin:tournaments_tournament_sheet", args=[tournament, "pairings"]), sheet),
            (
                reverse("admin:tournaments_tournament_sheet", args=[tournament, "score_sheets"]),
                sheet,
            ),
            (reverse("admin:tournaments_tournament_seeds", args=[tournament]), ()),
            (reverse("admin:tournaments_tournament_import_entrants", args=[tournament]), ()),
            (reverse("admin:tournaments_entrant_change", args=[entrant.id]), ()),
            (reverse("admin:tournaments_entrant_add"), ("tournament",)),
            (reverse("admin:tournaments_webhookendpoint_add"), ("tournament",)),
            (reverse("admin:games_match_change", args=[self.match_id]), ()),
        ]


def build_pages() -> Pages:
    club = ClubFactory.create(name="Circolo Fuzz")
    tournament = TournamentFactory.create(
        format="round_robin", entrants=4, started=True, projected=True, club=club
    )
    play_ready(tournament.id)
    fixture = Fixture.objects.filter(tournament=tournament, status="finished").first()
    assert fixture is not None
    entrant = Entrant.objects.filter(tournament=tournament).first()
    assert entrant is not None
    return Pages(
        club=club,
        tournament=tournament,
        match_id=str(fixture.match_id),
        player_id=entrant.players.get().id,
    )


@pytest.fixture
def pages() -> Pages:
    return build_pages()


@pytest.fixture
def superuser() -> Client:
    client = Client()
    client.force_login(UserFactory.create(username="root", is_staff=True, is_superuser=True))
    return client


def sheet_url(pages: Pages, kind: str) -> str:
    return reverse("admin:tournaments_tournament_sheet", args=[pages.tournament.id, kind])


def test_a_unicode_digit_as_the_step_of_a_replay_is_no_step(client: Client, pages: Pages) -> None:
    for digit in (SUPERSCRIPT_TWO, CIRCLED_ONE):
        response = client.get(f"/matches/{pages.match_id}/rounds/1/", {"upto": digit})

        assert response.status_code == 404


def test_a_unicode_digit_or_a_huge_number_as_min_matches_lists_by_the_default(
    client: Client, pages: Pages
) -> None:
    url = f"/clubs/{pages.club.slug}/ratings/"

    for value in (SUPERSCRIPT_TWO, CIRCLED_ONE, "9" * 5000):
        response = client.get(url, {"min_matches": value})

        assert response.status_code == 200
        assert response.context["min_matches"] == DEFAULT_MIN_MATCHES


def test_the_api_refuses_a_min_matches_that_is_not_ascii_digits_or_too_big(pages: Pages) -> None:
    url = f"/api/v1/clubs/{pages.club.slug}/ratings/"

    for value in (SUPERSCRIPT_TWO, "٣", "9" * 40):
        response = APIClient().get(url, {"min_matches": value})

        assert response.status_code == 400
        assert response.json()["code"] == "invalid_input"
        assert "min_matches" in response.json()["fields"]


def test_a_unicode_digit_as_the_round_of_a_sheet_prints_the_current_round(
    superuser: Client, pages: Pages
) -> None:
    current = superuser.get(sheet_url(pages, "pairings"), {"format": "html"}).content

    for value in (SUPERSCRIPT_TWO, CIRCLED_ONE, "9" * 5000):
        response = superuser.get(sheet_url(pages, "pairings"), {"format": "html", "round": value})

        assert response.status_code == 200
        assert response.content == current


def test_a_unicode_digit_as_a_random_seed_is_refused_on_the_console(superuser: Client) -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=3)
    url = reverse("admin:tournaments_tournament_run", args=[tournament.id, "seed_random"])

    response = superuser.post(url, {"random_seed": SUPERSCRIPT_TWO}, follow=True)

    assert response.status_code == 200
    assert "a random seed is a whole number, not &#x27;²&#x27;" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == "registration"


@pytest.mark.parametrize(
    ("operation", "fields"),
    [
        ("check_in_entrant", {"entrant": SUPERSCRIPT_TWO}),
        ("decide_group_places", {"group": "A", f"place_{SUPERSCRIPT_TWO}": "1", "reason": "x"}),
        ("decide_group_places", {"group": "A", "place_1": CIRCLED_ONE, "reason": "x"}),
    ],
)
def test_a_unicode_digit_in_a_console_button_s_form_is_a_refusal_on_the_page(
    superuser: Client, operation: str, fields: dict[str, str]
) -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=3)
    url = reverse("admin:tournaments_tournament_run", args=[tournament.id, operation])

    response = superuser.post(url, fields, follow=True)

    assert response.status_code == 200
    assert [message.level_tag for message in response.context["messages"]] == ["error"]


# Every page with each parameter it reads set to what broke parsers, once and repeated; then a
# bounded fuzz of the same pages with drawn values.

AWKWARD = [
    SUPERSCRIPT_TWO,
    CIRCLED_ONE,
    "٣",
    "-1",
    "1.5",
    "",
    "9" * 30,
    "9" * 5000,
    "\x00",
    "\r\n=1",
    "\u202e1",
]


def query(parameters: tuple[str, ...], value: str) -> str:
    """Each parameter (and one the page ignores) given twice, a sensible value then `value`: a
    page that reads one value reads the last, one that reads all reads both."""
    return urlencode(
        [pair for name in (*parameters, "unknown") for pair in ((name, "1"), (name, value))]
    )


def sweep(client: Client, pages: list[tuple[str, tuple[str, ...]]]) -> list[tuple[str, str, int]]:
    failures = []
    for url, parameters in pages:
        for value in AWKWARD:
            sent = query(parameters, value)
            status = client.get(f"{url}?{sent}&format=html").status_code
            if status >= 500:
                failures.append((url, sent[:80], status))
    return failures


def test_no_awkward_query_of_a_public_page_answers_500(client: Client, pages: Pages) -> None:
    assert sweep(client, pages.public()) == []


def test_no_awkward_query_of_the_admin_s_pages_of_a_tournament_answers_500(
    superuser: Client, pages: Pages
) -> None:
    """The pages that read numbers of their own (the lists are Django's, and fuzzed below);
    `format=html` goes with every query: a sheet is then the page its PDF is drawn from."""
    own = [(url, names) for url, names in pages.admin() if "_changelist_filters" not in names]
    assert sweep(superuser, own) == []


VALUES = st.one_of(
    st.sampled_from(AWKWARD),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl", "Cc", "Cf", "Zl"]), max_size=8),
    st.text(max_size=12),
)
FUZZ = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def drawn_query(data: st.DataObject, parameters: tuple[str, ...]) -> str:
    """Some of the page's parameters, each with one or two drawn values (two: repeated)."""
    names = data.draw(st.lists(st.sampled_from((*parameters, "unknown")), min_size=1, max_size=4))
    return urlencode([(name, data.draw(VALUES)) for name in names])


@FUZZ
@given(data=st.data())
def test_no_drawn_query_of_a_public_page_answers_500(
    client: Client, pages: Pages, data: st.DataObject
) -> None:
    url, parameters = data.draw(st.sampled_from(pages.public()), label="page")
    sent = drawn_query(data, parameters)

    assert client.get(f"{url}?{sent}").status_code < 500, (url, sent)


@FUZZ
@given(data=st.data())
def test_no_drawn_query_of_the_admin_s_pages_of_a_tournament_answers_500(
    superuser: Client, pages: Pages, data: st.DataObject
) -> None:
    url, parameters = data.draw(st.sampled_from(pages.admin()), label="admin page")
    sent = drawn_query(data, parameters)

    assert superuser.get(f"{url}?{sent}&format=html").status_code < 500, (url, sent)
