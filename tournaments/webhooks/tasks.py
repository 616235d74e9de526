"""Celery tasks of the outgoing webhooks: thin, acknowledged late.

- `fan_out_webhooks` (`tournaments.webhooks.fan_out`): the fan-out consumer
  (`tournaments.webhooks.fanout`), woken at the end of each run of the tournament consumer's task
  (`tournaments.tasks.consume_log`, which every commit appending tournament or match events
  wakes), while some endpoint is active: a request pays nothing for the webhooks. It enqueues
  one `deliver_webhook` per delivery it added.
- `deliver_webhook(delivery_id)` (`tournaments.webhooks.deliver`): one attempt; a failed one is
  retried by Celery after the delivery's backoff, until its attempts run out.
- `catch_up_webhooks` (`tournaments.webhooks.catch_up`, beat): the fan-out again, and every
  pending delivery whose next attempt is due (a retry whose message was lost, an attempt whose
  worker died): the due times live in the database, a message is only a hint
  (docs/decisions/0021-wake-ups-never-wait-on-redis.md).

See docs/decisions/0039-outgoing-webhooks.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from time import monotonic
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from tournaments.models import WebhookEndpoint
from tournaments.tasks import publishing
from tournaments.webhooks import delivery as webhook_delivery
from tournaments.webhooks import fanout

WAKE_UP_DELAY = 0.25
"""Seconds a fan-out wake-up waits, so that a burst of appends shares one message."""

WAKE_UP_EXPIRES = 5 * 60
"""Seconds after which a queued wake-up is dropped: the catch-up covers it."""


@shared_task(
    name="tournaments.webhooks.fan_out",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=1,
    retry_backoff_max=30,
    retry_jitter=True,
    max_retries=5,
)
def fan_out_webhooks() -> int:
    added = fanout.fan_out()
    enqueue_deliveries(added)
    return len(added)


@shared_task(
    bind=True,
    name="tournaments.webhooks.deliver",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=None,
)
def deliver_webhook(self: Task[Any, Any], delivery_id: str) -> str:
    """Attempt the delivery; retried (with the delivery's backoff) while it stays pending."""
    attempt = webhook_delivery.attempt_delivery(int(delivery_id))
    if attempt.retry_in is not None:
        raise self.retry(countdown=attempt.retry_in)
    return attempt.status


@shared_task(
    name="tournaments.webhooks.catch_up",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def catch_up_webhooks() -> int:
    """The periodic safety net: fan out what no wake-up did, send what is due, and forget the
    deliveries answered long ago."""
    now = timezone.now()
    webhook_delivery.delivered_pruned(now=now)
    added = fanout.fan_out()
    due = webhook_delivery.due_deliveries(now=now)
    enqueue_deliveries([*added, *(d for d in due if d not in set(added))])
    return len(added) + len(due)


def enqueue_deliveries(delivery_ids: Iterable[int]) -> None:
    """Send one delivery task each (a delivery not sent is due for the catch-up)."""
    for delivery_id in delivery_ids:
        publishing.publish(deliver_webhook, (str(delivery_id),))


# Wake-ups after commits.


@dataclass
class PendingWakeUp:
    due: float = float("-inf")


pending_wake_up = PendingWakeUp()


CONSUMER_TASK = "tournaments.tasks.consume_log"
"""The tournament consumer's task: a run of it starts after every commit that appended events."""


def after_consumer_run(sender: Task[Any, Any] | None = None, **kwargs: object) -> None:
    """Receiver of Celery's `task_postrun`: after a run of the tournament consumer, wake the
    fan-out. That run started after the commits that woke it, so the fan-out sent now starts
    after them too and reads their events."""
    if sender is not None and sender.name == CONSUMER_TASK:
        wake_fan_out()


def wake_fan_out() -> None:
    """A fan-out wake-up, due in WAKE_UP_DELAY, unless this process sent one not due yet or no
    endpoint is active."""
    if not settings.CELERY_WAKE_UPS:
        return
    now = monotonic()
    if pending_wake_up.due > now:
        return
    if not WebhookEndpoint.objects.filter(active=True).exists():
        return
    if publishing.publish(fan_out_webhooks, countdown=WAKE_UP_DELAY, expires=WAKE_UP_EXPIRES):
        pending_wake_up.due = now + WAKE_UP_DELAY


def deliver_when_due(*, delivery_ids: Iterable[int], **kwargs: object) -> None:
    """Receiver of `tournaments.webhooks.services.deliveries_due` (a redelivery)."""
    if settings.CELERY_WAKE_UPS:
        enqueue_deliveries(delivery_ids)
