"""A webhook receiver on the loopback for the tests: an HTTP server in a thread (port 0) that
answers each request as its script says and keeps what it was sent; it verifies signatures as a
receiver should (HMAC-SHA256 of "<timestamp>.<body>", compared with hmac.compare_digest)."""

from __future__ import annotations

import hashlib
import hmac
import json
import ssl
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from typing_extensions import override


@dataclass(frozen=True)
class Received:
    """One request: its path, headers, raw body and the answer it was given."""

    path: str
    headers: dict[str, str]
    body: bytes
    answered: int

    @property
    def document(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed

    @property
    def delivery(self) -> int:
        return int(self.headers["X-Briscola-Delivery"])

    @property
    def position(self) -> int:
        return int(self.document["event"]["position"])

    def signed_by(self, secret: str) -> bool:
        """Whether the signature is the secret's, as a receiver checks it."""
        signed = self.headers["X-Briscola-Timestamp"].encode() + b"." + self.body
        expected = "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected, self.headers["X-Briscola-Signature"])


Headers = dict[str, str]

Script = Callable[["Receiver", str, dict[str, str]], tuple[int, dict[str, str]]]
"""The answer to a request (its status and headers), given the receiver, path and headers."""


def always(status: int) -> Script:
    return lambda _receiver, _path, _headers: (status, {})


def failing_first(failures: int) -> Script:
    """HTTP 500 to the first `failures` attempts of each delivery, then 200."""

    def answer(receiver: Receiver, _path: str, headers: dict[str, str]) -> tuple[int, Headers]:
        delivery = headers.get("X-Briscola-Delivery", "")
        earlier = [r for r in receiver.requests if r.headers.get("X-Briscola-Delivery") == delivery]
        return (500 if len(earlier) < failures else 200), {}

    return answer


def redirecting_to(url: str) -> Script:
    return lambda _receiver, _path, _headers: (302, {"Location": url})


@dataclass
class Receiver:
    script: Script = field(default_factory=lambda: always(200))
    requests: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks/briscola"

    def handle(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str]]:
        with self.lock:
            status, extra = self.script(self, path, headers)
            self.requests.append(Received(path, headers, body, status))
        return status, extra

    def received(self) -> list[Received]:
        with self.lock:
            return list(self.requests)

    def accepted(self) -> list[Received]:
        """The requests answered 2xx."""
        return [r for r in self.received() if 200 <= r.answered < 300]


def handler_for(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            status, extra = receiver.handle(self.path, dict(self.headers.items()), body)
            self.send_response(status)
            for name, value in extra.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()

        @override
        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler


@contextmanager
def receiving(
    script: Script | None = None, *, tls: ssl.SSLContext | None = None
) -> Iterator[Receiver]:
    """A receiver listening on 127.0.0.1 (a free port) until the block ends; over TLS with
    `tls` (a server context with its certificate)."""
    receiver = Receiver() if script is None else Receiver(script=script)
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(receiver))
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    receiver.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def self_signed(directory: Path, host: str) -> tuple[Path, Path]:
    """A certificate for `host` signed by its own key (openssl): the certificate and key files."""
    certificate, key = directory / f"{host}.pem", directory / f"{host}.key"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            f"/CN={host}",
            "-addext",
            f"subjectAltName=DNS:{host}",
            "-keyout",
            str(key),
            "-out",
            str(certificate),
        ],
        check=True,
        capture_output=True,
    )
    return certificate, key


def server_context(certificate: Path, key: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    return context
