"""Prometheus reads requests, latency, appends and the consumer's lag at /metrics."""

import re

import pytest
from django.test import Client

from common.actors import Actor
from tournaments.services import tournament_create

pytestmark = pytest.mark.django_db


def sample(text: str, name: str, labels: str = "") -> float:
    """The value of one sample in the Prometheus text format (0 when it is not there yet)."""
    pattern = rf"^{re.escape(name)}{re.escape(labels)} (\S+)$"
    found = re.search(pattern, text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_metrics_count_the_events_appended_and_show_the_consumers_lag(client: Client) -> None:
    before = client.get("/metrics").content.decode()

    tournament_create(name="Coppa", format="swiss", table_size=2, actor=Actor())
    after = client.get("/metrics").content.decode()

    appended = 'briscola_events_appended_total{stream_type="tournament"}'
    assert sample(after, appended) == sample(before, appended) + 1
    assert sample(after, "briscola_consumer_lag_positions") > 0
    assert "django_http_requests_latency_seconds_by_view_method_bucket" in after


def test_metrics_are_not_shown_outside_the_allowed_networks(client: Client) -> None:
    response = client.get("/metrics", REMOTE_ADDR="203.0.113.9")

    assert response.status_code == 404
