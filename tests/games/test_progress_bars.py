"""The projection commands' progress bars are progress, not errors."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import OutputWrapper

from games.management import progress
from tests.factories.tournaments import TournamentFactory
from tournaments.projections.consumer import consume

pytestmark = pytest.mark.django_db

RED = "\x1b[31"


class Terminal(io.StringIO):
    """Standard error as a terminal that shows colours."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    "command", ["rebuild_projections", "verify_projections", "verify_log", "log_digest"]
)
def test_the_progress_bar_on_a_terminal_is_not_printed_in_red_or_line_by_line(
    command: str,
) -> None:
    TournamentFactory.create(format="single_elimination", entrants=4, started=True)
    consume()
    terminal = Terminal()

    call_command(command, stdout=io.StringIO(), stderr=terminal, force_color=True)

    printed = terminal.getvalue()
    assert "events" in printed
    assert RED not in printed
    assert "\n" not in printed.rstrip("\n")


def test_a_quiet_command_does_not_count_the_events_it_shows_no_bar_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def count_refused() -> int:
        raise AssertionError("counted the events of a quiet command")

    monkeypatch.setattr(progress, "match_event_count", count_refused)
    terminal = Terminal()

    with progress.event_progress(OutputWrapper(terminal), quiet=True, label="rebuild") as tick:
        tick()

    assert terminal.getvalue() == ""
