"""A follower's connection to a live feed (`.../events/stream/`), as cheap as a client can be:
one asyncio connection, no thread. The request is HTTP/1.0, so the answer is not chunked: its
body is the stream itself, which ends when the server closes the connection. Shared by the
championship bench and the fault suite's follower storm."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bench._support import LOOPBACK


@dataclass
class OpenedStream:
    """A stream's answer: its status and headers (names in lower case), and the reader past
    them (the events of a 200, the JSON error otherwise)."""

    status: int
    headers: dict[str, str]
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    def close(self) -> None:
        """Leave: the connection is closed at once, whatever the server was sending."""
        self.writer.close()


async def open_stream(port: int, path: str, *, last_event_id: str = "") -> OpenedStream:
    """Send the stream's request, anonymous (resuming after `last_event_id` when given), and
    read the answer's status and headers."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    request = [f"GET {path} HTTP/1.0", f"Host: {LOOPBACK}", "Accept: text/event-stream"]
    if last_event_id:
        request.append(f"Last-Event-ID: {last_event_id}")
    try:
        writer.write(("\r\n".join(request) + "\r\n\r\n").encode())
        status = int((await reader.readline()).split()[1])
        headers = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
    except BaseException:
        writer.close()
        raise
    return OpenedStream(status, headers, reader, writer)
