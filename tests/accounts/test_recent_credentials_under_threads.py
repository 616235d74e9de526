"""The tokens and roles this process checked (`accounts.credentials`) are shared by every thread
of a gunicorn gthread worker: checking, noting a token's use and withdrawing at once must
neither raise nor hand out an entry of a withdrawn generation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from accounts import credentials
from tests.threads import hammered

KEYS = [f"key-{number}" for number in range(6)]


@dataclass
class Person:
    pk: int


@dataclass
class TokenRow:
    user_id: int
    last_used_at: float = 0.0
    user: Person | None = None


@pytest.fixture(autouse=True)
def tokens_kept(settings: Any) -> None:
    settings.AUTH_TOKEN_CACHE_SECONDS = 60


def test_eight_threads_checking_tokens_noting_their_use_and_withdrawing_raise_nothing() -> None:
    recent = credentials.RecentTokens(most=4)

    def work(thread: int, step: int) -> None:
        key = KEYS[(thread + step) % len(KEYS)]
        generation = f"g{step // 500}"
        match step % 4:
            case 0:
                recent.put(key, (Person(thread), TokenRow(thread)), generation)
            case 1:
                found = recent.get(key, generation)
                if found is not None:
                    user, token = found
                    assert token.user is user
            case 2:
                recent.update_auth(key, last_used_at=float(step))
            case _:
                if step % 400 == 3:
                    recent.clear()

    assert hammered(work, threads=8, steps=8_000) == []
    assert len(recent.entries) <= 4


def test_a_use_noted_after_a_withdrawal_does_not_bring_the_entry_back() -> None:
    recent = credentials.RecentTokens()
    recent.put("key", (Person(1), TokenRow(1)), "g")
    recent.clear()

    recent.update_auth("key", last_used_at=1.0)

    assert len(recent.entries) == 0
