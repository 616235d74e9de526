"""The bounded map every per-process cache is kept in (`common.lru.LeastRecentlyUsed`)."""

from __future__ import annotations

from common.lru import LeastRecentlyUsed
from tests.threads import hammered


def test_the_least_recently_used_entry_goes_first_when_the_map_is_full() -> None:
    kept: LeastRecentlyUsed[str, int] = LeastRecentlyUsed(3)
    for number, key in enumerate("abc"):
        kept.put(key, number)

    kept.get("a")
    kept.put("d", 3)

    assert kept.keys() == ["c", "a", "d"]
    assert kept.get("b") is None


def test_entries_weighing_more_push_out_as_many_as_their_weight_needs() -> None:
    kept: LeastRecentlyUsed[str, bytes] = LeastRecentlyUsed(10, weight=len)
    for key in "abc":
        kept.put(key, b"xxx")

    kept.put("d", b"x" * 8)

    assert kept.keys() == ["d"]
    assert kept.size == 8


def test_a_value_its_caller_finds_stale_is_dropped_instead_of_returned() -> None:
    kept: LeastRecentlyUsed[str, int] = LeastRecentlyUsed(3)
    kept.put("a", 1)

    assert kept.get("a", stale=lambda value: value < 2) is None
    assert len(kept) == 0
    assert kept.size == 0


def test_a_put_may_leave_the_value_already_kept_in_place() -> None:
    kept: LeastRecentlyUsed[str, int] = LeastRecentlyUsed(3)
    kept.put("a", 5)

    assert kept.put("a", 4, keep=lambda old: old > 4) is False
    assert kept.put("a", 6, keep=lambda old: old > 6) is True
    assert kept.get("a") == 6


def test_a_swap_replaces_only_the_very_value_expected() -> None:
    kept: LeastRecentlyUsed[str, list[int]] = LeastRecentlyUsed(3)
    first, second = [1], [1]
    kept.put("a", first)

    assert kept.swap("a", second, [2]) is False
    assert kept.swap("a", first, [3]) is True
    assert kept.get("a") == [3]
    kept.clear()
    assert kept.swap("a", first, [4]) is False
    assert kept.get("a") is None


def test_popping_gives_the_value_once() -> None:
    kept: LeastRecentlyUsed[str, int] = LeastRecentlyUsed(3)
    kept.put("a", 1)

    assert kept.pop("a") == 1
    assert kept.pop("a") is None


def test_eight_threads_getting_putting_popping_and_clearing_at_once_keep_it_whole() -> None:
    kept: LeastRecentlyUsed[int, bytes] = LeastRecentlyUsed(64, weight=len)

    def work(thread: int, step: int) -> None:
        key = (thread * 7 + step) % 40
        match step % 5:
            case 0 | 1:
                kept.put(key, b"x" * (1 + key % 4), keep=lambda old: len(old) > 3)
            case 2:
                kept.get(key, stale=lambda value: len(value) == 2)
            case 3:
                if (value := kept.get(key)) is not None:
                    kept.swap(key, value, b"y" * len(value))
                kept.pop(key)
            case _:
                if step % 1000 == 4:
                    kept.clear()
                else:
                    kept.get(key)

    assert hammered(work, threads=8, steps=20_000) == []
    assert kept.size == sum(len(value) for key in kept if (value := kept.get(key)))
    assert kept.size <= 64
