"""A client of the server-sent event streams for tests: a real HTTP connection to the live
server, read message by message as a browser's EventSource reads it. Every read waits at most
the connection's timeout, so a message that never comes fails the test instead of hanging it."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

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


def streamed_events(response: Any) -> list[Message]:
    """The events of a streaming answer of Django's test client, read to the stream's end."""
    return list(events_of(messages_of(response.streaming_content)))
