"""This process's memo of folded match states (`games.eventstore.memo`), so a command folds only
the events it has not folded before instead of its whole stream. How a load uses it, and reads
nothing when the request's place already told where the stream stands, is
`games.eventstore.loading`'s.
"""

from __future__ import annotations

from django.conf import settings

from games.eventstore.memo import Folded, StreamMemo
from games.matches.stream.state import MatchAggregate

__all__ = ["CAPACITY", "Folded", "forget_all", "memo", "recall"]

CAPACITY: int = settings.MATCH_MEMO_CAPACITY
"""Matches remembered per process (2,048 unless the settings say otherwise); a club evening has
a few hundred."""

memo: StreamMemo[MatchAggregate] = StreamMemo(CAPACITY)
recall = memo.recall
forget_all = memo.forget_all
