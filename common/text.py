"""Text that other programs read: names checked for characters that break a line, and cells of a
spreadsheet that cannot start a formula (decision record 0041). Pure: the standard library only.
"""

from __future__ import annotations

import unicodedata

LINE_BREAKING_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})
"""Control characters (C0, DEL, C1: tab, line feed, carriage return, escape...) and the line and
paragraph separators: each ends or disturbs a line of a calendar, a CSV file, a log or a page."""

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (OWASP's list for CSV injection)."""
FORMULA_ESCAPE = "'"


def control_character_in(text: str) -> tuple[int, str] | None:
    """The first control character (or line or paragraph separator) of `text` and its position
    (from 1); None when there is none."""
    for position, character in enumerate(text, start=1):
        if unicodedata.category(character) in LINE_BREAKING_CATEGORIES:
            return position, character
    return None


def code_point(character: str) -> str:
    """`U+000D`: a character no reader would see, named."""
    return f"U+{ord(character):04X}"


def spreadsheet_cell(value: object) -> object:
    """A value for a CSV cell that a spreadsheet cannot take for a formula: a text beginning
    with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'` (shown, not
    evaluated). Numbers stay numbers: a negative number we write is a number, not a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return FORMULA_ESCAPE + value
    return value
