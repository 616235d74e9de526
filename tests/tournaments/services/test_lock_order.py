"""Every tournament command takes the tournament's row before the log's append lock, so a
command waiting for a tournament never holds up the rest of the log (and two writers never wait
for each other the other way round, which PostgreSQL would end by aborting one)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from common.actors import Actor
from tests.games.eventstore.builders import append, in_threads
from tests.workers import wait_for
from tournaments.models import Tournament
from tournaments.services import pipeline, registration

pytestmark = pytest.mark.django_db(transaction=True)

ORGANIZER = Actor(user_id=1)
WAIT = 10  # seconds; only reached when a test is about to fail


def waiting_for_a_row_lock() -> bool:
    """Whether a session of the test database waits for a lock it was not granted (the
    check-in, for the tournament's row), as `pg_locks` shows it."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks JOIN pg_stat_activity USING (pid) "
            "WHERE NOT pg_locks.granted AND pg_stat_activity.datname = current_database())"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def test_a_command_waiting_for_its_tournament_does_not_hold_the_log() -> None:
    tournament = registration.tournament_create(
        name="Circolo", format="swiss", table_size=2, actor=ORGANIZER
    )
    entrant = registration.registered_entrant_id(
        registration.entrant_register(
            tournament_id=tournament.id, name="Anna", players=["Anna"], actor=ORGANIZER
        )
    )
    row_locked = threading.Event()
    may_commit = threading.Event()
    check_in_started = threading.Event()

    def holder() -> bool:
        """Another writer of the tournament (the consumer syncing a result, say). True when it
        was let commit by the append, false when it gave up waiting (the append waited)."""
        with transaction.atomic():
            Tournament.objects.select_for_update().get(id=tournament.id)
            row_locked.set()
            return may_commit.wait(WAIT)

    def checker() -> bool:
        row_locked.wait(WAIT)
        check_in_started.set()
        registration.entrant_check_in(
            tournament_id=tournament.id, entrant_id=entrant, actor=ORGANIZER
        )
        return True

    def other_writer() -> bool:
        """A scorer at another table appends while the check-in waits for the tournament.
        True when the check-in was still waiting once the append was done."""
        check_in_started.wait(WAIT)
        wait_for(waiting_for_a_row_lock, timeout=WAIT, what="the check-in to wait", log=lambda: "")
        append()
        still_waiting = waiting_for_a_row_lock()
        may_commit.set()
        return still_waiting

    work = [holder, checker, other_writer]
    let_commit, _, check_in_still_waiting = in_threads(lambda i: work[i](), 3)

    # The append went through while the tournament's row was held and the check-in waited for
    # it: had it waited behind the check-in, the holder would have given up waiting instead.
    assert let_commit is True
    assert check_in_still_waiting is True
    assert pipeline.load_tournament(tournament_id=tournament.id)[0].entrants[entrant].checked_in
