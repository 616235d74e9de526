"""The organizer's configuration: known tie-breaks only, stored as JSON and read back."""

import pytest

from tournaments.standings.config import DEFAULT_TIEBREAKS, StandingsConfig
from tournaments.standings.errors import DuplicateTiebreak, InvalidStandingsConfig, UnknownTiebreak
from tournaments.standings.scoring import Scoring


def test_an_unknown_tiebreak_is_refused_with_the_code_unknown_tiebreak_and_the_known_names() -> (
    None
):
    with pytest.raises(UnknownTiebreak) as caught:
        StandingsConfig(tiebreaks=("match_points", "buchholtz"))

    assert caught.value.code == "unknown_tiebreak"
    assert caught.value.name == "buchholtz"
    assert "'buchholtz'" in caught.value.detail
    assert "median_buchholz" in caught.value.detail
    assert caught.value.to_dict() == {"code": "unknown_tiebreak", "detail": caught.value.detail}


def test_a_tiebreak_listed_twice_is_refused() -> None:
    with pytest.raises(DuplicateTiebreak) as caught:
        StandingsConfig(tiebreaks=("match_points", "buchholz", "buchholz"))

    assert caught.value.code == "duplicate_tiebreak"
    assert "buchholz" in caught.value.detail


def test_an_empty_list_of_tiebreaks_is_refused() -> None:
    with pytest.raises(InvalidStandingsConfig) as caught:
        StandingsConfig(tiebreaks=())

    assert caught.value.code == "invalid_standings_config"


def test_a_list_of_tiebreak_names_is_kept_as_a_tuple_so_the_config_stays_hashable() -> None:
    config = StandingsConfig(tiebreaks=["match_points", "seed"])  # type: ignore[arg-type]

    assert config.tiebreaks == ("match_points", "seed")
    assert hash(config) == hash(StandingsConfig(tiebreaks=("match_points", "seed")))


def test_the_default_config_scores_two_one_zero_and_two_for_a_bye() -> None:
    config = StandingsConfig()

    assert config.scoring == Scoring(win=2, tie=1, loss=0, bye=2, forfeit_loss=0)
    assert config.tiebreaks == DEFAULT_TIEBREAKS


def test_a_config_survives_a_round_trip_through_a_dict() -> None:
    config = StandingsConfig(
        scoring=Scoring(win=3, tie=1, loss=0, bye=3, forfeit_loss=-1),
        tiebreaks=("match_points", "sonneborn_berger", "median_buchholz"),
    )

    data = config.to_dict()

    assert data == {
        "scoring": {"win": 3, "tie": 1, "loss": 0, "bye": 3, "forfeit_loss": -1},
        "tiebreaks": ["match_points", "sonneborn_berger", "median_buchholz"],
    }
    assert StandingsConfig.from_dict(data) == config


def test_a_config_read_from_a_dict_takes_defaults_for_missing_keys() -> None:
    config = StandingsConfig.from_dict({"scoring": {"win": 3}})

    assert config == StandingsConfig(scoring=Scoring(win=3))


def test_an_unknown_tiebreak_in_a_stored_config_is_refused_with_its_code() -> None:
    with pytest.raises(UnknownTiebreak):
        StandingsConfig.from_dict({"tiebreaks": ["match_points", "koya"]})


@pytest.mark.parametrize(
    "data",
    [
        {"tiebreak": ["match_points"]},
        {"scoring": {"draw": 1}},
        {"scoring": {"win": "2"}},
        {"scoring": {"win": True}},
        {"scoring": [2, 1, 0]},
        {"tiebreaks": "match_points"},
        {"tiebreaks": ["match_points", 3]},
        {"tiebreaks": 3},
    ],
)
def test_a_malformed_stored_config_is_refused_with_the_code_invalid_standings_config(
    data: dict[str, object],
) -> None:
    with pytest.raises(InvalidStandingsConfig) as caught:
        StandingsConfig.from_dict(data)

    assert caught.value.code == "invalid_standings_config"
