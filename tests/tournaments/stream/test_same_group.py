"""Who must not meet in the log (decision record 0057): the group on `EntrantRegistered` and
`EntrantCorrected`, the settings on `TournamentCreated`, each written only when set so that the
payloads recorded before read as they always did."""

import pytest

from tournaments.errors import InvalidFormatOption, TournamentAlreadyStarted
from tournaments.state import TournamentSettings
from tournaments.stream.commands import CorrectEntrant, CreateTournament, RegisterEntrant
from tournaments.stream.decide import decide
from tournaments.stream.events import (
    EntrantCorrected,
    EntrantRegistered,
    TournamentCreated,
    TournamentStarted,
    decode,
    encode,
)
from tournaments.stream.evolve import evolve, fold

SETTINGS = TournamentSettings(format="swiss", table_size=2)


@pytest.mark.parametrize(
    ("event", "payload"),
    [
        (
            EntrantRegistered(7, group="Bar Sport"),
            {"entrant": 7, "seed": None, "group": "Bar Sport"},
        ),
        (
            EntrantCorrected(7, ("group",), reason="new club", group="Aurora"),
            {"entrant": 7, "changed": ["group"], "group": "Aurora", "reason": "new club"},
        ),
        (
            EntrantCorrected(7, ("group",), reason="no club"),
            {"entrant": 7, "changed": ["group"], "group": None, "reason": "no club"},
        ),
    ],
)
def test_a_group_is_stored_and_read_back(event: object, payload: dict[str, object]) -> None:
    stored = encode(event)  # type: ignore[arg-type]

    assert stored[1] == payload
    assert decode(*stored) == event


def test_the_settings_are_left_out_of_the_payload_at_their_defaults_and_read_back() -> None:
    assert "avoid_same_group" not in SETTINGS.to_dict()
    assert TournamentSettings.from_dict(SETTINGS.to_dict()) == SETTINGS
    apart = TournamentSettings(
        format="swiss", table_size=2, avoid_same_group="always", avoid_same_group_strength="soft"
    )
    assert apart.to_dict()["avoid_same_group"] == "always"
    assert TournamentSettings.from_dict(apart.to_dict()) == apart


def test_an_unknown_setting_is_an_invalid_format_option() -> None:
    wrong = TournamentSettings(format="swiss", table_size=2, avoid_same_group="sometimes")

    with pytest.raises(InvalidFormatOption):
        decide(None, CreateTournament("Coppa", wrong))


def test_a_group_is_folded_trimmed_and_corrected_before_the_start_only() -> None:
    state = fold([TournamentCreated("Coppa", SETTINGS)])
    [registered] = decide(state, RegisterEntrant(7, players=1, group="  Bar Sport "))
    state = evolve(state, registered)
    assert state.entrants[7].group == "Bar Sport"

    [corrected] = decide(state, CorrectEntrant(7, "new club", ("group",), group=" "))
    state = evolve(state, corrected)
    assert state.entrants[7].group is None
    assert decide(state, CorrectEntrant(7, "again", ("group",), group=None)) == []

    started = evolve(state, TournamentStarted((7,)))
    with pytest.raises(TournamentAlreadyStarted):
        decide(started, CorrectEntrant(7, "too late", ("group",), group="Aurora"))
