"""A per-process memo of folded tournament states, so a load folds only the events this process
has not folded before instead of the whole tournament stream (decision record 0012, amended).

As for matches (`games.folded`): events never change, so a state folded up to version V stays
right for ever. A state is remembered only once its transaction has committed (a rolled-back
read or write never enters the memo: its positions may be drawn again by another append), and
it is trusted only when the event at V is still the one it was folded from (same global
position), which the load checks by reading the stream from V on: a stream moved on by another
process is folded from there, a log rebuilt under the process is folded again from the start.

The load keeps its row lock (`tournaments.services.pipeline.load_for_command`): the memo only
shortens what is read and folded after the lock is taken.
"""

from __future__ import annotations

from django.conf import settings

from games.eventstore.memo import Folded, StreamMemo
from tournaments.state import TournamentState

__all__ = ["CAPACITY", "Folded", "forget", "forget_all", "memo", "recall", "remember_on_commit"]

CAPACITY: int = settings.TOURNAMENT_MEMO_CAPACITY
"""Tournaments remembered per process (64 unless the settings say otherwise); a club runs a few
at a time, and a state of 1,024 entrants is a few megabytes."""


memo: StreamMemo[TournamentState] = StreamMemo(CAPACITY)
recall = memo.recall
remember_on_commit = memo.remember_on_commit
forget = memo.forget
forget_all = memo.forget_all
