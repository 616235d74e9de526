"""A per-process memo of folded tournament states, so a load folds only the events this process
has not folded before instead of the whole tournament stream (decision record 0012, amended).

As for matches (`games.folded`): events never change, so a state folded up to version V stays
right for ever. A state is remembered only once its transaction has committed (a rolled-back
read or write never enters the memo: its positions may be drawn again by another append), and
it is trusted only when the event at V is still the one it was folded from (same global
position), which the load checks by reading the stream from V on: a stream moved on by another
process is folded from there, a log rebuilt under the process is folded again from the start.

The load keeps its row lock (`tournaments.services.load_for_command`): the memo only shortens
what is read and folded after the lock is taken.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from uuid import UUID

from django.db import transaction

from tournaments.state import TournamentState

CAPACITY = 64
"""Tournaments remembered per process; a club runs a few at a time, and a state of 1,024
entrants is a few megabytes."""


@dataclass(frozen=True)
class Folded:
    state: TournamentState
    version: int
    position: int
    """Global position of the event at `version`."""


_memo: OrderedDict[UUID, Folded] = OrderedDict()


def recall(tournament_id: UUID) -> Folded | None:
    known = _memo.get(tournament_id)
    if known is not None:
        _memo.move_to_end(tournament_id)
    return known


def remember_on_commit(tournament_id: UUID, folded: Folded) -> None:
    transaction.on_commit(lambda: _remember(tournament_id, folded))


def _remember(tournament_id: UUID, folded: Folded) -> None:
    known = _memo.get(tournament_id)
    if known is not None and known.version > folded.version:
        return
    _memo[tournament_id] = folded
    _memo.move_to_end(tournament_id)
    while len(_memo) > CAPACITY:
        _memo.popitem(last=False)


def forget(tournament_id: UUID) -> None:
    _memo.pop(tournament_id, None)


def forget_all() -> None:
    _memo.clear()
