"""The web server's listening socket (config/serve.py, decision 0067): every connection it
accepts sends without waiting for the client's delayed acknowledgement."""

from __future__ import annotations

import socket

from config.serve import arguments, listening_socket


def test_every_accepted_connection_has_nagles_algorithm_turned_off() -> None:
    listener = listening_socket("127.0.0.1", 0)
    listener.listen()
    try:
        with socket.create_connection(listener.getsockname()) as _client:
            accepted, _address = listener.accept()
            with accepted:
                assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
                assert accepted.proto == socket.IPPROTO_TCP  # so asyncio sets it again
    finally:
        listener.close()


def test_the_listening_socket_is_handed_down_to_the_worker_processes() -> None:
    listener = listening_socket("127.0.0.1", 0)
    try:
        assert listener.get_inheritable()
    finally:
        listener.close()


def test_the_command_line_takes_what_the_procfile_and_the_image_give_it() -> None:
    every_address = "0.0.0.0"  # noqa: S104 - the image listens on every address
    given = ["--host", every_address, "--port", "8000", "--workers", "3"]
    args = arguments([*given, "--timeout-graceful-shutdown", "20"])
    assert (args.host, args.port, args.workers) == (every_address, 8000, 3)
    assert args.timeout_graceful_shutdown == 20
    assert args.app == "config.asgi:application"
