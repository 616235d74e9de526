"""Round records as JSON-ready dicts: the input and output lines of `python -m games.rules`.

Input (one round):  {"table_size": 2, "leader": 1, "briscola": "7D", "plays": [[1, "5C"], ...],
                     "variant": {...}, "deck": [...], "dealer": 0}
`variant`, `deck` and `dealer` are optional; give `leader` or `dealer` (both must agree). A `deck`
makes it a dealt round, in which hands are checked (`briscola` may then be left out: it is the
card after the hands). Other keys are ignored. Card codes may use aliases (`AD`, `KS`, `QS`).
Cards are written with the suit letters of the variant's deck: with `"deck_names": "french"`
they are French (`AH` is the ace of hearts, `8C` the eight of clubs), in the input, the report
and the records `simulate` writes. `removed_card_for_three` in the variant is a canonical code.

Report (one round): {"complete": bool, "tricks": [{"leader", "plays", "winner", "points"}, ...],
                     "points": [per side], "result": "side0" | "side1" | "side2" | "tie" | null}
Sides are seat % 2 at tables of 2, 4 and 6, and each seat at a table of 3 (three totals). An
unfinished last trick is listed with "winner": null and the points of the cards on the table;
"points" counts finished tricks only and "result" is null until the round is complete.
An illegal round:   {"error": {"code": ..., "detail": ..., "play_index": k or null}}
k is the 0-based index of the first offending play; null when the round cannot start at all
(invalid JSON, table size, variant, seat, briscola or deck).
"""

from collections.abc import Mapping, Sequence
from typing import Any

from common.explained import gettext_noop
from games.rules.cards import Card, DeckNames, card_text, parse_card
from games.rules.commands import StartRound
from games.rules.errors import InvalidInput, RuleViolation
from games.rules.replay import Rejection, replay_round
from games.rules.round_state import RoundState
from games.rules.tables import Table
from games.rules.tricks import Play, points_of
from games.rules.variants import Variant


def read_round_object(record: object) -> Mapping[str, Any]:
    if not isinstance(record, Mapping):
        raise InvalidInput.because(
            gettext_noop("each line must be a JSON object describing a round, not %(record)r"),
            record=record,
        )
    return record


def read_start(record: Mapping[str, Any]) -> StartRound:
    if "table_size" not in record:
        raise InvalidInput.because(gettext_noop("the round has no table_size"))
    variant = Variant() if record.get("variant") is None else Variant.from_dict(record["variant"])
    table = Table(record["table_size"], variant)
    briscola = record.get("briscola")
    return StartRound(
        table_size=table.size,
        dealer=read_dealer(record, table),
        briscola=None if briscola is None else parse_card(briscola, variant.deck_names),
        variant=variant,
        deck=read_deck(record.get("deck"), variant.deck_names),
    )


def read_dealer(record: Mapping[str, Any], table: Table) -> int:
    """The dealer, named directly or as the seat before the leader."""
    leader, dealer = record.get("leader"), record.get("dealer")
    for seat in (leader, dealer):
        if seat is not None:
            table.check_seat_exists(seat)
    if dealer is None:
        if leader is None:
            raise InvalidInput.because(
                gettext_noop("name the seat that leads the first trick (leader)")
            )
        return table.seat_before(leader)
    if leader is not None and leader != table.next_seat(dealer):
        raise InvalidInput.because(
            gettext_noop(
                "seat %(leader)s cannot lead after dealer %(dealer)s: the seat after does"
            ),
            leader=leader,
            dealer=dealer,
        )
    return int(dealer)


def read_deck(deck: object, deck_names: DeckNames = "italian") -> tuple[Card, ...] | None:
    if deck is None:
        return None
    if not isinstance(deck, list):
        raise InvalidInput.because(
            gettext_noop("deck must be a list of card codes, not %(deck)r"), deck=deck
        )
    return tuple(parse_card(code, deck_names) for code in deck)


def read_plays(
    record: Mapping[str, Any], deck_names: DeckNames = "italian"
) -> tuple[list[Play], Rejection | None]:
    """The plays up to the first one that cannot be read, and the reason it cannot."""
    raw_plays = record.get("plays")
    if not isinstance(raw_plays, list):
        raise InvalidInput.because(gettext_noop("plays must be a list of [seat, card] pairs"))
    plays: list[Play] = []
    for index, raw_play in enumerate(raw_plays):
        try:
            plays.append(read_play(raw_play, deck_names))
        except RuleViolation as violation:
            return plays, Rejection(index, violation)
    return plays, None


def read_play(raw_play: object, deck_names: DeckNames = "italian") -> Play:
    if not isinstance(raw_play, list) or len(raw_play) != 2:
        raise InvalidInput.because(
            gettext_noop("a play is a [seat, card] pair, not %(play)r"), play=raw_play
        )
    seat, code = raw_play
    return Play(seat, parse_card(code, deck_names))


def replay_record(record: object) -> dict[str, Any]:
    """The report of one round record: its tricks and result, or its first illegal play."""
    try:
        round_object = read_round_object(record)
        start = read_start(round_object)
        plays, unreadable = read_plays(round_object, start.variant.deck_names)
        result = replay_round(start, plays)
    except RuleViolation as violation:
        return error_report(violation, None)
    rejection = result.rejection or unreadable
    if rejection is not None:
        return error_report(rejection.violation, rejection.play_index)
    return round_report(result.state)


def round_report(state: RoundState) -> dict[str, Any]:
    deck_names = state.setup.started.variant.deck_names
    tricks = [
        {**trick.to_dict(), "plays": spelled_plays(trick.plays, deck_names)}
        for trick in state.tricks
    ]
    if state.trick:
        tricks.append(
            {
                "leader": state.leader,
                "plays": spelled_plays(state.trick, deck_names),
                "winner": None,
                "points": points_of(state.trick),
            }
        )
    return {
        "complete": state.is_finished,
        "tricks": tricks,
        "points": list(state.points),
        "result": None if state.outcome is None else state.outcome.result,
    }


def spelled_plays(plays: Sequence[Play], deck_names: DeckNames) -> list[list[Any]]:
    """Plays as `[seat, card]` pairs, each card written with the suit letters of the deck."""
    return [[play.seat, card_text(play.card, deck_names)] for play in plays]


def error_report(violation: RuleViolation, play_index: int | None) -> dict[str, Any]:
    return {"error": {**violation.to_dict(), "play_index": play_index}}


def round_record(state: RoundState) -> dict[str, Any]:
    """A round as an input line for `replay` (dealt rounds include their deck)."""
    started = state.setup.started
    deck_names = started.variant.deck_names
    record: dict[str, Any] = {
        "table_size": started.table_size,
        "dealer": started.dealer,
        "leader": started.leader,
        "briscola": card_text(started.briscola, deck_names),
        "variant": started.variant.to_dict(),
        "plays": spelled_plays(state.plays, deck_names),
    }
    if started.deck is not None:
        record["deck"] = [card_text(card, deck_names) for card in started.deck]
    return record
