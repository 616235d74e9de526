"""Names checked for characters that break a line, and spreadsheet cells that cannot start a
formula (common/text.py): no database."""

from __future__ import annotations

import pytest

from common.text import code_point, control_character_in, spreadsheet_cell


@pytest.mark.parametrize(
    ("name", "found"),
    [
        ("Ada\rBruno", (4, "\r")),
        ("Ada\nBruno", (4, "\n")),
        ("\tAda", (1, "\t")),
        ("Ada\x1b[31m", (4, "\x1b")),
        ("Ada\x85", (4, "\x85")),
        ("Ada\u2028Bruno", (4, "\u2028")),
        ("Ada\x7f", (4, "\x7f")),
    ],
)
def test_a_control_character_or_line_separator_is_found_with_its_position(
    name: str, found: tuple[int, str]
) -> None:
    assert control_character_in(name) == found


@pytest.mark.parametrize("name", ["Ada", "Nicolò D'Amico", "أحمد", "Ada\u200bBruno", "I Leoni 🦁"])
def test_a_name_in_any_script_with_zero_width_characters_has_no_control_character(
    name: str,
) -> None:
    assert control_character_in(name) is None


def test_a_character_nobody_sees_is_named_by_its_code_point() -> None:
    assert code_point("\r") == "U+000D"


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(1+1)", "'@SUM(1+1)"),
        ("\tAda", "'\tAda"),
        ("\rAda", "'\rAda"),
        ("Ada", "Ada"),
        ("", ""),
        (-3, -3),
        (-2.5, -2.5),
        (0, 0),
        (None, None),
    ],
)
def test_a_text_cell_that_a_spreadsheet_would_run_is_neutralised_and_numbers_stay_numbers(
    cell: object, written: object
) -> None:
    assert spreadsheet_cell(cell) == written
