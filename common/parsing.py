"""Whole numbers typed by people and programs, read strictly (decision record 0041).

`str.isdigit()` says yes to digits `int()` cannot read (`"²"`, `"①"`) and `int()` reads digits of
every script (`"٣"` is 3) and thousands of them (slowly, then not at all past 4300): a query
parameter, a form field or a cell of an imported file read that way answered 500. Here a number
is ASCII digits only, no sign, no spaces, within the bounds asked (by default what a PostgreSQL
bigint holds), and anything else is None: the caller says what it does with a number it cannot
read. Pure: the standard library only.
"""

from __future__ import annotations

import re

MAX_BIGINT = 2**63 - 1
"""The largest number a PostgreSQL bigint holds: the default upper bound."""

ASCII_DIGITS = re.compile(r"[0-9]+")


def ascii_int(text: str | None, *, minimum: int = 0, maximum: int = MAX_BIGINT) -> int | None:
    """The whole number `text` writes in ASCII digits, when it is within [minimum, maximum];
    None for anything else (absent, empty, signed, spaced, other digits, out of bounds)."""
    if text is None or not ASCII_DIGITS.fullmatch(text):
        return None
    significant = text.lstrip("0") or "0"
    if len(significant) > len(str(maximum)):
        return None
    number = int(significant)
    return number if minimum <= number <= maximum else None
