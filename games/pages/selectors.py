"""What the match and replay pages show, read through the API's selectors and visibility rules.

The pages show a viewer exactly what the API's match and replay reads show them: the hands come
from `games.matches.selectors.round_replay` with the viewer `games.visibility.viewer_of`
resolves, never from the rows directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from games.matches import selectors
from games.models import Match, Round, RoundStatus, Scoring
from games.rules.tables import Table
from games.rules.variants import Variant
from games.visibility import Viewer

TIE = "tie"


@dataclass(frozen=True)
class SideView:
    index: int
    name: str
    round_wins: int
    total_points: int
    won: bool
    confirmed: bool
    disputed: bool


@dataclass(frozen=True)
class RulingView:
    """The organizer's ruling on a round (decision record 0045): its points, its winner (None
    for a tie) and why."""

    points: str
    winner: str | None
    reason: str


def ruling_view(row: Round, names: list[str]) -> RulingView | None:
    if row.ruling is None or row.status == RoundStatus.VOIDED:
        return None
    return RulingView(
        points=points_text(row.ruling["points"]),
        winner=side_won(row.result, names),
        reason=row.ruling["reason"],
    )


@dataclass(frozen=True)
class CorrectionView:
    """The organizer's correction of a finished round's card (decision record 0048): card
    `number` (1 for the round's first, as the replay counts them), played by `player`, is
    `card`, recorded as `previous_card`; card `other_number`, by `other_player`, took
    `previous_card`."""

    number: int
    player: str
    card: str
    previous_card: str
    other_number: int
    other_player: str
    reason: str


def corrections_view(row: Round, table: Table, names: list[str]) -> list[CorrectionView]:
    if row.status == RoundStatus.VOIDED:
        return []
    return [
        CorrectionView(
            number=correction["play_index"] + 1,
            player=seat_player(table, correction["seat"], names),
            card=correction["card"],
            previous_card=correction["previous_card"],
            other_number=correction["swapped_with"] + 1,
            other_player=seat_player(table, row.plays[correction["swapped_with"]][0], names),
            reason=correction["reason"],
        )
        for correction in row.corrections
    ]


@dataclass(frozen=True)
class RoundView:
    number: int
    status: str
    briscola: str | None
    points: list[int]
    result: str | None
    winner: str | None
    """The name of the side that won the round; None for a tie, a void or a round in play."""
    tie: bool
    replay_of: int | None
    replayed_by: int | None
    """For a tied round: the round that replays it."""
    points_entered: bool
    plays: int
    void_reason: str
    ruling: RulingView | None = None
    corrections: tuple[str, ...] = ()
    """The reasons of the organizer's corrections of its cards (decision record 0048)."""
    deciding: bool = False
    """A round after the fixed rounds of a match scored by points: a deciding round."""


@dataclass(frozen=True)
class LevelView:
    """A match scored by points that was level after its fixed rounds (decision records 0029,
    0045): the regulation total, and the deciding round that won it, if one did."""

    rounds: int
    regulation: str
    """The total of the fixed rounds, its sides joined by an en dash."""
    deciding_round: int | None
    deciding_points: str | None


@dataclass(frozen=True)
class MarkView:
    """A side's confirmation or dispute, with the result it was of (decision record 0044)."""

    kind: str
    """`confirmed` or `disputed`."""
    side: int
    name: str
    version: int
    """The stream version of its event."""
    rounds: list[dict[str, Any]]
    """The rounds that counted then: `{"number": 1, "points": [80, 40]}`."""
    winner: str | None
    forfeited_by: str | None
    standing: bool
    reason: str
    """A dispute's reason (decision record 0045); "" for a confirmation."""


@dataclass(frozen=True)
class MatchPage:
    match: Match
    sides: list[SideView]
    rounds: list[RoundView]
    deck_names: str
    by_points: bool
    winner: str | None
    forfeited_by: str | None
    marks: list[MarkView]
    """Every confirmation and dispute, in the order they were recorded."""
    level: LevelView | None = None
    """Set once a match scored by points ended its fixed rounds level."""


def name_of(side: int | None, names: list[str]) -> str | None:
    return None if side is None else names[side]


def marks_of(match: Match, names: list[str]) -> list[MarkView]:
    marks = [
        MarkView(
            kind=kind,
            side=mark["side"],
            name=names[mark["side"]],
            version=mark["version"],
            rounds=mark["result"]["rounds"],
            winner=name_of(mark["result"]["winner"], names),
            forfeited_by=name_of(mark["result"]["forfeited_by"], names),
            standing=mark["standing"],
            reason=mark.get("reason", ""),
        )
        for kind, recorded in (("confirmed", match.confirmations), ("disputed", match.disputes))
        for mark in recorded
    ]
    return sorted(marks, key=lambda mark: mark.version)


def points_text(points: list[int]) -> str:
    return "\N{EN DASH}".join(map(str, points))


def deciding_numbers(match: Match, rounds: list[Round]) -> set[int]:
    """The rounds played after the fixed rounds of a match scored by points."""
    if match.scoring != Scoring.POINTS:
        return set()
    live = [row.number for row in rounds if row.status != RoundStatus.VOIDED]
    return set(live[match.best_of :])


def level_of(match: Match, rounds: list[Round]) -> LevelView | None:
    regulation = match.regulation_points
    played = [row for row in rounds if row.status == RoundStatus.FINISHED]
    if match.scoring != Scoring.POINTS or not regulation or len(played) < match.best_of:
        return None
    if regulation.count(max(regulation)) < 2:  # the most points, held by one side only
        return None
    deciding = next((row for row in played if row.number == match.deciding_round), None)
    return LevelView(
        rounds=match.best_of,
        regulation=points_text(regulation),
        deciding_round=None if deciding is None else deciding.number,
        deciding_points=None if deciding is None else points_text(deciding.points),
    )


def deck_names_of(match: Match) -> str:
    return Variant.from_recorded(match.variant).deck_names


def side_won(result: str | None, names: list[str]) -> str | None:
    if result is None or not result.startswith("side"):
        return None
    return names[int(result.removeprefix("side"))]


def match_page(*, match_id: UUID) -> MatchPage:
    """The match, its sides by name, and its rounds with their results and tie replays."""
    match = selectors.match_get(match_id=match_id)
    names = selectors.match_side_names(match=match)
    rounds = list(match.rounds.all())
    replays = {row.replay_of: row.number for row in rounds if row.replay_of is not None}
    deciding = deciding_numbers(match, rounds)
    return MatchPage(
        match=match,
        sides=[
            SideView(
                index=side,
                name=name,
                round_wins=match.round_wins[side] if side < len(match.round_wins) else 0,
                total_points=match.total_points[side] if side < len(match.total_points) else 0,
                won=match.winner == side,
                confirmed=side in match.confirmed_by,
                disputed=side in match.disputed_by,
            )
            for side, name in enumerate(names)
        ],
        rounds=[
            RoundView(
                number=row.number,
                status=row.status,
                briscola=row.briscola,
                points=list(row.points),
                result=row.result,
                winner=side_won(row.result, names),
                tie=row.result == TIE,
                replay_of=row.replay_of,
                replayed_by=replays.get(row.number),
                points_entered=row.points_entered,
                plays=len(row.plays),
                void_reason=row.void_reason,
                ruling=ruling_view(row, names),
                corrections=tuple(
                    correction["reason"]
                    for correction in ([] if row.status == RoundStatus.VOIDED else row.corrections)
                ),
                deciding=row.number in deciding,
            )
            for row in rounds
        ],
        deck_names=deck_names_of(match),
        by_points=match.scoring == Scoring.POINTS,
        winner=name_of(match.winner, names),
        forfeited_by=name_of(match.forfeited_by, names),
        marks=marks_of(match, names),
        level=level_of(match, rounds),
    )


# The replay of one round.


@dataclass(frozen=True)
class SeatCard:
    seat: int
    player: str
    """The side's name, with the player's place in the side at tables of four and six."""
    card: str


@dataclass(frozen=True)
class TrickView:
    number: int
    plays: list[SeatCard]
    winner: SeatCard | None
    """The play that won the trick; None while it is on the table."""
    points: int | None
    running: list[int]
    """Each side's points after this trick."""


@dataclass(frozen=True)
class HandView:
    seat: int
    player: str
    cards: list[str]


@dataclass(frozen=True)
class ReplayPage:
    match: Match
    round: Round
    sides: list[str]
    deck_names: str
    step: int
    steps: int
    """The cards played in the whole round: steps go from 0 to this."""
    table: TrickView | None
    """The trick on the table after `step` cards (the one just completed, if it is complete)."""
    last_played: SeatCard | None
    tricks: list[TrickView]
    points: list[int]
    result: str | None
    winner: str | None
    replayed_by: int | None
    """For a tied round: the round that replays it, once started (a best-of match's tie, or a
    tied deciding round); None for a tie that counts (a fixed round scored by points)."""
    hands: list[HandView] | None
    dealer: str
    leader: str
    deal: str
    ruling: RulingView | None = None
    """The organizer's ruling, which stands over the cards' points and result."""
    corrections: list[CorrectionView] | None = None
    """The organizer's corrections of the round's cards: the cards shown are as corrected."""

    @property
    def side_points(self) -> list[tuple[str, int]]:
        return list(zip(self.sides, self.points, strict=False))

    @property
    def previous_step(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next_step(self) -> int | None:
        return self.step + 1 if self.step < self.steps else None


def seat_player(table: Table, seat: int, names: list[str]) -> str:
    name = names[table.side_of(seat)]
    if not table.has_partners:
        return name
    return f"{name} {seat // table.side_count + 1}"


def round_replay_page(
    *, match_id: UUID, round_number: int, upto: int | None, viewer: Viewer
) -> ReplayPage:
    """The round as it stood after its first `upto` cards (all of them when None), with the
    hands `viewer` may see at that point (the round as it stands when `upto` is past its
    cards). A negative `upto` raises `InvalidInput`."""
    replay = selectors.round_replay(
        match_id=match_id, round_number=round_number, upto=upto, viewer=viewer
    )
    match_round = selectors.round_get(match_id=match_id, round_number=round_number)
    match = match_round.match
    names = selectors.match_side_names(match=match)
    table = Table(match.table_size, Variant.from_recorded(match.variant))
    tricks = tricks_of(replay["tricks"], table, names)
    steps = len(match_round.plays)
    step = steps if upto is None else min(upto, steps)
    last_trick = tricks[-1] if tricks else None
    return ReplayPage(
        match=match,
        round=match_round,
        sides=names,
        deck_names=deck_names_of(match),
        step=step,
        steps=steps,
        table=last_trick,
        last_played=last_trick.plays[-1] if last_trick and last_trick.plays else None,
        tricks=tricks,
        points=list(replay["points"]),
        result=replay["result"],
        winner=side_won(replay["result"], names),
        replayed_by=match.rounds.filter(replay_of=round_number)
        .values_list("number", flat=True)
        .first(),
        hands=hands_of(replay["hands"], table, names),
        dealer=seat_player(table, match_round.dealer_seat, names),
        leader=seat_player(table, match_round.leader_seat, names),
        deal=replay["deal"],
        ruling=ruling_view(match_round, names),
        corrections=corrections_view(match_round, table, names),
    )


def tricks_of(tricks: list[dict[str, Any]], table: Table, names: list[str]) -> list[TrickView]:
    running = [0] * table.side_count
    views = []
    for trick in tricks:
        plays = [
            SeatCard(seat, seat_player(table, seat, names), card) for seat, card in trick["plays"]
        ]
        winner = trick["winner"]
        if winner is not None:
            running[table.side_of(winner)] += trick["points"]
        views.append(
            TrickView(
                number=trick["number"],
                plays=plays,
                winner=next((play for play in plays if play.seat == winner), None),
                points=trick["points"],
                running=list(running),
            )
        )
    return views


def hands_of(
    hands: dict[str, list[str]] | None, table: Table, names: list[str]
) -> list[HandView] | None:
    if hands is None:
        return None
    return [
        HandView(seat=int(seat), player=seat_player(table, int(seat), names), cards=cards)
        for seat, cards in sorted(hands.items(), key=lambda item: int(item[0]))
    ]
