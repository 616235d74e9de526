"""The browser the page tests drive: Debian's chromium at phone size (tests/conftest.py)."""

PHONE = {"width": 390, "height": 844}
