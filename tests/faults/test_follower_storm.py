"""A follower storm (issue 25 §4): followers of the live feeds by the hundred come and go while
eight scorers enter cards, a tournament is played and the Celery worker is killed once. Every
acknowledged card is logged once; every follower that stays sees every event of its feed once
and in order; no request answers 5xx; the web's PostgreSQL connections stay within their bound
and go back to their floor once the followers have left (docs/decisions/0051-async-feeds.md)."""

from __future__ import annotations

import threading
import time

import pytest

from bench._cpu import CpuMeter
from bench._load import Writer, WriterResult, run_writers
from bench._support import load_average
from tests.faults.app import PROFILE, WEB_POOL_SIZE, WEB_WORKERS, App
from tests.faults.checks import (
    ConnectionWatch,
    FaultInjector,
    app_connections,
    latency_figures,
    left_while_waiting,
    log_differences,
    scorer_figures,
    server_errors,
    verify_projections,
    version_gaps,
    wait_for_catch_up,
)
from tests.faults.followers import Crowd, Feed, Follower, differences, logged_feed
from tests.faults.organizer import Organizer
from tests.faults.scorers import problems, scorer_steps
from tests.faults.stack import StackError, wait_until

pytestmark = pytest.mark.faults

SCORERS = 8
CATCH_UP_INTERVAL = 5.0
"""Beat's catch-up (30 s in production): the worker started after the kill learns of the work
the killed one held from it, or from the next write."""
WEB_CONNECTIONS_BOUND = WEB_WORKERS * (WEB_POOL_SIZE + 1)
"""Each web process: its pool and its feeds' one listener, however many follow."""
WEB_CONNECTIONS_FLOOR = WEB_WORKERS
"""Each web process's pool keeps one idle connection (its min_size), and no listener."""
TOURNAMENT_SHARE = 4
"""Of every 12 followers, 4 follow the tournament and 8 a match each."""
SETTLE_SECONDS = 180.0


def followers_of(tournament: Feed, matches: list[Feed]) -> list[Follower]:
    """Half stay and half come and go, a third of each on the tournament, the rest on the
    matches in turn."""
    feeds = [tournament] * TOURNAMENT_SHARE + matches
    return [
        Follower(feeds[(number // 2) % len(feeds)], stays=number % 2 == 0)
        for number in range(PROFILE.followers)
    ]


def test_followers_coming_and_going_by_the_hundred_miss_nothing_and_leave_no_connection_open(
    app: App, report: dict[str, object]
) -> None:
    steps = scorer_steps(scorers=SCORERS, rounds=PROFILE.storm_rounds, seed=6060, refused_every=2)
    scorers = [app.scorer(own) for own in steps]
    for scorer in scorers:  # each match created first, so that there is a feed to follow
        scorer.enter(scorer.steps[0], WriterResult())
    workers = [app.start_worker(catch_up_seconds=CATCH_UP_INTERVAL)]
    organizer = Organizer(app)
    tournament = Feed("tournaments", organizer.start(PROFILE.entrants))
    matches = [Feed("matches", scorer.steps[0].match_id) for scorer in scorers]
    feeds = [tournament, *matches]
    baseline = app_connections(app)

    def kill_celery_worker() -> None:
        workers[-1].kill()
        workers.append(app.start_worker(catch_up_seconds=CATCH_UP_INTERVAL))

    class Tournament(Writer):
        def run(self, result: WriterResult, stop: threading.Event) -> None:  # noqa: ARG002 - the writers' interface
            organizer.play_out(tournament.id, PROFILE.entrants)

    injector = FaultInjector(
        scorers, [(0.4, "Celery worker killed and started again", kill_celery_worker)]
    )
    watch = ConnectionWatch(app)
    crowd = Crowd(app.port, followers_of(tournament, matches), seed=6061)
    for started in (watch, crowd):
        started.start()
        app.exits.callback(started.stop)
    try:
        wait_until(
            lambda: crowd.joined() >= len(crowd.followers) // 2,
            timeout=60,
            what="half the followers to join",
        )
        meter = CpuMeter(app.database, app.server.process_group, port=app.stack.postgres.port)
        load = run_writers([*scorers, Tournament(), injector], max_seconds=600, meter=meter)
        assert load.errors == []
        catch_up = wait_for_catch_up(app)
        crowd.settle({feed: logged_feed(app, feed)[-1].position for feed in feeds})
        assert crowd.wait(SETTLE_SECONDS), crowd.lagging()
    finally:
        crowd.stop()
        organizer.close()
    settled = time.monotonic()

    def at_the_floor() -> bool:
        now = app_connections(app)
        return now.web <= WEB_CONNECTIONS_FLOOR and now.listening == now.busy == 0

    try:
        wait_until(at_the_floor, timeout=60, what="the web's connections at their floor")
    except StackError as error:
        raise AssertionError(f"{error}: {app_connections(app)}") from error
    back_seconds = time.monotonic() - settled
    after = app_connections(app)
    watch.stop()

    server_log = app.server_log()
    report.update(
        **crowd.figures(),
        # asyncio's warning for writes to a connection already lost: a stream that went on
        # writing to a follower that had left.
        writes_after_leaving_logged=sum("socket.send() raised" in entry for entry in server_log),
        requests_cancelled_after_leaving_logged=sum(map(left_while_waiting, server_log)),
        connections=(
            f"web {baseline.web} before, at most {watch.most['web']} during (bound "
            f"{WEB_CONNECTIONS_BOUND}, listeners {watch.most['listening']}), {after.web} "
            f"{back_seconds:.1f} s after; all sessions at most {watch.most['everyone']}"
        ),
        scorers=len(scorers),
        seconds=round(load.seconds, 1),
        faults={name: f"{load.latencies(name)[0]:.2f} s" for name in injector.done},
        catch_up_seconds=round(catch_up, 1),
        # PostgreSQL's CPU is left out: the pool closes idle connections within seconds here,
        # and a closed backend's CPU is not counted.
        cpu_seconds={
            "web": round(load.cpu.app or 0.0, 1),
            "scorers and followers": round(load.cpu.client, 1),
        },
        load_average=load_average(),
        latencies=latency_figures(load, ["create", "start", "play", "refused"]),
        **scorer_figures(scorers),
    )

    assert crowd.failures == []
    assert server_errors(server_log) == []
    assert [f"{f.feed.path}: {f.errors}" for f in crowd.followers if f.errors] == []
    assert set(crowd.statuses()) <= {200, 429}, crowd.statuses()
    refusals = [refusal for follower in crowd.followers for refusal in follower.refusals]
    assert all(code == "too_many_streams" and retry for code, retry in refusals), refusals
    assert injector.done == [name for _, name, _ in injector.schedule]
    assert all(scorer.steps_done == len(scorer.steps) for scorer in scorers)
    five_hundreds = {
        problem: count
        for problem, count in (problems(scorers) + organizer.ledger.problems).items()
        if problem.startswith("5")
    }
    assert five_hundreds == {}
    assert version_gaps(app) == []
    assert log_differences(app, scorers) == []
    verify_projections(app)
    assert differences(crowd, {feed: logged_feed(app, feed) for feed in feeds}) == []
    assert watch.samples > 0
    assert watch.most["web"] <= WEB_CONNECTIONS_BOUND
