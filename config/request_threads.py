"""A WSGI application served from an ASGI server, each request on one of a few threads in one hop.

uvicorn serves the whole site (decision 0051), but every request other than an event stream is
synchronous code: the middleware, the view, the answer. Django's ASGI handler runs such a request
behind a middleware chain it adapts call by call between the event loop and a thread, and
bridges that hand every read and write of the body over one at a time, each waiting for the
other thread to let go of the interpreter: under load, several milliseconds of waiting and of CPU
a request. Here (decision 0067) the loop reads the body, one of the process's threads runs the
WSGI application to its answer, and the loop sends it: one hand-over each way.

The answer is gathered on the thread before it is sent, streamed answers included (the exports,
a static file): the thread then closes it, which is when Django ends the request and gives the
database connection back to the pool, on the thread that took it. The event streams, the one
answer that must not be gathered, never come here (config/asgi.py).
"""

from __future__ import annotations

import asyncio
import io
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import Any

Scope = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[dict[str, Any]], Any]
WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def environ_of(scope: Scope, body: bytes) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of an ASGI HTTP request whose body has been read."""
    root_path = scope.get("root_path", "")
    path = scope["path"]
    if root_path and path.startswith(root_path):
        path = path[len(root_path) :]
    server_name, server_port = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root_path.encode().decode("latin-1"),
        "PATH_INFO": path.encode().decode("latin-1"),
        "QUERY_STRING": scope["query_string"].decode("latin-1"),
        "SERVER_NAME": str(server_name),
        "SERVER_PORT": str(server_port),
        "SERVER_PROTOCOL": f"HTTP/{scope['http_version']}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    client = scope.get("client")
    if client:
        environ["REMOTE_ADDR"] = client[0]
    for raw_name, raw_value in scope["headers"]:
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        key = name if name in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{name}"
        value = raw_value.decode("latin-1")
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


@dataclass
class Answer:
    """What the WSGI application answered, gathered on its thread."""

    status: int = 500
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    body: bytes = b""


def answered(app: WsgiApp, environ: dict[str, Any]) -> Answer:
    """Run the WSGI application to its whole answer and close it (on the calling thread)."""
    answer = Answer()
    written: list[bytes] = []

    def start_response(status: str, headers: list[tuple[str, str]], _exc_info: Any = None) -> Any:
        answer.status = int(status.split(" ", 1)[0])
        answer.headers = [  # Django's Set-Cookie values start with a space, as WSGI allows
            (name.strip().lower().encode("latin-1"), value.strip().encode("latin-1"))
            for name, value in headers
        ]
        return written.append

    result = app(environ, start_response)
    try:
        chunks = list(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    answer.body = b"".join([*written, *chunks])
    return answer


async def read_body(receive: Receive) -> bytes | None:
    """The request's whole body; None if the client went away first."""
    parts: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        parts.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(parts)


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


@dataclass
class _Job:
    future: Future[Any]
    work: Callable[[], Any]


class CommandsFirst:
    """A process's request threads, which take a command (a request that writes: POST, PUT,
    PATCH, DELETE) before any read waiting, and leave `kept_for_commands` of them to commands
    alone: a scorer's card never queues behind the pages that followers refresh by the dozen
    when a tournament moves (decision record 0068). Within each kind, first come, first
    served. The threads start with the first request (in the worker process, not before it
    is forked)."""

    def __init__(self, threads: int, *, kept_for_commands: int) -> None:
        if threads < 1:
            raise ValueError("a request needs a thread")
        self.threads = threads
        self.reads_at_most = max(1, threads - kept_for_commands)
        self._condition = threading.Condition()
        self._commands: deque[_Job] = deque()
        self._reads: deque[_Job] = deque()
        self._reading = 0
        self._started = False

    def submit(self, work: Callable[[], Any], *, command: bool) -> Future[Any]:
        """Run `work` on a thread when its turn comes; its result (or exception) to come."""
        job = _Job(Future(), work)
        with self._condition:
            (self._commands if command else self._reads).append(job)
            if not self._started:
                self._started = True
                for number in range(self.threads):
                    name = f"request-{number}"
                    threading.Thread(target=self._serve, name=name, daemon=True).start()
            self._condition.notify()
        return job.future

    def _next(self) -> tuple[_Job, bool]:
        """The next job this thread may take (waiting until there is one), and whether it is
        a read."""
        with self._condition:
            while True:
                if self._commands:
                    return self._commands.popleft(), False
                if self._reads and self._reading < self.reads_at_most:
                    self._reading += 1
                    return self._reads.popleft(), True
                self._condition.wait()

    def _serve(self) -> None:
        while True:
            job, read = self._next()
            if job.future.set_running_or_notify_cancel():  # not if the client went away
                try:
                    job.future.set_result(job.work())
                except BaseException as error:
                    job.future.set_exception(error)
            if read:
                with self._condition:
                    self._reading -= 1
                    self._condition.notify()


class RequestThreads:
    """An ASGI application serving `app` (WSGI) on `threads` threads of this process: a request
    waits for a free thread here, not for a database connection in the pool; a command before
    the reads waiting (`CommandsFirst`)."""

    def __init__(self, app: WsgiApp, *, threads: int, kept_for_commands: int = 0) -> None:
        self.app = app
        self.threads = CommandsFirst(threads, kept_for_commands=kept_for_commands)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await read_body(receive)
        if body is None:
            return
        environ = environ_of(scope, body)
        command = scope["method"] not in SAFE_METHODS
        answer = await asyncio.wrap_future(
            self.threads.submit(partial(answered, self.app, environ), command=command)
        )
        await send(
            {"type": "http.response.start", "status": answer.status, "headers": answer.headers}
        )
        await send({"type": "http.response.body", "body": answer.body})
