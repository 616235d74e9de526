"""The organizer's choices: match points per outcome and the ordered tie-breaks."""

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from common.explained import gettext_noop
from tournaments.standings.errors import (
    DuplicateTiebreak,
    InvalidStandingsConfig,
    UnknownTiebreak,
)
from tournaments.standings.scoring import Scoring
from tournaments.standings.tiebreaks import TIEBREAK_NAMES

DEFAULT_TIEBREAKS: tuple[str, ...] = (
    "match_points",
    "head_to_head",
    "round_wins_difference",
    "card_points_difference",
    "buchholz",
    "seed",
)


@dataclass(frozen=True, slots=True)
class StandingsConfig:
    """Rows are ordered by each tie-break in turn; rows equal on all of them share a rank."""

    scoring: Scoring = field(default_factory=Scoring)
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS

    def __post_init__(self) -> None:
        # Accept any sequence of names (a list from JSON) but keep the config hashable.
        object.__setattr__(self, "tiebreaks", tuple(self.tiebreaks))
        check_tiebreaks_are_known(self.tiebreaks)

    def to_dict(self) -> dict[str, Any]:
        return {"scoring": asdict(self.scoring), "tiebreaks": list(self.tiebreaks)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "StandingsConfig":
        """Read a config stored as JSON: missing keys take defaults, unknown keys are refused."""
        scoring_data = scoring_of(data, {item.name for item in fields(Scoring)})
        check_integers(scoring_data.items())
        tiebreaks = tiebreaks_of(data, DEFAULT_TIEBREAKS)
        return cls(scoring=Scoring(**scoring_data), tiebreaks=tiebreaks)


def scoring_of(data: Mapping[str, Any], allowed: set[str]) -> Mapping[str, Any]:
    """The scoring object of a config stored as JSON (its keys among `allowed`), once the config
    has no unknown keys."""
    check_keys(data, {"scoring", "tiebreaks"}, "standings config")
    scoring_data = data.get("scoring", {})
    if not isinstance(scoring_data, Mapping):
        raise InvalidStandingsConfig.because(
            gettext_noop("scoring must be an object of match points per outcome")
        )
    check_keys(scoring_data, allowed, "scoring")
    return scoring_data


def check_integers(scoring: Iterable[tuple[str, Any]]) -> None:
    for key, value in scoring:
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidStandingsConfig.because(
                gettext_noop("scoring %(key)s must be an integer, not %(value)r"),
                key=key,
                value=value,
            )


def tiebreaks_of(data: Mapping[str, Any], default: tuple[str, ...]) -> tuple[str, ...]:
    """The tie-break names of a config stored as JSON (`default` when it names none)."""
    tiebreaks = data.get("tiebreaks", default)
    if not isinstance(tiebreaks, list | tuple) or not all(
        isinstance(name, str) for name in tiebreaks
    ):
        raise InvalidStandingsConfig.because(
            gettext_noop("tiebreaks must be a list of tie-break names")
        )
    return tuple(tiebreaks)


def check_tiebreaks_are_known(
    names: tuple[str, ...], known: tuple[str, ...] = TIEBREAK_NAMES
) -> None:
    if not names:
        raise InvalidStandingsConfig.because(
            gettext_noop("at least one tie-break is needed (usually match_points)")
        )
    for name in names:
        if name not in known:
            raise UnknownTiebreak(name, known)
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise DuplicateTiebreak.because(
            gettext_noop("each tie-break may appear once; repeated: %(repeated)s"),
            repeated=", ".join(repeated),
        )


def check_keys(data: Mapping[str, Any], allowed: set[str], what: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise InvalidStandingsConfig.because(
            gettext_noop("unknown %(what)s keys: %(unknown)s; allowed: %(allowed)s"),
            what=what,
            unknown=", ".join(unknown),
            allowed=", ".join(sorted(allowed)),
        )
