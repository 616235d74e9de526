"""The bracket drawn as SVG, laid out on the server from the projected bracket document.

Every stage is drawn as sections (a knockout's main bracket, a double elimination's winners',
losers' and grand final sections, a group, a league's or a Swiss tournament's rounds), one below
the other; each round is a column of match boxes. A match is placed level with the matches that
feed it (their winners go to it), so an elimination bracket reads as a tree; rounds of pairings
(leagues, groups, Swiss) are plain columns. The template only writes out the shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.pages.labels import decided_by_text, place_text

BOX_WIDTH = 160
BOX_HEIGHT = 44
COLUMN_GAP = 32
ROW_GAP = 12
SECTION_GAP = 28
TITLE_HEIGHT = 44
MARGIN = 8
LINE_HEIGHT = 20
NAME_LENGTH = 20
"""Longer names are cut with an ellipsis in the box; the box's tooltip has them whole."""


@dataclass
class Box:
    x: int
    y: int
    key: str
    match_id: str | None
    status: str
    names: list[str]
    winner_side: int | None
    title: str
    winner_to: str | None = None
    places: list[int | None] = field(default_factory=list)
    """At a finished table of three: each seat's place (1st, 2nd, 3rd), in seat order."""
    note: str = ""
    """How a level knockout match's winner was decided off the table, when it was."""

    @property
    def text_x(self) -> int:
        return self.x + 8

    @property
    def height(self) -> int:
        """Two names in a box; a table of three has a third line."""
        return BOX_HEIGHT + LINE_HEIGHT * max(0, len(self.names) - 2)

    @property
    def place_x(self) -> int:
        """Where a place ends, right-aligned in the box."""
        return self.x + BOX_WIDTH - 8

    @property
    def rows(self) -> list[tuple[int, str, bool, str]]:
        """(y, name, won, place) of each name's line: a place ("1st") at a finished table of
        three, where a shared first place is a win for each who shares it."""
        rows = []
        for index, name in enumerate(self.names):
            place = self.places[index] if index < len(self.places) else None
            won = self.winner_side == index or place == 1
            rows.append((self.y + 17 + LINE_HEIGHT * index, name, won, place_text(place)))
        return rows

    @property
    def note_x(self) -> int:
        return self.x + BOX_WIDTH - 4

    @property
    def note_y(self) -> int:
        return self.y + self.height + 9

    @property
    def middle_y(self) -> int:
        return self.y + self.height // 2


@dataclass
class Label:
    x: int
    y: int
    text: str
    heading: bool = False


@dataclass
class Drawing:
    width: int = 0
    height: int = 0
    boxes: list[Box] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    box_width: int = BOX_WIDTH
    box_height: int = BOX_HEIGHT


def short(name: str, length: int = NAME_LENGTH) -> str:
    return name if len(name) <= length else name[: length - 1] + "…"


def section_title(stage: dict[str, Any], section: str) -> str:
    """A section's heading in the page's language."""
    if stage["kind"] == "group":
        return _("Group %(name)s") % {"name": stage["name"]}
    if stage["kind"] == "playoff":
        return _("Group %(name)s playoff") % {"name": stage["name"].removesuffix("-playoff")}
    if stage["kind"] == "swiss":
        return _("Swiss rounds")
    if stage["kind"] == "round_robin":
        return _("Round robin")
    titles = {
        "winners": _("Winners' bracket"),
        "losers": _("Losers' bracket"),
        "grand_final": _("Grand final"),
        "third_place": _("Third place"),
    }
    if section in titles:
        return titles[section]
    return _("Knockout") if stage["name"] == "knockout" else _("Bracket")


def entrant_label(entrant: int | None, status: str, names: dict[str, str]) -> str:
    if entrant is not None:
        return names.get(str(entrant), "")
    if status == "walkover":
        return pgettext("bracket", "bye")
    return pgettext("bracket", "to be decided")


def sections(bracket: dict[str, Any]) -> list[tuple[dict[str, Any], str, list[dict[str, Any]]]]:
    """(stage, section name, rounds) in the document's order."""
    found: list[tuple[dict[str, Any], str, list[dict[str, Any]]]] = []
    for stage in bracket.get("stages", []):
        by_section: dict[str, list[dict[str, Any]]] = {}
        for round_ in stage["rounds"]:
            by_section.setdefault(round_["section"], []).append(round_)
        found.extend((stage, name, rounds) for name, rounds in by_section.items())
    return found


def draw(bracket: dict[str, Any]) -> Drawing:
    """The positions of every box, connector and heading of the bracket document."""
    names: dict[str, str] = bracket.get("entrants", {})
    drawing = Drawing()
    top = MARGIN
    for stage, section, rounds in sections(bracket):
        drawing.labels.append(Label(MARGIN, top + 18, section_title(stage, section), heading=True))
        top += TITLE_HEIGHT
        placed: dict[str, Box] = {}
        bottom = top
        for column, round_ in enumerate(rounds):
            x = MARGIN + column * (BOX_WIDTH + COLUMN_GAP)
            drawing.labels.append(
                Label(
                    x,
                    top - 8,
                    pgettext("tournament round", "Round %(number)s") % {"number": round_["number"]},
                )
            )
            boxes = place_column(round_["matches"], placed, x=x, top=top, names=names)
            for box in boxes:
                placed[box.key] = box
            drawing.boxes.extend(boxes)
            column_bottom = boxes[-1].y + boxes[-1].height if boxes else top
            if round_.get("bye") is not None:
                bye = names.get(str(round_["bye"]), "")
                column_bottom += 18
                drawing.labels.append(Label(x, column_bottom, _("Bye: %(name)s") % {"name": bye}))
            bottom = max(bottom, column_bottom)
            drawing.width = max(drawing.width, x + BOX_WIDTH + MARGIN)
        drawing.lines.extend(connectors(rounds, placed))
        top = bottom + SECTION_GAP
    drawing.height = top
    return drawing


def place_column(
    matches: list[dict[str, Any]],
    placed: dict[str, Box],
    *,
    x: int,
    top: int,
    names: dict[str, str],
) -> list[Box]:
    """A round's boxes: each level with the boxes that feed it, none overlapping."""
    feeders: dict[str, list[Box]] = {}
    for box in placed.values():
        if box.winner_to:
            feeders.setdefault(box.winner_to, []).append(box)
    boxes: list[Box] = []
    next_free = top
    for match in matches:
        fed_by = feeders.get(match["key"], [])
        wanted = sum(box.y for box in fed_by) // len(fed_by) if fed_by else next_free
        y = max(wanted, next_free)
        names_ = [entrant_label(e, match["status"], names) for e in match["entrants"]]
        winner = match.get("winner")
        known = winner is not None and winner in match["entrants"]
        winner_side = match["entrants"].index(winner) if known else None
        status = match["status"]
        places = match.get("places") or []
        places = list(places) if len(places) == len(match["entrants"]) > 2 else []
        length = NAME_LENGTH - 6 if places else NAME_LENGTH  # room for the place, in bold
        note = decided_by_text(match.get("decided_by"))
        box = Box(
            places=places,
            x=x,
            y=y,
            key=match["key"],
            match_id=match.get("match_id"),
            status=status,
            names=[short(name, length) for name in names_],
            winner_side=winner_side,
            title=f"{match['key']}: {' - '.join(names_)}" + (f" ({note})" if note else ""),
            winner_to=(match.get("winner_to") or {}).get("key"),
            note=note,
        )
        boxes.append(box)
        next_free = y + box.height + ROW_GAP
    return boxes


def connectors(rounds: list[dict[str, Any]], placed: dict[str, Box]) -> list[str]:
    """SVG path data from each box to the box its winner goes to, within the section."""
    paths = []
    for round_ in rounds:
        for match in round_["matches"]:
            target_key = (match.get("winner_to") or {}).get("key")
            source, target = placed.get(match["key"]), placed.get(target_key or "")
            if source is None or target is None or target.x <= source.x:
                continue
            start_x, end_x = source.x + BOX_WIDTH, target.x
            middle_x = end_x - COLUMN_GAP // 2
            paths.append(f"M{start_x} {source.middle_y}H{middle_x}V{target.middle_y}H{end_x}")
    return paths
