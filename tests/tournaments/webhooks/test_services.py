"""Registering webhook endpoints: the tournament's organizers only, http(s) addresses without
credentials, no private address unless the setting allows it, a secret given or generated."""

import uuid
from typing import Any

import pytest

from accounts.models import Role, User
from accounts.services import role_grant
from games.eventstore.api import last_position
from tests.factories.accounts import ClubFactory, UserFactory
from tests.factories.tournaments import TournamentFactory
from tournaments.errors import TournamentNotFound
from tournaments.models import Tournament, WebhookEndpoint
from tournaments.webhooks.services import (
    WebhookAddressRefused,
    WebhookForbidden,
    WebhookSecretInvalid,
    WebhookUrlInvalid,
    webhook_deactivate,
    webhook_register,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def organized() -> tuple[Tournament, User]:
    club = ClubFactory.create()
    organizer = UserFactory.create()
    role_grant(user=organizer, role=Role.ORGANIZER, club=club)
    return TournamentFactory.create(club=club), organizer


def test_an_organizer_registers_an_address_for_the_events_recorded_from_now_on(
    organized: tuple[Tournament, User],
) -> None:
    tournament, organizer = organized

    endpoint, secret = webhook_register(
        tournament_id=tournament.id, url="https://hooks.example.org/briscola", user=organizer
    )

    assert endpoint.after_position == last_position()
    assert endpoint.active
    assert endpoint.created_by == organizer
    assert len(secret) >= 32
    assert endpoint.secret == secret


def test_a_secret_given_by_the_organizer_is_kept_and_a_short_one_refused(
    organized: tuple[Tournament, User],
) -> None:
    tournament, organizer = organized
    given = "s3cret-of-the-club-0123"

    _, secret = webhook_register(
        tournament_id=tournament.id, url="https://a.example.org/", user=organizer, secret=given
    )

    assert secret == given
    with pytest.raises(WebhookSecretInvalid) as refused:
        webhook_register(
            tournament_id=tournament.id, url="https://a.example.org/", user=organizer, secret="x"
        )
    assert refused.value.code == "webhook_secret_invalid"


@pytest.mark.parametrize(
    "url",
    [
        "ftp://hooks.example.org/",
        "file:///etc/passwd",
        "hooks.example.org/briscola",
        "https://user:password@hooks.example.org/",
        "https://token@hooks.example.org/",
        "https://hooks.example.org:99999/",
        "",
    ],
)
def test_an_address_that_is_not_a_plain_http_url_is_refused(
    organized: tuple[Tournament, User], url: str
) -> None:
    tournament, organizer = organized

    with pytest.raises(WebhookUrlInvalid) as refused:
        webhook_register(tournament_id=tournament.id, url=url, user=organizer)

    assert refused.value.code == "webhook_url_invalid"
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/",
        "http://10.1.2.3/",
        "http://192.168.1.20/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://localhost:9000/",
        "http://0.0.0.0/",
        "http://[::127.0.0.1]/",
        "http://[64:ff9b::7f00:1]/",
        "http://[2002:7f00:1::]/",
        "http://[::ffff:10.0.0.1]:8080/hook",
        "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/",
        "http://2130706433/",
        "http://127.1/",
        "http://0x7f.0.0.1/",
        "http://017700000001:8000/",
        "http://localhost./",
        "http://hooks.localhost./",
    ],
)
def test_a_private_loopback_or_link_local_address_is_refused_unless_the_setting_allows_it(
    organized: tuple[Tournament, User], url: str, settings: Any
) -> None:
    tournament, organizer = organized
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False

    with pytest.raises(WebhookAddressRefused) as refused:
        webhook_register(tournament_id=tournament.id, url=url, user=organizer)

    assert refused.value.code == "webhook_address_refused"
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True
    endpoint, _ = webhook_register(tournament_id=tournament.id, url=url, user=organizer)
    assert endpoint.url == url


@pytest.mark.parametrize(
    ("url", "detail"),
    [
        ("https://hooks.example.org/brisc ola", "no spaces or control characters"),
        ("https://hooks.example .org/", "no spaces or control characters"),
        ("https://hooks.example.org/\tbriscola", "no spaces or control characters"),
        ("https://hooks.exa\nmple.org/", "no spaces or control characters"),
        ("https://hooks.example.org/briscola\r\nX-Injected: 1", "no spaces or control characters"),
        ("https://hooks.example.org/\x00", "no spaces or control characters"),
        ("https://hooks.example.org/\x7f", "no spaces or control characters"),
        ("https://hooks.example.org/\u200bbriscola", "no spaces or control characters"),
        ("https://hooks.example.org/\u00a0briscola", "no spaces or control characters"),
        ("https://hooks.example.org:0/", "port is not valid"),
        ("http://[::1/", "an http or https URL"),
        ("http://[hooks.example.org]/", "an http or https URL"),
        ("https://hooks..example.org/", "host name is not valid"),
        ("https://" + "a" * 64 + ".example.org/", "host name is not valid"),
        ("https://hooks.example.org/città", "percent-encoded"),
        ("https://hooks.example.org/?torneo=città", "percent-encoded"),
    ],
)
def test_an_address_that_could_never_be_delivered_is_refused_with_what_is_wrong(
    organized: tuple[Tournament, User], url: str, detail: str
) -> None:
    tournament, organizer = organized

    with pytest.raises(WebhookUrlInvalid) as refused:
        webhook_register(tournament_id=tournament.id, url=url, user=organizer)

    assert refused.value.code == "webhook_url_invalid"
    assert detail in str(refused.value)
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "  https://hooks.example.org/briscola\n",
        "https://hooks.example.org:8443/briscola?torneo=citt%C3%A0#fine",
        "https://bücher.example/briscola",
        "http://[2606:4700:4700::1111]:8080/",
        "http://[::ffff:8.8.8.8]/",
        "http://[2002:808:808::1]/",
    ],
)
def test_an_address_that_can_be_delivered_is_taken(
    organized: tuple[Tournament, User], url: str, settings: Any
) -> None:
    tournament, organizer = organized
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False

    endpoint, _ = webhook_register(tournament_id=tournament.id, url=url, user=organizer)

    assert endpoint.url == url.strip()


def test_only_the_tournaments_organizers_register_or_deactivate(
    organized: tuple[Tournament, User],
) -> None:
    tournament, organizer = organized
    scorer = UserFactory.create()
    role_grant(user=scorer, role=Role.SCORER, tournament_id=tournament.id)
    endpoint, _ = webhook_register(
        tournament_id=tournament.id, url="https://a.example.org/", user=organizer
    )

    with pytest.raises(WebhookForbidden):
        webhook_register(tournament_id=tournament.id, url="https://b.example.org/", user=scorer)
    with pytest.raises(WebhookForbidden):
        webhook_deactivate(endpoint_id=endpoint.id, user=UserFactory.create())
    with pytest.raises(TournamentNotFound):
        webhook_register(
            tournament_id=uuid.uuid4(),
            url="https://a.example.org/",
            user=organizer,
        )
    assert WebhookEndpoint.objects.get().active


def test_a_deactivated_endpoint_stays_listed_inactive(organized: tuple[Tournament, User]) -> None:
    tournament, organizer = organized
    endpoint, _ = webhook_register(
        tournament_id=tournament.id, url="https://a.example.org/", user=organizer
    )

    webhook_deactivate(endpoint_id=endpoint.id, user=organizer)
    webhook_deactivate(endpoint_id=endpoint.id, user=organizer)

    endpoint.refresh_from_db()
    assert not endpoint.active
