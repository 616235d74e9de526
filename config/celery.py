"""The Celery application; its tasks are the installed apps' `tasks` modules (autodiscovery) and
the modules listed in `CELERY_IMPORTS` (config/settings/base.py)."""

import os
from typing import Any

from celery import Celery
from celery.signals import before_task_publish, task_prerun, worker_init
from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError

from common.observability import add_request_id_to_task, adopt_task_request_id

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("briscola")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

before_task_publish.connect(add_request_id_to_task, weak=False)
task_prerun.connect(adopt_task_request_id, weak=False)
_connection_parameters = kombu_redis.Channel._connparams  # type: ignore[attr-defined]


def _connection_parameters_of_a_live_channel(
    channel: kombu_redis.Channel, *args: Any, **kwargs: Any
) -> Any:
    if channel.connection is None or channel.connection.client is None:
        raise RedisConnectionError("this channel was closed with its connection to Redis")
    return _connection_parameters(channel, *args, **kwargs)


@worker_init.connect
def survive_redis_outages(**kwargs: Any) -> None:
    """Keep the worker alive through Redis outages (issue 10 §3). With kombu 5.7 it died on the
    first one: once the connection is lost, the channel it closed is still used, to put back the
    messages the worker holds unacknowledged (a task running with acks_late, a wake-up waiting
    for its countdown) and to acknowledge a task that finishes meanwhile. Both need the closed
    connection's parameters and raised AttributeError ("'NoneType' object has no attribute
    'hostname'", or 'client'), which Celery treats as unrecoverable.

    - A closed channel raises a Redis `ConnectionError` instead, which Celery handles: it logs
      the acknowledgement it could not make, and reconnects.
    - Unacknowledged messages are not put back on a lost connection (or at shutdown): they stay
      in Redis's unacked set and are redelivered after the visibility timeout, if Redis kept
      them. Nothing the project sends needs more: every task is a hint that beat's catch-up
      repeats, and no message waits on a due time
      (docs/decisions/0021-wake-ups-never-wait-on-redis.md)."""
    kombu_redis.Channel._connparams = _connection_parameters_of_a_live_channel  # type: ignore[attr-defined]
    kombu_redis.Channel.do_restore = False
