"""The one strict parser of whole numbers (common/parsing.py): no database."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from common.parsing import MAX_BIGINT, ascii_int


@pytest.mark.parametrize(
    "text",
    ["²", "①", "٣", "1²", "", " 1", "1 ", "+1", "-1", "1.0", "1e3", "0x10", "1_000", "3\n", None],
)
def test_anything_but_ascii_digits_is_not_a_number(text: str | None) -> None:
    assert ascii_int(text) is None


def test_ascii_digits_are_read_within_the_bounds_asked() -> None:
    assert ascii_int("0") == 0
    assert ascii_int("042") == 42
    assert ascii_int(str(MAX_BIGINT)) == MAX_BIGINT
    assert ascii_int(str(MAX_BIGINT + 1)) is None
    assert ascii_int("0", minimum=1) is None
    assert ascii_int("11", maximum=10) is None
    assert ascii_int("0" * 10_000 + "7", maximum=10) == 7


def test_thousands_of_digits_are_refused_without_reading_them() -> None:
    """int() refuses a string of over 4300 digits with a ValueError: that was a 500."""
    assert ascii_int("9" * 10_000) is None


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), max_size=30))
def test_no_unicode_digit_is_read_and_none_raises(text: str) -> None:
    number = ascii_int(text)

    assert number is None or (text.isascii() and number == int(text))


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=MAX_BIGINT))
def test_every_number_a_bigint_holds_reads_back(number: int) -> None:
    assert ascii_int(str(number)) == number
