"""Rendered answers kept per process (common/bodies.py): bounded, and built once however many
threads ask for the same one at the same time."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from common.bodies import Body, BodyCache


def test_the_threads_asking_for_one_body_at_once_wait_for_a_single_build() -> None:
    kept: BodyCache[str] = BodyCache(max_bytes=1000)
    builds, release = [], threading.Event()

    def build() -> Body:
        builds.append(threading.current_thread().name)
        release.wait(30)
        return Body(b"the live part", ())

    with ThreadPoolExecutor(max_workers=5) as readers:
        asked = [readers.submit(kept.kept_or_built, "state 7", build) for _ in range(5)]
        all_in = False
        for _ in range(3000):  # until all five are in: one building, four waiting for it
            builders = kept._builders.get("state 7")
            if all_in := builders is not None and builders.users == 5:
                break
            threading.Event().wait(0.01)
        release.set()
        bodies = [future.result(30) for future in asked]

    assert all_in
    assert len(builds) == 1
    assert {body.content for body in bodies} == {b"the live part"}
    assert kept._builders == {}  # nothing left behind for the key


def test_different_bodies_are_each_built_and_one_too_big_to_keep_is_built_each_time() -> None:
    kept: BodyCache[str] = BodyCache(max_bytes=1000)
    builds = []

    def build(name: str) -> Body:
        builds.append(name)
        size = 300 if name == "a huge page" else 10  # over a quarter of the bound: not kept
        return Body(b"x" * size, ())

    for name in ("state 1", "state 2", "state 1", "a huge page", "a huge page"):
        kept.kept_or_built(name, lambda name=name: build(name))  # type: ignore[misc]

    assert builds == ["state 1", "state 2", "a huge page", "a huge page"]
