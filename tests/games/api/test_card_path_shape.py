"""A card play reads as one straight line (issue 28): parse, authorize, load, decide, append
(projection inline), notify, answer. Followed call by call through the project's own modules,
the path visits few modules and seldom calls back into one it has left; docs/architecture.md
gives the figures this test prints (`pytest -s`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.games.api.builders import dealt_match, play_body, play_cards, post, round_url

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[3]
APP_FOLDERS = ("accounts", "common", "config", "games", "tournaments")
PURE_CORES = ("games.rules", "games.matches.stream")
"""Each pure core counts as one step of the path (decide, evolve): what happens inside is the
rules' business, tested on its own."""

MODULES_AT_MOST = 37
REENTRIES_AT_MOST = 40
"""Bounds a little above today's figures (docs/architecture.md): a change that lengthens the
card's path again fails here and says by how much."""


def app_module(frame: FrameType) -> str | None:
    """The app's module that `frame` runs in (None: Django, DRF, the tests, the library)."""
    path = Path(frame.f_code.co_filename)
    if not path.is_relative_to(ROOT):
        return None
    relative = path.relative_to(ROOT)
    if relative.parts[0] not in APP_FOLDERS:
        return None
    module = ".".join(relative.with_suffix("").parts)
    return next((core for core in PURE_CORES if module.startswith(f"{core}.")), module)


@dataclass
class Path_:
    """The app's modules in the order the calls entered them."""

    entered: list[str] = field(default_factory=list)
    reentries: list[str] = field(default_factory=list)
    """Calls into a module of the Django side already left earlier in the path (not the one
    running): a hook calling back into its caller, a helper asked twice."""
    stack: list[str | None] = field(default_factory=list)

    def on_event(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            module = app_module(frame)
            running = next((m for m in reversed(self.stack) if m is not None), None)
            if module is not None and module != running:
                if module in self.entered:
                    if module not in PURE_CORES:  # the state's accessors are the state's
                        self.reentries.append(module)
                else:
                    self.entered.append(module)
            self.stack.append(module)
        elif event == "return" and self.stack:
            self.stack.pop()


@contextmanager
def followed() -> Iterator[Path_]:
    path = Path_()
    sys.setprofile(path.on_event)
    try:
        yield path
    finally:
        sys.setprofile(None)


def test_a_card_play_follows_one_line_through_few_modules(scorer: APIClient) -> None:
    match_id, plays = dealt_match(scorer)
    play_cards(scorer, match_id, 1, plays[:2])

    with followed() as path:
        response = post(scorer, round_url(match_id, 1, "plays"), play_body(plays[2]))

    assert response.status_code == 201, response.json()
    print(
        f"\na card play: {len(path.entered)} modules, {len(path.reentries)} calls back into one"
        f" already left\n  path: {' > '.join(path.entered)}\n  back into: {path.reentries}"
    )
    assert "games.eventstore.pipeline" in path.entered
    assert len(path.entered) <= MODULES_AT_MOST, path.entered
    assert len(path.reentries) <= REENTRIES_AT_MOST, path.reentries
