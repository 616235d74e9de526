"""Prometheus metrics at `/metrics`: Django's requests and latency (django-prometheus), events
appended (games.eventstore.metrics) and the log consumer's lag, read when scraped.

Only addresses in METRICS_ALLOWED_NETWORKS (loopback by default) may read them; others get 404.
Under gunicorn with several workers, set PROMETHEUS_MULTIPROC_DIR to a directory emptied at
start, so every worker's counts are summed.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterator

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from tournaments.projections.consumer import consumer_lag


class ConsumerLagCollector(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        lag = consumer_lag(now=timezone.now())
        yield GaugeMetricFamily(
            "briscola_consumer_lag_positions",
            "Log positions the tournament consumer has not read yet (head minus checkpoint).",
            value=lag.events,
        )
        yield GaugeMetricFamily(
            "briscola_consumer_lag_seconds",
            "How long the oldest event the consumer has not read has waited.",
            value=lag.seconds,
        )


def allowed(request: HttpRequest) -> bool:
    address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", "0.0.0.0"))  # noqa: S104 - the fallback address to check, not a bind
    return any(
        address in ipaddress.ip_network(network) for network in settings.METRICS_ALLOWED_NETWORKS
    )


def metrics(request: HttpRequest) -> HttpResponse:
    if not allowed(request):
        raise Http404
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry = REGISTRY
    lag = CollectorRegistry()
    lag.register(ConsumerLagCollector())
    body = generate_latest(registry) + generate_latest(lag)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
