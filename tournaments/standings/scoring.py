"""Match points for each outcome."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Scoring:
    """Match points per outcome. A bye counts as a win; a forfeit loss may be penalised."""

    win: int = 2
    tie: int = 1
    loss: int = 0
    bye: int = 2
    forfeit_loss: int = 0
