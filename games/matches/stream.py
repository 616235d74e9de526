"""The match stream: the commands a table sends to a match, the events they record, and the
state folded from those events.

Pure (standard library and `games.rules` only): the Django services load a stream, `decide` a
command against the folded state, append the events, and `evolve` the state with them. Everything
a reader sees (tricks, round points and results, ties and their replays, round wins, the winner)
is derived here from the recorded facts; none of it is ever typed in.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any, Literal

from common.explained import gettext_noop
from games.rules import (
    Card,
    MatchAlreadyFinished,
    MatchFormat,
    MatchState,
    MissingBriscola,
    NothingToUndo,
    Play,
    RoundInProgress,
    RoundOutcome,
    RoundState,
    RuleViolation,
    StartRound,
    Table,
    Variant,
    parse_card,
    play_card,
    replay_round,
    score_only_round,
    start_command_of,
    start_match,
    start_round,
    undo_last_play,
)

MatchStatus = Literal["not_started", "in_progress", "finished"]
RoundStatus = Literal["in_progress", "finished", "voided"]


# Errors a table can trigger beyond the rules of a single round.


class MatchAlreadyCreated(RuleViolation):
    code = "match_exists"


class RoundNotFound(RuleViolation):
    code = "round_not_found"


class PlayNotFound(RuleViolation):
    code = "play_not_found"


class RoundVoided(RuleViolation):
    code = "round_voided"


class CardsAlreadyEntered(RuleViolation):
    code = "cards_already_entered"


class PointsAlreadyEntered(RuleViolation):
    code = "points_already_entered"


class RoundNotLatest(RuleViolation):
    code = "round_not_latest"


class DealtRoundTakesCardsOnly(RuleViolation):
    code = "round_is_dealt"


class BriscolaDealtByServer(RuleViolation):
    code = "briscola_dealt_by_server"


class MatchNotFinished(RuleViolation):
    code = "match_not_finished"


class ResultAlreadyConfirmed(RuleViolation):
    code = "result_already_confirmed"


class ResultAlreadyDisputed(RuleViolation):
    code = "result_already_disputed"


class ReasonRequired(RuleViolation):
    code = "reason_required"


class InvalidSide(RuleViolation):
    code = "invalid_side"


# Events: a type name in the past tense and a JSON-ready payload.


@dataclass(frozen=True, slots=True)
class MatchEvent:
    type: str
    payload: dict[str, Any]


MATCH_CREATED = "MatchCreated"
ROUND_STARTED = "RoundStarted"
CARD_PLAYED = "CardPlayed"
PLAY_UNDONE = "PlayUndone"
CARD_CORRECTED = "CardCorrected"
ROUND_POINTS_ENTERED = "RoundPointsEntered"
ROUND_VOIDED = "RoundVoided"
RESULT_CONFIRMED = "ResultConfirmed"
RESULT_DISPUTED = "ResultDisputed"
MATCH_FORFEITED = "MatchForfeited"

SCHEMA_VERSIONS = {MATCH_CREATED: 2}
"""The schema version each event type is recorded at now; the others are at 1.

MatchCreated 2 (decision record 0018): a side is a reference by id, `{"entrant": 17}` for a
tournament's entrant or `{}` for a free-standing match, never a name. Version 1 carried
`{"name": ...}`; `match_created_v1_to_v2` upcasts it."""


def schema_version_of(event_type: str) -> int:
    return SCHEMA_VERSIONS.get(event_type, 1)


SideRef = dict[str, int]
"""Who a side is, by ids only: `{"entrant": 17}`, or `{}` when nothing outside the match knows
(a free-standing match, whose side names live in an ordinary table). Never a name."""


def check_side_refs_carry_ids(sides: Sequence[SideRef]) -> None:
    for side in sides:
        if not isinstance(side, dict) or not all(
            isinstance(key, str) and type(value) is int for key, value in side.items()
        ):
            raise InvalidSide.because(
                gettext_noop("a side is referred to by ids only, never by name: %(side)r"),
                side=side,
            )


def match_created_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """Upcaster: version 1 named its sides; version 2 refers to them. The names stay in the log
    (events are immutable) but are no longer read: readers take names from ordinary tables."""
    return {**payload, "sides": [{} for _side in payload["sides"]]}


MATCH_EVENT_TYPES = (
    MATCH_CREATED,
    ROUND_STARTED,
    CARD_PLAYED,
    PLAY_UNDONE,
    CARD_CORRECTED,
    ROUND_POINTS_ENTERED,
    ROUND_VOIDED,
    RESULT_CONFIRMED,
    RESULT_DISPUTED,
    MATCH_FORFEITED,
)


# Commands, in the imperative.


@dataclass(frozen=True, slots=True)
class CreateMatch:
    table_size: int
    match_format: MatchFormat
    sides: tuple[SideRef, ...]
    variant: Variant
    first_dealer: int = 0


@dataclass(frozen=True, slots=True)
class StartNextRound:
    """`briscola` may be None for a table that will enter only the round's points.

    A round dealt by the server gives the shuffled `deck` (every card of the table's deck, in
    dealing order) and no briscola: the deck turns it up.
    """

    briscola: Card | None
    dealer: int | None = None
    deck: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class PlayCardInRound:
    round: int
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class PlayCardsInRound:
    """Several cards of one round at once (an offline queue, a score sheet typed in after the
    game): each is checked against the round as the cards before it left it, and all are
    recorded, or none (the failing card's index in `plays` is on the error as `play_index`)."""

    round: int
    plays: tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True)
class EnterRoundPoints:
    round: int
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class UndoLastPlay:
    round: int


@dataclass(frozen=True, slots=True)
class CorrectCard:
    round: int
    play_index: int
    card: Card


@dataclass(frozen=True, slots=True)
class VoidRound:
    round: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ConfirmResult:
    """Confirming withdraws the side's dispute, if it had one."""

    side: int


@dataclass(frozen=True, slots=True)
class DisputeResult:
    """A side says the recorded result is wrong: a flag for the organizer, who corrects or voids
    rounds as usual. The result itself does not change."""

    side: int
    reason: str


@dataclass(frozen=True, slots=True)
class ForfeitMatch:
    side: int
    """The side that forfeits."""
    reason: str = ""


MatchCommand = (
    CreateMatch
    | StartNextRound
    | PlayCardInRound
    | PlayCardsInRound
    | EnterRoundPoints
    | UndoLastPlay
    | CorrectCard
    | VoidRound
    | ConfirmResult
    | DisputeResult
    | ForfeitMatch
)


# State.


@dataclass(frozen=True, slots=True)
class MatchSetup:
    table: Table
    match_format: MatchFormat
    sides: tuple[SideRef, ...]
    first_dealer: int

    @property
    def variant(self) -> Variant:
        return self.table.variant


@dataclass(frozen=True, slots=True)
class MatchRound:
    number: int
    """1 for the first round started in the match; voided rounds keep their numbers."""
    dealer: int
    leader: int
    briscola: Card | None
    cards: RoundState | None
    """The card-by-card state; None when the round was started without a briscola."""
    entered: RoundOutcome | None = None
    """The outcome a scorer entered as points only."""
    voided: bool = False
    void_reason: str = ""

    @property
    def plays(self) -> tuple[Play, ...]:
        return () if self.cards is None else self.cards.plays

    @property
    def is_dealt(self) -> bool:
        """Dealt by the server: every hand is known, and every card must come from one."""
        return self.cards is not None and self.cards.is_dealt

    @property
    def outcome(self) -> RoundOutcome | None:
        if self.entered is not None:
            return self.entered
        return None if self.cards is None else self.cards.outcome

    @property
    def status(self) -> RoundStatus:
        if self.voided:
            return "voided"
        return "in_progress" if self.outcome is None else "finished"


@dataclass(frozen=True, slots=True)
class MatchAggregate:
    setup: MatchSetup
    rounds: tuple[MatchRound, ...] = ()
    confirmed_by: frozenset[int] = frozenset()
    disputed_by: frozenset[int] = frozenset()
    """The sides whose dispute of the result is open (not withdrawn by confirming since)."""
    forfeited_by: int | None = None
    forfeit_reason: str = ""

    @property
    def table(self) -> Table:
        return self.setup.table

    def round(self, number: int) -> MatchRound:
        if not 1 <= number <= len(self.rounds):
            raise RoundNotFound.because(
                gettext_noop("the match has no round %(round)s"), round=number
            )
        return self.rounds[number - 1]

    @property
    def live_rounds(self) -> tuple[MatchRound, ...]:
        """The rounds that were not voided, in order."""
        return tuple(match_round for match_round in self.rounds if not match_round.voided)

    @property
    def round_in_progress(self) -> MatchRound | None:
        live = self.live_rounds
        return live[-1] if live and live[-1].outcome is None else None

    @property
    def record(self) -> MatchState:
        """The rules' view of the match: the finished, not voided rounds in order."""
        return fold_record(self.setup, self.live_rounds)

    @property
    def replay_of(self) -> dict[int, int]:
        """Round number -> the number of the tied round it replays (a best-of match's rounds,
        and the deciding rounds of a match scored by points)."""
        match_format = self.setup.match_format
        live = self.live_rounds
        return {
            current.number: previous.number
            for index, (previous, current) in enumerate(pairwise(live))
            if previous.outcome is not None
            and previous.outcome.is_tie
            and (match_format.scoring == "best_of" or index >= match_format.rounds)
        }

    @property
    def deciding_round_due(self) -> bool:
        """Level after its fixed rounds, the match goes on with a deciding round (decision
        record 0029): due until one is won."""
        return self.forfeited_by is None and self.record.deciding_round_due

    @property
    def next_dealer(self) -> int:
        """The seat after the last dealer of a round that was not voided (a void is re-dealt)."""
        live = self.live_rounds
        return self.setup.first_dealer if not live else self.table.next_seat(live[-1].dealer)

    @property
    def is_finished(self) -> bool:
        return self.forfeited_by is not None or self.record.is_finished

    @property
    def status(self) -> MatchStatus:
        if self.is_finished:
            return "finished"
        return "in_progress" if self.rounds else "not_started"

    @property
    def winner(self) -> int | None:
        if self.forfeited_by is None:
            return self.record.winner
        return winner_after_forfeit(self.record, self.forfeited_by)

    def check_side_exists(self, side: int) -> None:
        if type(side) is not int or not 0 <= side < self.table.side_count:
            raise InvalidSide.because(
                gettext_noop("side must be 0 to %(last)s, not %(side)r"),
                last=self.table.side_count - 1,
                side=side,
            )

    def check_match_goes_on(self) -> None:
        if self.is_finished:
            raise MatchAlreadyFinished.because(gettext_noop("the match is over"))


def fold_record(setup: MatchSetup, live_rounds: Iterable[MatchRound]) -> MatchState:
    record = start_match(
        table_size=setup.table.size,
        match_format=setup.match_format,
        first_dealer=setup.first_dealer,
    )
    for match_round in live_rounds:
        if match_round.outcome is None:
            break
        record = record.record_round(match_round.outcome)
    return record


def winner_after_forfeit(record: MatchState, forfeited_by: int) -> int | None:
    """The other side wins; at a three-player table the one ahead of the two, if any."""
    others = [side for side in range(record.table.side_count) if side != forfeited_by]
    if len(others) == 1:
        return others[0]
    standing = {side: (record.round_wins[side], record.total_points[side]) for side in others}
    best = max(standing.values())
    ahead = [side for side, score in standing.items() if score == best]
    return ahead[0] if len(ahead) == 1 else None


# decide: a command against the state -> the events it records, or a RuleViolation.


def decide(state: MatchAggregate | None, command: MatchCommand) -> list[MatchEvent]:
    if isinstance(command, CreateMatch):
        return decide_create(state, command)
    if state is None:
        raise RoundNotFound.because(gettext_noop("the match does not exist"))
    match command:
        case StartNextRound():
            return decide_start_round(state, command)
        case PlayCardInRound():
            return decide_play(state, command)
        case PlayCardsInRound():
            return decide_plays(state, command)
        case EnterRoundPoints():
            return decide_points(state, command)
        case UndoLastPlay():
            return decide_undo(state, command)
        case CorrectCard():
            return decide_correction(state, command)
        case VoidRound():
            return decide_void(state, command)
        case ConfirmResult():
            return decide_confirmation(state, command)
        case DisputeResult():
            return decide_dispute(state, command)
        case ForfeitMatch():
            return decide_forfeit(state, command)
    raise TypeError(f"not a match command: {command!r}")


def decide_create(state: MatchAggregate | None, command: CreateMatch) -> list[MatchEvent]:
    if state is not None:
        raise MatchAlreadyCreated.because(gettext_noop("this match already exists"))
    table = Table(command.table_size, command.variant)
    table.check_seat_exists(command.first_dealer)
    if len(command.sides) != table.side_count:
        raise InvalidSide.because(
            gettext_noop("a table of %(size)s has %(sides)s sides; name each of them once"),
            size=table.size,
            sides=table.side_count,
        )
    check_side_refs_carry_ids(command.sides)
    return [
        MatchEvent(
            MATCH_CREATED,
            {
                "table_size": table.size,
                "format": command.match_format.to_dict(),
                "sides": [dict(side) for side in command.sides],
                "variant": command.variant.to_dict(),
                "first_dealer": command.first_dealer,
            },
        )
    ]


def decide_start_round(state: MatchAggregate, command: StartNextRound) -> list[MatchEvent]:
    state.check_match_goes_on()
    if state.round_in_progress is not None:
        raise RoundInProgress.because(
            gettext_noop("round %(round)s is still being played"),
            round=state.round_in_progress.number,
        )
    dealer = state.next_dealer if command.dealer is None else command.dealer
    state.table.check_seat_exists(dealer)
    if command.deck is not None:
        return [dealt_round_started(state, command.deck, dealer, command.briscola)]
    if command.briscola is not None:
        start_round(round_start(state.setup, dealer, command.briscola))
    return [
        MatchEvent(
            ROUND_STARTED,
            {
                "round": len(state.rounds) + 1,
                "dealer": dealer,
                "briscola": None if command.briscola is None else command.briscola.code,
            },
        )
    ]


def dealt_round_started(
    state: MatchAggregate, deck: tuple[Card, ...], dealer: int, briscola: Card | None
) -> MatchEvent:
    """A round dealt from `deck`: the rules check the deck; the deck turns up the briscola."""
    if briscola is not None:
        raise BriscolaDealtByServer.because(
            gettext_noop(
                "the server deals this round: the briscola is the card its deck turns up, "
                "so do not name one"
            )
        )
    cards = start_round(round_start(state.setup, dealer, None, deck))
    return MatchEvent(
        ROUND_STARTED,
        {
            "round": len(state.rounds) + 1,
            "dealer": dealer,
            "briscola": cards.briscola.code,
            "deck": [card.code for card in deck],
        },
    )


def open_round(state: MatchAggregate, number: int) -> MatchRound:
    """A round that still accepts entries: it exists, was not voided, the match goes on."""
    match_round = state.round(number)
    if match_round.voided:
        raise RoundVoided.because(gettext_noop("round %(round)s was voided"), round=number)
    if state.forfeited_by is not None:
        raise MatchAlreadyFinished.because(gettext_noop("the match was forfeited"))
    return match_round


def cards_of(match_round: MatchRound) -> RoundState:
    if match_round.entered is not None:
        raise PointsAlreadyEntered.because(
            gettext_noop("round %(round)s was scored by points only"), round=match_round.number
        )
    if match_round.cards is None:
        raise MissingBriscola.because(
            gettext_noop("round %(round)s was started without a briscola"), round=match_round.number
        )
    return match_round.cards


def decide_play(state: MatchAggregate, command: PlayCardInRound) -> list[MatchEvent]:
    cards = cards_of(open_round(state, command.round))
    play_card(cards, Play(command.seat, command.card))
    return [
        MatchEvent(
            CARD_PLAYED, {"round": command.round, "seat": command.seat, "card": command.card.code}
        )
    ]


def decide_plays(state: MatchAggregate, command: PlayCardsInRound) -> list[MatchEvent]:
    events: list[MatchEvent] = []
    for index, (seat, card) in enumerate(command.plays):
        try:
            played = decide_play(state, PlayCardInRound(command.round, seat, card))
        except RuleViolation as error:
            raise error.at(play_index=index) from None
        events.extend(played)
        state = fold(played, state)
    return events


def decide_points(state: MatchAggregate, command: EnterRoundPoints) -> list[MatchEvent]:
    match_round = open_round(state, command.round)
    if match_round.is_dealt:
        raise DealtRoundTakesCardsOnly.because(
            gettext_noop(
                "round %(round)s was dealt by the server: enter its cards, not its points"
            ),
            round=command.round,
        )
    if match_round.plays:
        raise CardsAlreadyEntered.because(
            gettext_noop("cards were already entered for round %(round)s: its points are derived"),
            round=command.round,
        )
    if match_round.outcome is not None:
        raise PointsAlreadyEntered.because(
            gettext_noop("round %(round)s already has its points"), round=command.round
        )
    score_only_round(state.table.size, command.points, state.table.variant.three_winner)
    return [
        MatchEvent(ROUND_POINTS_ENTERED, {"round": command.round, "points": list(command.points)})
    ]


def decide_undo(state: MatchAggregate, command: UndoLastPlay) -> list[MatchEvent]:
    match_round = open_round(state, command.round)
    if match_round is not state.live_rounds[-1]:
        raise RoundNotLatest.because(
            gettext_noop("round %(round)s is not the latest round: void it instead"),
            round=command.round,
        )
    plays = cards_of(match_round).plays
    if not plays:
        raise NothingToUndo.because(
            gettext_noop("no card has been played in round %(round)s"), round=command.round
        )
    last = plays[-1]
    return [
        MatchEvent(
            PLAY_UNDONE,
            {
                "round": command.round,
                "play_index": len(plays) - 1,
                "seat": last.seat,
                "card": last.card.code,
            },
        )
    ]


def decide_correction(state: MatchAggregate, command: CorrectCard) -> list[MatchEvent]:
    match_round = open_round(state, command.round)
    cards = cards_of(match_round)
    plays = cards.plays
    if not 0 <= command.play_index < len(plays):
        raise PlayNotFound.because(
            gettext_noop("round %(round)s has no play %(play)s"),
            round=command.round,
            play=command.play_index,
        )
    previous = plays[command.play_index]
    corrected = replace_play(plays, command.play_index, command.card)
    rejection = replay_round(start_command_of(cards), corrected).rejection
    if rejection is not None:
        violation = rejection.violation
        raise type(violation).because(
            gettext_noop("with this correction play %(play)s is illegal: %(reason)s"),
            play=rejection.play_index,
            reason=violation,
        )
    return [
        MatchEvent(
            CARD_CORRECTED,
            {
                "round": command.round,
                "play_index": command.play_index,
                "seat": previous.seat,
                "card": command.card.code,
                "previous_card": previous.card.code,
            },
        )
    ]


def replace_play(plays: Sequence[Play], index: int, card: Card) -> tuple[Play, ...]:
    return (*plays[:index], Play(plays[index].seat, card), *plays[index + 1 :])


def decide_void(state: MatchAggregate, command: VoidRound) -> list[MatchEvent]:
    open_round(state, command.round)
    return [MatchEvent(ROUND_VOIDED, {"round": command.round, "reason": command.reason})]


def decide_confirmation(state: MatchAggregate, command: ConfirmResult) -> list[MatchEvent]:
    state.check_side_exists(command.side)
    if not state.is_finished:
        raise MatchNotFinished.because(
            gettext_noop("a result can be confirmed once the match is over")
        )
    if command.side in state.confirmed_by:
        raise ResultAlreadyConfirmed.because(
            gettext_noop("side %(side)s already confirmed the result"), side=command.side
        )
    return [MatchEvent(RESULT_CONFIRMED, {"side": command.side})]


def decide_dispute(state: MatchAggregate, command: DisputeResult) -> list[MatchEvent]:
    state.check_side_exists(command.side)
    reason = command.reason.strip()
    if not reason:
        raise ReasonRequired.because(
            gettext_noop("say why the result is wrong: the organizer reads the reason")
        )
    if not state.is_finished:
        raise MatchNotFinished.because(
            gettext_noop("a result can be disputed once the match is over")
        )
    if command.side in state.confirmed_by:
        raise ResultAlreadyConfirmed.because(
            gettext_noop(
                "side %(side)s already confirmed the result: ask the organizer to correct it"
            ),
            side=command.side,
        )
    if command.side in state.disputed_by:
        raise ResultAlreadyDisputed.because(
            gettext_noop("side %(side)s already disputed the result"), side=command.side
        )
    return [MatchEvent(RESULT_DISPUTED, {"side": command.side, "reason": reason})]


def decide_forfeit(state: MatchAggregate, command: ForfeitMatch) -> list[MatchEvent]:
    state.check_side_exists(command.side)
    state.check_match_goes_on()
    return [MatchEvent(MATCH_FORFEITED, {"side": command.side, "reason": command.reason})]


# evolve: the state after one recorded event. Events were legal when recorded; folding them
# again re-runs the rules, so a stream that no longer replays fails loudly rather than silently.


def evolve(state: MatchAggregate | None, event: MatchEvent) -> MatchAggregate:
    payload = event.payload
    if event.type == MATCH_CREATED:
        return created(payload)
    if state is None:
        raise ValueError(f"{event.type} before MatchCreated")
    if event.type == ROUND_STARTED:
        return with_new_round(state, payload)
    if event.type == CARD_PLAYED:
        return with_round(state, payload["round"], played(payload))
    if event.type == PLAY_UNDONE:
        return with_round(state, payload["round"], undone)
    if event.type == CARD_CORRECTED:
        return with_round(state, payload["round"], corrected(payload))
    if event.type == ROUND_POINTS_ENTERED:
        outcome = RoundOutcome.from_points(payload["points"], state.table.variant.three_winner)
        return with_round(state, payload["round"], lambda r: replace(r, entered=outcome))
    if event.type == ROUND_VOIDED:
        reason = payload.get("reason", "")
        return with_round(
            state, payload["round"], lambda r: replace(r, voided=True, void_reason=reason)
        )
    if event.type == RESULT_CONFIRMED:
        side = payload["side"]
        return replace(
            state, confirmed_by=state.confirmed_by | {side}, disputed_by=state.disputed_by - {side}
        )
    if event.type == RESULT_DISPUTED:
        return replace(state, disputed_by=state.disputed_by | {payload["side"]})
    if event.type == MATCH_FORFEITED:
        return replace(
            state, forfeited_by=payload["side"], forfeit_reason=payload.get("reason", "")
        )
    raise ValueError(f"unknown match event {event.type!r}")


def fold(events: Iterable[MatchEvent], state: MatchAggregate | None = None) -> MatchAggregate:
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events to fold")
    return state


def created(payload: dict[str, Any]) -> MatchAggregate:
    variant = Variant.from_recorded(payload["variant"])
    setup = MatchSetup(
        table=Table(payload["table_size"], variant),
        match_format=MatchFormat.from_dict(payload["format"]),
        sides=tuple(dict(side) for side in payload["sides"]),
        first_dealer=payload["first_dealer"],
    )
    return MatchAggregate(setup)


def round_start(
    setup: MatchSetup, dealer: int, briscola: Card | None, deck: tuple[Card, ...] | None = None
) -> StartRound:
    return StartRound(
        table_size=setup.table.size,
        dealer=dealer,
        briscola=briscola,
        variant=setup.variant,
        deck=deck,
    )


def with_new_round(state: MatchAggregate, payload: dict[str, Any]) -> MatchAggregate:
    dealer = payload["dealer"]
    code = payload["briscola"]
    briscola = None if code is None else parse_card(code)
    # "deck" is absent from physical rounds' events (and from every event older than dealt
    # rounds), so old streams fold unchanged.
    codes = payload.get("deck")
    deck = None if codes is None else tuple(map(parse_card, codes))
    cards = (
        None if briscola is None else start_round(round_start(state.setup, dealer, briscola, deck))
    )
    new_round = MatchRound(
        number=payload["round"],
        dealer=dealer,
        leader=state.table.next_seat(dealer),
        briscola=briscola,
        cards=cards,
    )
    return replace(state, rounds=(*state.rounds, new_round))


RoundChange = Callable[[MatchRound], MatchRound]


def with_round(state: MatchAggregate, number: int, change: RoundChange) -> MatchAggregate:
    rounds = list(state.rounds)
    rounds[number - 1] = change(rounds[number - 1])
    return replace(state, rounds=tuple(rounds))


def played(payload: dict[str, Any]) -> RoundChange:
    play = Play(payload["seat"], parse_card(payload["card"]))
    return lambda r: replace(r, cards=play_card(cards_of(r), play))


def undone(match_round: MatchRound) -> MatchRound:
    return replace(match_round, cards=undo_last_play(cards_of(match_round)))


def corrected(payload: dict[str, Any]) -> RoundChange:
    def apply(match_round: MatchRound) -> MatchRound:
        cards = cards_of(match_round)
        plays = replace_play(cards.plays, payload["play_index"], parse_card(payload["card"]))
        return replace(match_round, cards=replay_round(start_command_of(cards), plays).state)

    return apply
