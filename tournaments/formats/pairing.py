"""A pairing: two known entrants meeting in a round (round robin and Swiss)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Pairing:
    """`id` is stable: `R<round>-<table>` (prefixed by the group label in groups: `A-R1-2`)."""

    id: str
    home: int
    away: int

    @property
    def entrants(self) -> tuple[int, int]:
        return (self.home, self.away)


def pairing_id(round_number: int, table: int, *, prefix: str = "") -> str:
    return f"{prefix}R{round_number}-{table}"
