"""The bracket's layout: an elimination bracket reads as a tree, rounds of pairings as columns."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from tournaments.pages.drawing import BOX_HEIGHT, draw

NAMES = {"1": "Anna", "2": "Bruno", "3": "Carla", "4": "Dario"}


@pytest.fixture(autouse=True)
def in_english() -> Iterator[None]:
    """The drawing's words are in the active language: English here, whatever language an
    earlier test's request left active in this thread (these tests run after the database's)."""
    with translation.override("en"):
        yield


def match(
    key: str, entrants: list[int | None], winner_to: str | None = None, **fields: Any
) -> dict[str, Any]:
    return {
        "key": key,
        "match_id": None,
        "entrants": entrants,
        "status": "ready",
        "winner": None,
        "winner_to": None if winner_to is None else {"key": winner_to, "side": "home"},
        **fields,
    }


def knockout() -> dict[str, Any]:
    semis = [match("R1-1", [1, 4], "R2-1", winner=1), match("R1-2", [2, 3], "R2-1")]
    final = [match("R2-1", [1, None], status="pending")]
    rounds = [
        {"number": 1, "section": "main", "matches": semis},
        {"number": 2, "section": "main", "matches": final},
    ]
    stage = {"name": "bracket", "kind": "single_elimination", "complete": False, "rounds": rounds}
    return {"stages": [stage], "entrants": NAMES}


def test_a_final_is_drawn_level_between_its_semi_finals_and_joined_to_both() -> None:
    drawing = draw(knockout())

    boxes = {box.key: box for box in drawing.boxes}
    semi_one, semi_two, final = boxes["R1-1"], boxes["R1-2"], boxes["R2-1"]
    assert final.x > semi_one.x == semi_two.x
    assert final.y == (semi_one.y + semi_two.y) // 2
    assert semi_two.y >= semi_one.y + BOX_HEIGHT
    assert len(drawing.lines) == 2
    assert drawing.width >= final.x + drawing.box_width


def test_boxes_name_the_entrants_and_mark_the_winner_and_the_unknown() -> None:
    boxes = {box.key: box for box in draw(knockout()).boxes}

    assert (boxes["R1-1"].names, boxes["R1-1"].winner_side) == (["Anna", "Dario"], 0)
    assert (boxes["R2-1"].names, boxes["R2-1"].winner_side) == (["Anna", "to be decided"], None)


def test_rounds_of_pairings_are_columns_with_their_byes_and_no_connectors() -> None:
    rounds = [
        {"number": n, "section": "league", "bye": n, "matches": [match(f"L{n}", [n % 3 + 1, 4])]}
        for n in (1, 2, 3)
    ]
    stage = {"name": "league", "kind": "round_robin", "complete": False, "rounds": rounds}

    drawing = draw({"stages": [stage], "entrants": NAMES})

    assert len({box.x for box in drawing.boxes}) == 3
    assert drawing.lines == []
    texts = [label.text for label in drawing.labels]
    assert texts[0] == "Round robin"
    assert "Bye: Anna" in texts


def test_a_long_name_is_cut_in_its_box_and_whole_in_its_title() -> None:
    long_name = "Maria Giovanna della Rovere"
    bracket = knockout() | {"entrants": NAMES | {"4": long_name}}

    semi = next(box for box in draw(bracket).boxes if box.key == "R1-1")

    assert semi.names[1].endswith("…")
    assert len(semi.names[1]) == 20
    assert long_name in semi.title


def test_a_finished_table_of_three_is_a_taller_box_with_each_place_and_shared_wins() -> None:
    table = match("K1-1", [1, 2, 3], status="finished", winner=None, places=[1, 1, 3])
    stage = {
        "name": "knockout",
        "kind": "threes_knockout",
        "complete": False,
        "rounds": [{"number": 1, "section": "main", "matches": [table]}],
    }

    (box,) = draw({"stages": [stage], "entrants": NAMES}).boxes

    assert box.height == BOX_HEIGHT + 20
    assert [(name, won, place) for _, name, won, place in box.rows] == [
        ("Anna", True, "1st"),
        ("Bruno", True, "1st"),
        ("Carla", False, "3rd"),
    ]
    assert box.title == "K1-1: Anna - Bruno - Carla"


def test_a_match_decided_off_the_table_carries_a_note_and_a_playoff_its_own_heading() -> None:
    bracket = knockout()
    bracket["stages"][0]["rounds"][0]["matches"][0]["decided_by"] = "higher_seed"
    playoff = {
        "name": "A-playoff",
        "kind": "playoff",
        "complete": True,
        "rounds": [{"number": 4, "section": "A-playoff", "matches": [match("A-PO-1", [1, 4])]}],
    }
    bracket["stages"].insert(0, playoff)

    drawing = draw(bracket)

    boxes = {box.key: box for box in drawing.boxes}
    assert boxes["R1-1"].note == "decided by the higher seed"
    assert "decided by the higher seed" in boxes["R1-1"].title
    assert boxes["R1-2"].note == ""
    assert "Group A playoff" in [label.text for label in drawing.labels if label.heading]
