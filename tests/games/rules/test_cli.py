"""The command line is a public interface: these tests pin its input and output formats."""

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.rules.cli import main
from games.rules.tables import Table

PROJECT_ROOT = Path(__file__).resolve().parents[3]


def replay(*records: object) -> tuple[int, list[dict[str, Any]]]:
    """Run `replay -` on records (dicts are written as JSON, strings as they are)."""
    lines = [record if isinstance(record, str) else json.dumps(record) for record in records]
    stdout = io.StringIO()
    status = main(["replay", "-"], io.StringIO("\n".join(lines) + "\n"), stdout)
    return status, [json.loads(line) for line in stdout.getvalue().splitlines()]


def simulate(*options: str) -> list[dict[str, Any]]:
    stdout = io.StringIO()
    assert main(["simulate", *options], io.StringIO(), stdout) == 0
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def physical(plays: list[list[object]], **fields: object) -> dict[str, object]:
    return {"table_size": 2, "leader": 1, "briscola": "7D", "plays": plays, **fields}


def test_an_unfinished_round_lists_its_tricks_and_the_cards_on_the_table() -> None:
    status, [report] = replay(physical([[1, "5C"], [0, "AC"], [0, "3S"]]))

    assert status == 0
    assert report == {
        "complete": False,
        "tricks": [
            {"leader": 1, "plays": [[1, "5C"], [0, "1C"]], "winner": 0, "points": 11},
            {"leader": 0, "plays": [[0, "3S"]], "winner": None, "points": 10},
        ],
        "points": [11, 0],
        "result": None,
    }


def test_a_round_without_plays_is_legal_and_incomplete() -> None:
    status, [report] = replay(physical([]))

    assert status == 0
    assert report == {"complete": False, "tricks": [], "points": [0, 0], "result": None}


@pytest.mark.parametrize("table_size", [2, 3, 4, 6])
def test_a_complete_round_reports_every_trick_the_points_per_side_and_the_result(
    table_size: int,
) -> None:
    [record] = simulate("--table-size", str(table_size), "--seed", "11")

    status, [report] = replay(record)

    assert status == 0
    assert report["complete"] is True
    assert len(report["tricks"]) == len(Table(table_size).deck) // table_size
    assert [play for trick in report["tricks"] for play in trick["plays"]] == record["plays"]
    assert len(report["points"]) == (3 if table_size == 3 else 2)
    assert sum(report["points"]) == 120
    best = max(report["points"])
    leaders = [side for side, points in enumerate(report["points"]) if points == best]
    assert report["result"] == (f"side{leaders[0]}" if len(leaders) == 1 else "tie")


def test_a_round_without_its_deck_replays_the_same_as_with_it() -> None:
    [record] = simulate("--table-size", "4", "--seed", "3")
    physical_record = {key: value for key, value in record.items() if key != "deck"}

    _, [dealt_report, physical_report] = replay(record, physical_record)

    assert dealt_report == physical_report


FULL_ROUND = simulate("--table-size", "2", "--seed", "1")[0]
DECK: list[str] = FULL_ROUND["deck"]


@pytest.mark.parametrize(
    ("record", "code", "play_index"),
    [
        ("{not json", "invalid_input", None),
        ("[1, 2]", "invalid_input", None),
        ({"leader": 1, "briscola": "7D", "plays": []}, "invalid_input", None),
        ({**physical([]), "plays": "1D"}, "invalid_input", None),
        (physical([], leader=None), "invalid_input", None),
        (physical([], dealer=1), "invalid_input", None),
        (physical([], table_size=5), "invalid_table_size", None),
        (physical([], table_size=4, variant={"hand_size": 9}), "invalid_variant", None),
        (physical([], variant={"hand": 9}), "invalid_variant", None),
        (physical([], leader=2), "invalid_seat", None),
        (physical([], briscola="ZZ"), "invalid_card", None),
        (physical([], briscola=None), "missing_briscola", None),
        (physical([], table_size=6, leader=0, briscola="2D"), "card_not_in_deck", None),
        (physical([], deck=DECK[:-1]), "invalid_deck", None),
        (physical([[1, "5C"], [0, "XX"]]), "invalid_card", 1),
        (physical([[1, "5C"], [0]]), "invalid_input", 1),
        (physical([[1, "5C"], [2, "6C"]]), "invalid_seat", 1),
        (physical([[0, "5C"]]), "not_your_turn", 0),
        (physical([[1, "5C"], [0, "6C"], [0, "1D"], [0, "2D"]]), "not_your_turn", 3),
        (physical([[1, "5C"], [0, "5C"]]), "card_already_played", 1),
        (physical([[0, "2D"]], table_size=6, leader=0), "card_not_in_deck", 0),
        (physical([[1, "7D"]]), "briscola_not_drawn", 0),
        ({**FULL_ROUND, "plays": [[FULL_ROUND["leader"], DECK[1]]]}, "card_not_in_hand", 0),
        ({**FULL_ROUND, "briscola": DECK[0]}, "invalid_deck", None),
        ({**FULL_ROUND, "plays": [*FULL_ROUND["plays"], [0, "1D"]]}, "round_finished", 40),
    ],
)
def test_an_illegal_round_reports_its_error_code_and_the_offending_play(
    record: object, code: str, play_index: int | None
) -> None:
    status, [report] = replay(record)

    assert status == 1
    assert report["error"]["code"] == code
    assert report["error"]["play_index"] == play_index
    assert report["error"]["detail"]


def test_the_first_offending_play_is_reported_even_if_a_later_one_is_unreadable() -> None:
    _, [report] = replay(physical([[0, "5C"], [1, "not a card"]]))

    assert report["error"]["code"] == "not_your_turn"
    assert report["error"]["play_index"] == 0


def test_every_line_is_answered_and_any_illegal_one_makes_the_status_1() -> None:
    good, bad = physical([[1, "5C"]]), physical([[0, "5C"]])

    status, reports = replay(good, "", "   ", bad, good)

    assert status == 1
    assert ["error" in report for report in reports] == [False, True, False]


def test_the_status_is_0_when_every_line_is_legal(tmp_path: Path) -> None:
    rounds = tmp_path / "rounds.jsonl"
    rounds.write_text("\n".join(json.dumps(physical([[1, "5C"]])) for _ in range(3)))
    stdout = io.StringIO()

    assert main(["replay", str(rounds)], io.StringIO(), stdout) == 0
    assert len(stdout.getvalue().splitlines()) == 3


def test_simulated_rounds_are_the_same_for_the_same_seed_and_differ_for_another() -> None:
    first = simulate("--table-size", "3", "--rounds", "5", "--seed", "7")

    assert simulate("--table-size", "3", "--rounds", "5", "--seed", "7") == first
    assert simulate("--table-size", "3", "--rounds", "5", "--seed", "8") != first


def test_simulated_rounds_name_their_deck_dealer_and_variant() -> None:
    [record] = simulate("--table-size", "2", "--variant", '{"hand_size": 9}')

    assert len(record["deck"]) == 40
    assert record["leader"] == (record["dealer"] + 1) % 2
    assert record["variant"]["hand_size"] == 9
    assert replay(record)[1][0]["complete"] is True


def run_module(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        check=False,
    )


def test_simulate_output_replays_complete_through_the_module_command() -> None:
    simulated = run_module("simulate", "--table-size", "4", "--rounds", "20", "--seed", "7")

    replayed = run_module("replay", "-", stdin=simulated.stdout)

    assert (simulated.returncode, replayed.returncode) == (0, 0)
    reports = [json.loads(line) for line in replayed.stdout.splitlines()]
    assert len(reports) == 20
    assert all(report["complete"] for report in reports)


def test_the_module_command_exits_1_on_an_illegal_round() -> None:
    result = run_module("replay", "-", stdin=json.dumps(physical([[0, "5C"]])) + "\n")

    assert result.returncode == 1
    assert json.loads(result.stdout)["error"]["code"] == "not_your_turn"


@pytest.mark.parametrize("args", [[], ["replay"], ["simulate"]])
def test_help_describes_the_commands(args: list[str]) -> None:
    result = run_module(*args, "--help")

    assert result.returncode == 0
    assert "usage:" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--table-size", "5"],
        ["simulate", "--variant", "{"],
        ["simulate", "--variant", '{"hand_size": 9}', "--table-size", "4"],
        ["simulate", "--rounds", "-1"],
        ["replay", "/nonexistent/rounds.jsonl"],
    ],
)
def test_bad_options_are_usage_errors_with_status_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(args, io.StringIO(), io.StringIO())

    assert exit_.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_a_line_with_bytes_that_are_not_utf8_is_reported_not_fatal() -> None:
    line = b'{"table_size": 2, "leader": 1, "briscola": "7D", "plays": [[1, "5\xff"]]}\n'

    result = subprocess.run(
        [sys.executable, "-m", "games.rules", "replay", "-"],
        input=line,
        capture_output=True,
        cwd=PROJECT_ROOT,
        check=False,
    )

    assert result.returncode == 1
    assert json.loads(result.stdout)["error"]["code"] == "invalid_card"


def test_a_round_of_french_cards_is_read_and_reported_with_french_suit_letters() -> None:
    french = {"deck_names": "french"}
    status, [report] = replay(physical([[1, "5h"], [0, "AH"], [0, "3S"]], variant=french))

    assert status == 0
    assert report["tricks"][0] == {
        "leader": 1,
        "plays": [[1, "5H"], [0, "AH"]],
        "winner": 0,
        "points": 11,
    }


def test_an_italian_suit_letter_in_a_round_of_french_cards_is_refused_at_its_play() -> None:
    record = physical([[1, "5H"], [0, "1B"]], variant={"deck_names": "french"})

    status, [report] = replay(record)

    assert status == 1
    assert report["error"]["code"] == "invalid_card"
    assert report["error"]["play_index"] == 1
    assert "Italian suit letter B" in report["error"]["detail"]


def test_six_french_players_with_48_cards_simulate_rounds_that_replay_to_120_points() -> None:
    variant = '{"deck_names": "french", "six_player_deck": 48}'
    records = simulate("--table-size", "6", "--rounds", "3", "--variant", variant)

    status, reports = replay(*records)

    assert status == 0
    assert all(sum(report["points"]) == 120 for report in reports)
    assert all(len(report["tricks"]) == 8 for report in reports)
    assert any(card in records[0]["deck"] for card in ("8C", "9H", "8S", "9D"))


def test_rounds_at_three_simulated_under_at_least_61_replay_with_no_winner_below_61() -> None:
    variant = '{"three_winner": "at_least_61"}'
    records = simulate("--table-size", "3", "--rounds", "40", "--seed", "3", "--variant", variant)

    status, reports = replay(*records)

    assert status == 0
    assert all(record["variant"]["three_winner"] == "at_least_61" for record in records)
    short = [report for report in reports if max(report["points"]) < 61]
    assert short
    assert all(report["result"] == "tie" for report in short)
    assert all(
        report["result"] == f"side{report['points'].index(max(report['points']))}"
        for report in reports
        if max(report["points"]) >= 61
    )


def test_the_at_least_61_rule_at_two_players_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exit_status:
        simulate("--table-size", "2", "--variant", '{"three_winner": "at_least_61"}')

    assert exit_status.value.code == 2
