"""Sending tasks to the broker after a commit without ever making the committer wait on it.

What the services enqueue after a commit (a consumer wake-up, a tournament's scheduling, a
no-show deadline) is a hint: beat's catch-up (every 30 s) does the same work anyway. So a broker
that is stopped, frozen or slow must not slow or fail the write that sent it. `publish`:

- sends over a connection of its own, with short connect and socket timeouts
  (`REDIS_TIMEOUT`) and no retries. Celery's default producer has no socket timeout (a
  frozen Redis held each write 60 s, until gunicorn killed it) and retries three times 0.2 s
  apart (a stopped Redis cost each write 0.6 s);
- after a failed send, skips every send of this process for `REDIS_FAILURE_PAUSE` seconds (a
  circuit breaker), so during an outage only the first write of each pause pays the timeout;
  the first send after the pause tries again, and closes the breaker when it goes through;
- never raises: a failure is logged (once per pause) and `publish` returns False.

The worker's own connection keeps Celery's settings: it waits on the broker by design. See
docs/decisions/0021-wake-ups-never-wait-on-redis.md.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from time import monotonic
from typing import Any

from celery import Task
from django.conf import settings
from kombu import Connection

from common.breaker import Breaker
from config.celery import app

logger = logging.getLogger(__name__)


breaker = Breaker()


@dataclass
class Publisher:
    """This process's connection for sending, made for the broker URL in the settings now (so
    a test's override applies) and made again in a forked child, which must not share its
    parent's socket. One send at a time: kombu's connections are not thread-safe."""

    key: tuple[int, str] | None = None
    connection: Connection | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def connect(self) -> Connection:
        key = (os.getpid(), settings.CELERY_BROKER_URL)
        if self.connection is None or self.key != key:
            timeout = settings.REDIS_TIMEOUT
            self.connection = app.connection_for_write(
                settings.CELERY_BROKER_URL,
                connect_timeout=timeout,
                transport_options={
                    "socket_connect_timeout": timeout,
                    "socket_timeout": timeout,
                    "retry_on_timeout": False,
                    "max_retries": 0,
                },
            )
            self.key = key
        return self.connection

    def discard(self) -> None:
        """Drop the connection after a failure; the next send makes a new one."""
        if self.connection is not None and self.key is not None and self.key[0] == os.getpid():
            with suppress(Exception):
                self.connection.release()
        self.connection = None
        self.key = None


publisher = Publisher()


def publish(task: Task[Any, Any], args: Sequence[str] = (), **options: Any) -> bool:
    """Send `task` with `args` and Celery's `options` (countdown, eta, expires), unless the
    breaker is open; returns whether it was sent. Never raises, and waits on the broker at most
    the timeouts (connect, then one reply), or not at all while the breaker is open."""
    now = monotonic()
    if breaker.is_open(now):
        breaker.skipped += 1
        return False
    if not publisher.lock.acquire(timeout=settings.REDIS_TIMEOUT):
        return False  # another thread is sending; beat's catch-up covers this one
    try:
        producer = publisher.connect().Producer()
        task.apply_async(args=tuple(args), producer=producer, retry=False, **options)
    except Exception as error:
        publisher.discard()
        breaker.trip(monotonic(), settings.REDIS_FAILURE_PAUSE)
        logger.warning(
            "the broker failed to take %s (%s); sends are skipped for %s s, beat catches up",
            task.name,
            error,
            settings.REDIS_FAILURE_PAUSE,
        )
        return False
    finally:
        publisher.lock.release()
    breaker.close()
    return True
