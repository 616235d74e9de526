"""A per-process memo of folded match states, so a command folds only the events it has not
folded before instead of its whole stream.

Events never change, so a state folded up to version V of a stream stays right for ever; newer
events are read after V. A state is remembered only once its transaction has committed (a
rolled-back read or write never enters the memo), and it is trusted only when the event at V is
still the one it was folded from (same global position), so a log rebuilt under a running process
is refolded rather than believed.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from uuid import UUID

from django.db import transaction

from games.matches.stream import MatchAggregate

CAPACITY = 2048
"""Matches remembered per process; a club evening has a few hundred."""


@dataclass(frozen=True)
class Folded:
    state: MatchAggregate
    version: int
    position: int
    """Global position of the event at `version`."""


_memo: OrderedDict[UUID, Folded] = OrderedDict()


def recall(match_id: UUID) -> Folded | None:
    folded = _memo.get(match_id)
    if folded is not None:
        _memo.move_to_end(match_id)
    return folded


def remember_on_commit(match_id: UUID, folded: Folded) -> None:
    transaction.on_commit(lambda: _remember(match_id, folded))


def _remember(match_id: UUID, folded: Folded) -> None:
    known = _memo.get(match_id)
    if known is not None and known.version > folded.version:
        return
    _memo[match_id] = folded
    _memo.move_to_end(match_id)
    while len(_memo) > CAPACITY:
        _memo.popitem(last=False)


def forget_all() -> None:
    _memo.clear()
