"""A client of the server-sent event streams for tests: a real HTTP connection to the live
server, read message by message as a browser's EventSource reads it. Every read waits at most
the connection's timeout, so a message that never comes fails the test instead of hanging it.

The live server of the streams is `asgi_server`: uvicorn serving config/asgi.py in a thread of
the test process (so on the test database), as `make run` serves it (pytest-django's
`live_server` is a WSGI server, which would send a stream only once it ended)."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest
import uvicorn
from asgiref.sync import async_to_sync
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.test import override_settings

WAIT_SECONDS = 10.0


@dataclass
class Message:
    """One message of the stream: an event (id, event, data), a retry hint, or comments."""

    id: int | None = None
    event: str | None = None
    data: Any = None
    retry: int | None = None
    comments: list[str] = field(default_factory=list)


class EventStream:
    """An open stream: its answer's status and headers, and its messages as they come."""

    def __init__(self, base_url: str, path: str, headers: dict[str, str] | None = None) -> None:
        address = urlsplit(base_url)
        assert address.hostname is not None
        self.connection = http.client.HTTPConnection(
            address.hostname, address.port, timeout=WAIT_SECONDS
        )
        self.connection.request(
            "GET", path, headers={"Accept": "text/event-stream", **(headers or {})}
        )
        self.response = self.connection.getresponse()

    @property
    def status(self) -> int:
        return self.response.status

    def header(self, name: str) -> str | None:
        return self.response.getheader(name)

    def json(self) -> Any:
        return json.loads(self.response.read())

    def messages(self) -> Iterator[Message]:
        """Each message until the server ends the stream."""
        return messages_of(iter(self.response.readline, b""))

    def events(self) -> Iterator[Message]:
        """Only the events (no retry hints or comments)."""
        return events_of(self.messages())

    def events_until(self, position: int) -> list[Message]:
        """The events up to and including the one at `position`."""
        found = []
        for message in self.events():
            found.append(message)
            if message.id is not None and message.id >= position:
                return found
        raise AssertionError(f"the stream ended before position {position}: {found}")

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def messages_of(lines: Iterable[bytes]) -> Iterator[Message]:
    """The messages of a stream read line by line (or in chunks of whole lines)."""
    message = Message()
    for chunk in lines:
        for line in chunk.decode().removesuffix("\n").split("\n"):  # only LF ends a line
            if not line:
                yield message
                message = Message()
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if not name:
                message.comments.append(value)
            elif name == "id":
                message.id = int(value)
            elif name == "event":
                message.event = value
            elif name == "data":
                message.data = json.loads(value)
            elif name == "retry":
                message.retry = int(value)


def events_of(messages: Iterable[Message]) -> Iterator[Message]:
    return (message for message in messages if message.id is not None)


T = TypeVar("T")


def run_to_the_end(function: Callable[..., Awaitable[T]], *args: Any) -> T:
    """Runs an asynchronous function to its end from a test. As asgiref's `async_to_sync` in the
    test's thread (its synchronous calls, the database's, come back to that thread), unless an
    event loop already runs there (Playwright's, from the first browser test of this process:
    tests/conftest.py): then in a thread of its own, which async_to_sync refuses to share."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return async_to_sync(function)(*args)
    with ThreadPoolExecutor(max_workers=1) as apart:
        return apart.submit(async_to_sync(function), *args).result()


def streamed_events(response: Any) -> list[Message]:
    """The events of a streaming answer of Django's test client, read to the stream's end (an
    asynchronous stream read in an event loop of its own, as the test client runs views)."""
    content = response.streaming_content
    if hasattr(content, "__aiter__"):

        async def read_all(chunks: AsyncIterator[bytes]) -> list[bytes]:
            return [chunk async for chunk in chunks]

        content = run_to_the_end(read_all, content)
    return list(events_of(messages_of(content)))


@dataclass
class AsgiServer:
    """The running server's address. It also stands in for pytest-django's `live_server` (a
    test module overrides that fixture with it), whose helper switches settings on and off."""

    url: str
    _live_server_modified_settings: override_settings = field(default_factory=override_settings)


@pytest.fixture
def asgi_server(transactional_db: None) -> Iterator[AsgiServer]:  # noqa: ARG001 - its rows are committed
    """uvicorn serving the ASGI app (config/asgi.py, and the static files as the live server
    serves them) on a free port of the loopback, in a thread of this process."""
    from config.asgi import application

    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            ASGIStaticFilesHandler(application),  # type: ignore[arg-type]  # any ASGI app
            lifespan="off",
            log_level="warning",
            access_log=False,
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_SECONDS
    while not server.started:
        assert thread.is_alive(), "uvicorn did not start"
        assert time.monotonic() < deadline, "uvicorn did not start in time"
        time.sleep(0.01)
    try:
        yield AsgiServer(url=f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(WAIT_SECONDS)
        listening.close()
