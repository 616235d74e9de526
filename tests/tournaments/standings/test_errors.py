"""Inputs the standings refuse, each with a stable code."""

import pytest

import tournaments.standings.errors
from tests.tournaments.standings.builders import beat, standings
from tournaments.standings.errors import (
    DuplicateEntrant,
    InvalidResult,
    StandingsError,
    UnknownEntrant,
)
from tournaments.standings.results import Entrant, MatchResult


def error_classes() -> list[type[StandingsError]]:
    defined = vars(tournaments.standings.errors).values()
    return [
        item
        for item in defined
        if isinstance(item, type)
        and issubclass(item, StandingsError)
        and item is not StandingsError
    ]


def test_every_standings_error_has_its_own_stable_code() -> None:
    codes = sorted(error.code for error in error_classes())

    assert codes == [
        "duplicate_entrant",
        "duplicate_tiebreak",
        "invalid_result",
        "invalid_standings_config",
        "unknown_entrant",
        "unknown_tiebreak",
    ]


def test_an_error_reports_its_code_and_detail() -> None:
    error = InvalidResult("why")

    assert error.to_dict() == {"code": "invalid_result", "detail": "why"}
    assert isinstance(error, ValueError)


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"first": 1, "second": 1, "winner": 1}, "itself"),
        ({"first": 1, "second": 2, "winner": 3}, "did not play"),
        ({"first": 1, "second": 2, "winner": None, "forfeit": True}, "forfeit needs a winner"),
        ({"first": 1, "second": 2, "winner": 1, "first_rounds": -1}, "negative"),
        ({"first": 1, "second": 2, "winner": 1, "second_points": -5}, "negative"),
        ({"first": 1, "second": None, "winner": None}, "bye is won"),
        ({"first": 1, "second": None, "winner": 2}, "bye is won"),
        ({"first": 1, "second": None, "winner": 1, "forfeit": True}, "cannot be a forfeit"),
        ({"first": 1, "second": None, "winner": 1, "first_rounds": 2}, "no rounds"),
        ({"first": 1, "second": None, "winner": 1, "first_points": 60}, "no rounds"),
    ],
)
def test_an_inconsistent_result_is_refused_with_the_code_invalid_result(
    fields: dict[str, int | bool | None], reason: str
) -> None:
    with pytest.raises(InvalidResult, match=reason) as caught:
        MatchResult(**fields)  # type: ignore[arg-type]

    assert caught.value.code == "invalid_result"


def test_a_result_for_an_entrant_not_in_the_standings_is_refused() -> None:
    with pytest.raises(UnknownEntrant, match="entrant 9") as caught:
        standings([1, 2], [beat(1, 9)])

    assert caught.value.code == "unknown_entrant"


def test_an_entrant_listed_twice_is_refused() -> None:
    with pytest.raises(DuplicateEntrant) as caught:
        standings([Entrant(1, seed=1), Entrant(1, seed=2)], [])

    assert caught.value.code == "duplicate_entrant"


def test_a_result_tells_whether_it_is_a_bye_and_which_entrants_it_involves() -> None:
    assert MatchResult.bye(4).is_bye
    assert MatchResult.bye(4).entrants == (4,)
    assert not MatchResult(first=1, second=2, winner=None).is_bye
    assert MatchResult(first=1, second=2, winner=2, forfeit=True).entrants == (1, 2)
