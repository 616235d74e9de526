"""This process's memo of folded tournament states (`games.eventstore.memo`, decision record
0012, amended), so a load folds only the events this process has not folded before instead of
the whole tournament stream; how a load uses it is `games.eventstore.loading`'s. A command's
load keeps its row lock (`tournaments.services.pipeline.lock_tournament`): the memo only
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
