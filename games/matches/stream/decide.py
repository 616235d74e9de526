"""decide: a command against the state -> the events it records, or a RuleViolation."""

from typing import assert_never

from common.explained import gettext_noop
from games.matches.stream.commands import (
    ConfirmResult,
    CorrectCard,
    CorrectCardAfterRound,
    CreateMatch,
    DisputeResult,
    EnterRoundPoints,
    ForfeitMatch,
    MatchCommand,
    PlayCardInRound,
    PlayCardsInRound,
    ResultCommand,
    RoundCommand,
    RuleRoundResult,
    StartNextRound,
    UndoLastPlay,
    VoidRound,
)
from games.matches.stream.errors import (
    BriscolaDealtByServer,
    CardsAlreadyEntered,
    CardUnchanged,
    DealtRoundTakesCardsOnly,
    InvalidSide,
    MatchAlreadyCreated,
    MatchNotFinished,
    PlayNotFound,
    PointsAlreadyEntered,
    ReasonRequired,
    ResultAlreadyConfirmed,
    ResultAlreadyDisputed,
    RoundAlreadyVoided,
    RoundNotFinished,
    RoundNotFound,
    RoundNotLatest,
    RoundRuled,
)
from games.matches.stream.events import (
    CardCorrected,
    CardCorrectedAfterRound,
    CardPlayed,
    MatchCreated,
    MatchEvent,
    MatchForfeited,
    PlayUndone,
    ResultConfirmed,
    ResultDisputed,
    RoundPointsEntered,
    RoundResultRuled,
    RoundStarted,
    RoundVoided,
    check_side_refs_carry_ids,
)
from games.matches.stream.evolve import fold
from games.matches.stream.state import (
    MatchAggregate,
    MatchRound,
    cards_of,
    replace_play,
    round_start,
    swap_cards,
)
from games.rules.cards import Card, card_text
from games.rules.errors import (
    CardAlreadyPlayed,
    CardNotInDeck,
    MatchAlreadyFinished,
    NothingToUndo,
    RoundInProgress,
    RuleViolation,
)
from games.rules.outcome import score_only_round
from games.rules.replay import decide_card, replay_round, start_command_of
from games.rules.round import decide_start
from games.rules.tables import Table
from games.rules.tricks import Play


def decide(state: MatchAggregate | None, command: MatchCommand) -> list[MatchEvent]:
    if isinstance(command, CreateMatch):
        return decide_create(state, command)
    if state is None:
        raise RoundNotFound.because(gettext_noop("the match does not exist"))
    match command:
        case ConfirmResult() | DisputeResult() | ForfeitMatch():
            return decide_on_result(state, command)
        case (
            StartNextRound()
            | PlayCardInRound()
            | PlayCardsInRound()
            | EnterRoundPoints()
            | UndoLastPlay()
            | CorrectCard()
            | CorrectCardAfterRound()
            | VoidRound()
            | RuleRoundResult()
        ):
            return decide_in_round(state, command)
        case _:
            assert_never(command)


def decide_in_round(state: MatchAggregate, command: RoundCommand) -> list[MatchEvent]:
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
        case CorrectCardAfterRound():
            return decide_correction_after_round(state, command)
        case VoidRound():
            return decide_void(state, command)
        case RuleRoundResult():
            return decide_ruling(state, command)
        case _:
            assert_never(command)


def decide_on_result(state: MatchAggregate, command: ResultCommand) -> list[MatchEvent]:
    match command:
        case ConfirmResult():
            return decide_confirmation(state, command)
        case DisputeResult():
            return decide_dispute(state, command)
        case ForfeitMatch():
            return decide_forfeit(state, command)
        case _:
            assert_never(command)


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
        MatchCreated(
            table_size=table.size,
            match_format=command.match_format,
            sides=tuple(dict(side) for side in command.sides),
            variant=command.variant,
            first_dealer=command.first_dealer,
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
    briscola = command.briscola
    dealt = None if briscola is None else decide_start(round_start(state.setup, dealer, briscola))
    number = len(state.rounds) + 1
    return [RoundStarted(round=number, dealer=dealer, briscola=briscola, decided=dealt)]


def dealt_round_started(
    state: MatchAggregate, deck: tuple[Card, ...], dealer: int, briscola: Card | None
) -> RoundStarted:
    """A round dealt from `deck`: the rules check the deck; the deck turns up the briscola."""
    if briscola is not None:
        raise BriscolaDealtByServer.because(
            gettext_noop(
                "the server deals this round: the briscola is the card its deck turns up, "
                "so do not name one"
            )
        )
    dealt = decide_start(round_start(state.setup, dealer, None, deck))
    return RoundStarted(
        round=len(state.rounds) + 1,
        dealer=dealer,
        briscola=dealt.briscola,
        deck=tuple(deck),
        decided=dealt,
    )


def open_round(state: MatchAggregate, number: int) -> MatchRound:
    """A round that still accepts entries: it exists, was not voided, the match goes on."""
    match_round = state.round(number)
    if match_round.voided:
        raise RoundAlreadyVoided.because(gettext_noop("round %(round)s was voided"), round=number)
    if state.forfeited_by is not None:
        raise MatchAlreadyFinished.because(gettext_noop("the match was forfeited"))
    return match_round


def decide_play(state: MatchAggregate, command: PlayCardInRound) -> list[MatchEvent]:
    """The play, judged by the rules once: the event carries what they decided (`decided`) for
    `evolve` to apply."""
    cards = cards_of(open_round(state, command.round))
    decided = decide_card(cards, Play(command.seat, command.card))
    return [CardPlayed(round=command.round, seat=command.seat, card=command.card, decided=decided)]


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
            gettext_noop(
                "round %(round)s already has its points: an organizer corrects them with a "
                "ruling (rounds/%(round)s/rule/)"
            ),
            round=command.round,
        )
    score_only_round(state.table.size, command.points, state.table.variant.three_winner)
    return [RoundPointsEntered(round=command.round, points=tuple(command.points))]


def decide_undo(state: MatchAggregate, command: UndoLastPlay) -> list[MatchEvent]:
    match_round = open_round(state, command.round)
    if match_round is not state.live_rounds[-1]:
        raise RoundNotLatest.because(
            gettext_noop("round %(round)s is not the latest round: void it instead"),
            round=command.round,
        )
    check_not_ruled(match_round)
    plays = cards_of(match_round).plays
    if not plays:
        raise NothingToUndo.because(
            gettext_noop("no card has been played in round %(round)s"), round=command.round
        )
    last = plays[-1]
    return [
        PlayUndone(round=command.round, play_index=len(plays) - 1, seat=last.seat, card=last.card)
    ]


def decide_correction(state: MatchAggregate, command: CorrectCard) -> list[MatchEvent]:
    match_round = open_round(state, command.round)
    check_not_ruled(match_round)
    cards = cards_of(match_round)
    plays = cards.plays
    if not 0 <= command.play_index < len(plays):
        raise PlayNotFound.because(
            gettext_noop("round %(round)s has no play %(play)s"),
            round=command.round,
            play=command.play_index,
        )
    previous = plays[command.play_index]
    if match_round.outcome is not None and command.card != previous.card:
        raise CardAlreadyPlayed.because(
            gettext_noop(
                "round %(round)s is over and every card was played in it: an organizer "
                "corrects a card of a finished round, with a reason (rounds/%(round)s/correct/)"
            ),
            round=command.round,
        )
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
        CardCorrected(
            round=command.round,
            play_index=command.play_index,
            seat=previous.seat,
            card=command.card,
            previous_card=previous.card,
        )
    ]


def decide_correction_after_round(
    state: MatchAggregate, command: CorrectCardAfterRound
) -> list[MatchEvent]:
    """The organizer's correction of a finished round's card (decision record 0048). Every card
    of the round was played, so the card named was recorded for another play: the two plays
    exchange their cards, each seat keeping its place in the order of play. The round is then
    replayed from its start: every play must still be legal (whose turn it is follows the
    tricks' winners), and the round's tricks, winners and points follow from its cards."""
    match_round = open_round(state, command.round)
    if match_round.outcome is None:
        raise RoundNotFinished.because(
            gettext_noop("round %(round)s is not over: correct its cards as it is played"),
            round=command.round,
        )
    check_not_ruled(match_round)
    if match_round.entered is not None or match_round.cards is None:
        raise PointsAlreadyEntered.because(
            gettext_noop(
                "round %(round)s was scored by its points only: rule on its points instead"
            ),
            round=command.round,
        )
    plays = match_round.cards.plays
    if not 0 <= command.play_index < len(plays):
        raise PlayNotFound.because(
            gettext_noop("round %(round)s has no play %(play)s"),
            round=command.round,
            play=command.play_index,
        )
    reason = command.reason.strip()
    if not reason:
        raise ReasonRequired.because(
            gettext_noop("say why: the correction is recorded with its reason")
        )
    previous = plays[command.play_index]
    if command.card == previous.card:
        raise CardUnchanged.because(
            gettext_noop("play %(play)s of round %(round)s is already this card"),
            play=command.play_index,
            round=command.round,
        )
    other = next((i for i, play in enumerate(plays) if play.card == command.card), None)
    if other is None:  # a finished round played every card of its deck
        raise CardNotInDeck.because(
            gettext_noop("%(card)s is not in the %(deck)s-card deck of a table of %(size)s"),
            card=card_text(command.card, state.table.variant.deck_names),
            deck=len(state.table.deck),
            size=state.table.size,
        )
    rejection = replay_round(
        start_command_of(match_round.cards), swap_cards(plays, command.play_index, other)
    ).rejection
    if rejection is not None:
        violation = rejection.violation
        raise type(violation).because(
            gettext_noop(
                "with this correction play %(play)s is illegal: %(reason)s. If the cards "
                "cannot say what happened, rule on the round's points instead"
            ),
            play=rejection.play_index,
            reason=violation,
        )
    correction = CardCorrectedAfterRound(
        round=command.round,
        play_index=command.play_index,
        seat=previous.seat,
        card=command.card,
        previous_card=previous.card,
        swapped_with=other,
        reason=reason,
    )
    check_later_rounds_still_follow(state, correction)
    return [correction]


def check_later_rounds_still_follow(
    state: MatchAggregate, event: CardCorrectedAfterRound | RoundResultRuled
) -> None:
    """A change of a round's points may end the match sooner: the rounds after it must still
    have been played before its end (void them first)."""
    try:
        fold([event], state).record  # noqa: B018 - the record is folded to be checked
    except MatchAlreadyFinished:
        raise MatchAlreadyFinished.because(
            gettext_noop(
                "after this the match is over before a later round: void the rounds after "
                "round %(round)s first"
            ),
            round=event.round,
        ) from None


def decide_void(state: MatchAggregate, command: VoidRound) -> list[MatchEvent]:
    open_round(state, command.round)
    return [RoundVoided(round=command.round, reason=command.reason)]


def decide_ruling(state: MatchAggregate, command: RuleRoundResult) -> list[MatchEvent]:
    """The organizer's ruling on a finished round's points (decision record 0045). The rounds
    after it must still have been played under it: one that would come after the end of the
    match is voided first."""
    match_round = open_round(state, command.round)
    if match_round.outcome is None:
        raise RoundNotFinished.because(
            gettext_noop("round %(round)s is not over: rule on it once it is"),
            round=command.round,
        )
    reason = command.reason.strip()
    if not reason:
        raise ReasonRequired.because(
            gettext_noop("say why: the ruling is recorded with its reason")
        )
    score_only_round(state.table.size, command.points, state.table.variant.three_winner)
    ruling = RoundResultRuled(round=command.round, points=tuple(command.points), reason=reason)
    try:
        fold([ruling], state).record  # noqa: B018 - the record is folded to be checked
    except MatchAlreadyFinished:
        raise MatchAlreadyFinished.because(
            gettext_noop(
                "with this ruling the match is over before a later round: void the rounds "
                "after round %(round)s first"
            ),
            round=command.round,
        ) from None
    return [ruling]


def check_not_ruled(match_round: MatchRound) -> None:
    if match_round.ruled is not None:
        raise RoundRuled.because(
            gettext_noop(
                "the organizer ruled on round %(round)s: its cards no longer change its "
                "result (void it to play it again)"
            ),
            round=match_round.number,
        )


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
    return [ResultConfirmed(side=command.side)]


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
    return [ResultDisputed(side=command.side, reason=reason)]


def decide_forfeit(state: MatchAggregate, command: ForfeitMatch) -> list[MatchEvent]:
    state.check_side_exists(command.side)
    state.check_match_goes_on()
    return [MatchForfeited(side=command.side, reason=command.reason)]
