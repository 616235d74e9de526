"""The webhooks' fan-out: one delivery row per event of a tournament (its stream and its
matches') and per active endpoint registered before the event, once, whatever is run again."""

import io

import pytest
from django.core.management import call_command

from accounts.models import User
from games.eventstore.api import last_position
from tests.factories.accounts import UserFactory
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.builders import open_fixtures, play
from tournaments.models import Checkpoint, Tournament, WebhookDelivery, WebhookEndpoint
from tournaments.projections import consumer
from tournaments.selectors.feed import tournament_feed
from tournaments.services import running
from tournaments.webhooks.fanout import fan_out
from tournaments.webhooks.services import FAN_OUT, webhook_deactivate, webhook_register

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer() -> User:
    return UserFactory.create(is_superuser=True)


def registered(tournament: Tournament, organizer: User, url: str) -> WebhookEndpoint:
    endpoint, _ = webhook_register(tournament_id=tournament.id, url=url, user=organizer)
    return endpoint


def positions(endpoint: WebhookEndpoint) -> list[int]:
    return list(endpoint.deliveries.order_by("position").values_list("position", flat=True))


def played_through(tournament: Tournament) -> None:
    """Start the tournament and play its one match; the consumer records the result."""
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    (fixture,) = open_fixtures(tournament.id)
    play(fixture.match_id, winner=0)
    consumer.consume()


def test_each_event_of_the_tournament_and_its_matches_after_registration_gets_one_delivery(
    organizer: User,
) -> None:
    tournament = TournamentFactory.create(entrants=2)
    endpoint = registered(tournament, organizer, "https://a.example.org/")
    played_through(tournament)

    added = fan_out()

    feed = tournament_feed(tournament_id=tournament.id, after=endpoint.after_position)
    assert positions(endpoint) == [event.global_position for event in feed]
    assert {e.stream_type for e in feed} == {"tournament", "match"}
    assert sorted(added) == sorted(endpoint.deliveries.values_list("id", flat=True))
    delivery = endpoint.deliveries.order_by("position").first()
    assert delivery is not None
    assert (delivery.event_type, delivery.stream_id) == (feed[0].event_type, feed[0].stream_id)
    assert (delivery.status, delivery.attempts) == ("pending", 0)


def test_events_before_registration_and_of_other_tournaments_are_not_fanned_out(
    organizer: User,
) -> None:
    other = TournamentFactory.create(entrants=2)
    tournament = TournamentFactory.create(entrants=2)
    endpoint = registered(tournament, organizer, "https://a.example.org/")
    played_through(other)
    played_through(tournament)

    fan_out()

    assert positions(endpoint) == [
        event.global_position
        for event in tournament_feed(tournament_id=tournament.id, after=endpoint.after_position)
    ]
    assert all(p > endpoint.after_position for p in positions(endpoint))
    other_streams = {other.id, *other.fixtures.values_list("match_id", flat=True)}
    assert not WebhookDelivery.objects.filter(stream_id__in=other_streams).exists()


def test_running_again_or_from_an_earlier_checkpoint_adds_nothing(organizer: User) -> None:
    tournament = TournamentFactory.create(entrants=2)
    endpoint = registered(tournament, organizer, "https://a.example.org/")
    played_through(tournament)
    first = fan_out()

    again = fan_out()
    Checkpoint.objects.filter(name=FAN_OUT).update(position=0)
    rewound = fan_out()

    assert first
    assert (again, rewound) == ([], [])
    assert endpoint.deliveries.count() == len(first)


def test_an_inactive_endpoint_gets_no_delivery_and_two_endpoints_get_one_each(
    organizer: User,
) -> None:
    tournament = TournamentFactory.create(entrants=2)
    inactive = registered(tournament, organizer, "https://a.example.org/")
    first = registered(tournament, organizer, "https://b.example.org/")
    second = registered(tournament, organizer, "https://c.example.org/")
    webhook_deactivate(endpoint_id=inactive.id, user=organizer)
    played_through(tournament)

    fan_out()

    assert inactive.deliveries.count() == 0
    assert positions(first) == positions(second) != []


def test_with_no_active_endpoint_the_checkpoint_moves_to_the_head_of_the_log(
    organizer: User,
) -> None:
    tournament = TournamentFactory.create(entrants=2)
    played_through(tournament)

    assert fan_out() == []

    assert Checkpoint.objects.get(name=FAN_OUT).position == last_position()
    endpoint = registered(tournament, organizer, "https://a.example.org/")
    assert fan_out() == []
    assert endpoint.deliveries.count() == 0


def test_rebuilding_the_projections_leaves_the_endpoints_deliveries_and_checkpoint_alone(
    organizer: User,
) -> None:
    tournament = TournamentFactory.create(entrants=2)
    endpoint = registered(tournament, organizer, "https://a.example.org/")
    played_through(tournament)
    fan_out()
    endpoint.deliveries.filter(position=positions(endpoint)[0]).update(status="delivered")
    before = list(WebhookDelivery.objects.order_by("id").values())
    checkpoint = Checkpoint.objects.get(name=FAN_OUT).position

    call_command("rebuild_projections", "--quiet", stdout=io.StringIO())

    assert list(WebhookDelivery.objects.order_by("id").values()) == before
    assert Checkpoint.objects.get(name=FAN_OUT).position == checkpoint
    assert WebhookEndpoint.objects.get().active
    assert fan_out() == []
