"""Every request but a stream, served from uvicorn by the WSGI handler on one of the process's
request threads in one hand-over each way (config/request_threads.py, decision 0067)."""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
from collections.abc import Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings

from config.request_threads import CommandsFirst, RequestThreads, environ_of

SCOPE = {
    "type": "http",
    "method": "POST",
    "path": "/api/v1/matches/",
    "root_path": "",
    "query_string": b"limit=5&after=2",
    "http_version": "1.1",
    "scheme": "http",
    "server": ("127.0.0.1", 8000),
    "client": ("10.0.0.7", 51234),
    "headers": [
        (b"content-type", b"application/json"),
        (b"content-length", b"13"),
        (b"authorization", b"Token abc"),
        (b"x-forwarded-for", b"1.2.3.4"),
        (b"x-forwarded-for", b"5.6.7.8"),
    ],
}


def served(app: Any, scope: dict[str, Any], body_parts: list[bytes]) -> list[dict[str, Any]]:
    """What `RequestThreads(app)` sends for a request whose body comes in `body_parts`."""
    sent: list[dict[str, Any]] = []
    incoming = [
        {"type": "http.request", "body": part, "more_body": index < len(body_parts) - 1}
        for index, part in enumerate(body_parts)
    ]

    async def receive() -> dict[str, Any]:
        return incoming.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    run_loop(RequestThreads(app, threads=2)(scope, receive, send))
    return sent


def run_loop(served: Coroutine[Any, Any, None]) -> None:
    """Run `served` in an event loop of its own thread, as uvicorn's process would."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="loop") as loop_thread:
        loop_thread.submit(asyncio.run, served).result()


def test_the_environ_says_what_the_request_said() -> None:
    environ = environ_of(SCOPE, b'{"seat": 0}')
    assert environ["REQUEST_METHOD"] == "POST"
    assert environ["PATH_INFO"] == "/api/v1/matches/"
    assert environ["QUERY_STRING"] == "limit=5&after=2"
    assert environ["CONTENT_TYPE"] == "application/json"
    assert environ["CONTENT_LENGTH"] == "13"
    assert environ["HTTP_AUTHORIZATION"] == "Token abc"
    assert environ["HTTP_X_FORWARDED_FOR"] == "1.2.3.4,5.6.7.8"  # a repeated header, joined
    assert environ["REMOTE_ADDR"] == "10.0.0.7"
    assert (environ["SERVER_NAME"], environ["SERVER_PORT"]) == ("127.0.0.1", "8000")
    assert environ["wsgi.input"].read() == b'{"seat": 0}'


def test_a_mounted_prefix_is_the_script_name_not_part_of_the_path() -> None:
    environ = environ_of({**SCOPE, "root_path": "/club", "path": "/club/api/v1/"}, b"")
    assert (environ["SCRIPT_NAME"], environ["PATH_INFO"]) == ("/club", "/api/v1/")


class Recording:
    """A WSGI app that answers the body it read, and records the threads it ran and was
    closed on."""

    def __init__(self) -> None:
        self.ran_on: str | None = None
        self.closed_on: str | None = None

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        self.ran_on = threading.current_thread().name
        body = environ["wsgi.input"].read()
        start_response(
            "201 Created",
            [("Content-Type", "text/plain"), ("X-Seen", "yes"), ("Set-Cookie", " a=b; Path=/")],
        )
        app = self

        class Answer(list[bytes]):
            def close(self) -> None:
                app.closed_on = threading.current_thread().name

        return Answer([b"got ", body])


def test_the_answer_is_the_apps_with_the_whole_body_read_first() -> None:
    app = Recording()
    sent = served(app, SCOPE, [b'{"seat"', b": 0}"])
    start, body = sent
    assert start["status"] == 201
    assert (b"x-seen", b"yes") in start["headers"]
    assert (b"set-cookie", b"a=b; Path=/") in start["headers"]  # as Django writes it, trimmed
    assert body == {"type": "http.response.body", "body": b'got {"seat": 0}'}


def test_the_app_runs_and_is_closed_on_one_request_thread_not_the_event_loops() -> None:
    app = Recording()
    served(app, SCOPE, [b""])
    assert app.ran_on is not None
    assert app.ran_on.startswith("request")
    assert app.closed_on == app.ran_on  # where Django gives the database connection back


def test_a_client_gone_before_its_body_arrived_runs_nothing() -> None:
    app = Recording()
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    run_loop(RequestThreads(app, threads=1)(SCOPE, receive, send))
    assert app.ran_on is None
    assert sent == []


def test_a_web_process_lets_a_waiting_thread_have_the_interpreter_within_a_millisecond() -> None:
    import config.asgi  # noqa: F401 - the web process's module sets it when imported

    assert sys.getswitchinterval() == settings.WEB_SWITCH_INTERVAL == 0.001


def test_a_web_process_keeps_what_it_loaded_out_of_the_collectors_full_passes() -> None:
    import config.asgi  # noqa: F401 - the web process's module freezes what it loaded

    assert gc.get_freeze_count() > 10_000  # the app's modules, the URLs, the settings
    assert gc.get_threshold() == settings.WEB_GC_THRESHOLDS == (1000, 20, 100)


class Gate:
    """Work that records its name when it starts and waits until the gate opens."""

    def __init__(self) -> None:
        self.opened = threading.Event()
        self.started: list[str] = []
        self.lock = threading.Lock()

    def work(self, name: str) -> Any:
        def run() -> str:
            with self.lock:
                self.started.append(name)
            self.opened.wait(30)
            return name

        return run

    def wait_started(self, count: int) -> None:
        for _ in range(3000):
            with self.lock:
                if len(self.started) >= count:
                    return
            threading.Event().wait(0.01)
        raise AssertionError(f"{count} jobs never started: {self.started}")


def test_a_command_waiting_is_served_before_the_reads_that_came_first() -> None:
    threads, gate = CommandsFirst(1, kept_for_commands=0), Gate()
    busy = threads.submit(gate.work("busy"), command=False)
    gate.wait_started(1)
    waiting = [threads.submit(gate.work(name), command=False) for name in ("read 1", "read 2")]
    command = threads.submit(gate.work("card"), command=True)

    gate.opened.set()

    assert [f.result(30) for f in (busy, *waiting, command)] == ["busy", "read 1", "read 2", "card"]
    assert gate.started == ["busy", "card", "read 1", "read 2"]


def test_the_reads_never_take_the_threads_kept_for_commands() -> None:
    threads, gate = CommandsFirst(3, kept_for_commands=1), Gate()
    reads = [threads.submit(gate.work(f"read {n}"), command=False) for n in range(3)]
    gate.wait_started(2)

    card = threads.submit(lambda: "card", command=True)

    assert card.result(30) == "card"  # while two reads hold their threads
    assert sorted(gate.started) == ["read 0", "read 1"]  # the third waits for one of them
    gate.opened.set()
    assert [f.result(30) for f in reads] == ["read 0", "read 1", "read 2"]


def test_what_a_request_raised_reaches_the_request_that_waits_for_it() -> None:
    def failing() -> None:
        raise LookupError("no such match")

    failed = CommandsFirst(1, kept_for_commands=0).submit(failing, command=True)

    assert isinstance(failed.exception(30), LookupError)
