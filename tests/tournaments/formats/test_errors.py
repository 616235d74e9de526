"""Every error an organizer can trigger has a stable code and a clear detail."""

import pytest

from tournaments.formats.double_elimination import double_elimination_bracket
from tournaments.formats.errors import (
    DuplicateEntrant,
    FormatError,
    InvalidEntrant,
    InvalidFormatOption,
    InvalidStandings,
    SlotNotPlayable,
    SwissRoundOutOfRange,
    TooFewEntrants,
    UnknownSlot,
    WinnerNotInSlot,
)
from tournaments.formats.single_elimination import single_elimination_bracket


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (TooFewEntrants, "too_few_entrants"),
        (DuplicateEntrant, "duplicate_entrant"),
        (InvalidEntrant, "invalid_entrant"),
        (InvalidFormatOption, "invalid_format_option"),
        (UnknownSlot, "unknown_slot"),
        (SlotNotPlayable, "slot_not_playable"),
        (WinnerNotInSlot, "winner_not_in_slot"),
        (InvalidStandings, "invalid_standings"),
        (SwissRoundOutOfRange, "swiss_round_out_of_range"),
    ],
)
def test_each_error_has_a_stable_code_and_reports_itself_as_a_dict(
    error: type[FormatError], code: str
) -> None:
    raised = error("what went wrong")

    assert isinstance(raised, FormatError)
    assert isinstance(raised, ValueError)
    assert raised.to_dict() == {"code": code, "detail": "what went wrong"}


@pytest.mark.parametrize("builder", [single_elimination_bracket, double_elimination_bracket])
def test_a_bracket_needs_two_entrants(builder: object) -> None:
    with pytest.raises(TooFewEntrants, match="at least 2 entrants, got 1"):
        builder([5])  # type: ignore[operator]


def test_an_entrant_listed_twice_is_named() -> None:
    with pytest.raises(DuplicateEntrant, match="entrant 5 is listed more than once"):
        single_elimination_bracket([5, 6, 5])


@pytest.mark.parametrize("entrant", ["5", True, 5.0])
def test_entrant_ids_must_be_integers(entrant: object) -> None:
    with pytest.raises(InvalidEntrant):
        single_elimination_bracket([1, entrant])  # type: ignore[list-item]


def test_asking_a_bracket_for_a_slot_it_lacks_names_the_slot() -> None:
    with pytest.raises(UnknownSlot, match="'L1-1'"):
        single_elimination_bracket([1, 2]).slot("L1-1")
