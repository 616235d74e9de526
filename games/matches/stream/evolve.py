"""evolve: the state after one recorded event. Events were legal when recorded; folding them
from the log re-runs the rules, so a stream that no longer replays fails loudly rather than
silently. A card that `decide` has just judged is not judged again: its event carries what the
rules decided, and evolve applies it (decision record 0064)."""

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import assert_never

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
    RoundEvent,
    RoundPointsEntered,
    RoundResultRuled,
    RoundStarted,
    RoundVoided,
)
from games.matches.stream.state import (
    MatchAggregate,
    MatchResult,
    MatchRound,
    MatchSetup,
    ResultMark,
    cards_of,
    replace_play,
    round_start,
    swap_cards,
)
from games.rules.outcome import RoundOutcome
from games.rules.replay import (
    fold_events,
    play_card,
    replay_round,
    start_command_of,
    start_round,
    undo_last_play,
)
from games.rules.tables import Table
from games.rules.tricks import Play


def evolve(state: MatchAggregate | None, event: MatchEvent) -> MatchAggregate:
    if isinstance(event, MatchCreated):
        return created(event)
    if state is None:
        raise ValueError(f"{event.type} before MatchCreated")
    version = state.version + 1
    match event:
        case ResultConfirmed() | ResultDisputed():
            return with_result_mark(state, event, version)
        case MatchForfeited():
            forfeited = replace(
                state, forfeited_by=event.side, forfeit_reason=event.reason, version=version
            )
            return with_marks_of_its_result(forfeited)
        case _:
            rounds = rounds_after(state, event)
            return with_marks_of_its_result(replace(state, rounds=rounds, version=version))


def fold(events: Iterable[MatchEvent], state: MatchAggregate | None = None) -> MatchAggregate:
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events to fold")
    return state


def created(event: MatchCreated) -> MatchAggregate:
    setup = MatchSetup(
        table=Table(event.table_size, event.variant),
        match_format=event.match_format,
        sides=event.sides,
        first_dealer=event.first_dealer,
    )
    return MatchAggregate(setup, version=1)


def rounds_after(state: MatchAggregate, event: RoundEvent) -> tuple[MatchRound, ...]:
    match event:
        case RoundStarted():
            return (*state.rounds, new_round(state, event))
        case CardPlayed():
            return with_round(state, event.round, played(event))
        case PlayUndone():
            return with_round(state, event.round, undone)
        case CardCorrected():
            return with_round(state, event.round, corrected(event))
        case CardCorrectedAfterRound():
            return with_round(state, event.round, corrected_after_round(event))
        case RoundPointsEntered():
            outcome = RoundOutcome.from_points(event.points, state.table.variant.three_winner)
            return with_round(state, event.round, lambda r: replace(r, entered=outcome))
        case RoundVoided():
            reason = event.reason
            return with_round(
                state, event.round, lambda r: replace(r, voided=True, void_reason=reason)
            )
        case RoundResultRuled():
            ruled = RoundOutcome.from_points(event.points, state.table.variant.three_winner)
            ruling = event.reason
            return with_round(
                state, event.round, lambda r: replace(r, ruled=ruled, ruling_reason=ruling)
            )
        case _:
            assert_never(event)


def with_result_mark(
    state: MatchAggregate, event: ResultConfirmed | ResultDisputed, version: int
) -> MatchAggregate:
    """A confirmation or a dispute of the result as it stands, recorded at `version`; confirming
    withdraws the side's open dispute."""
    mark = ResultMark(side=event.side, result=state.result, version=version)
    match event:
        case ResultConfirmed():
            return replace(
                state,
                version=version,
                confirmations=(*state.confirmations, mark),
                disputes=tuple(
                    replace(dispute, standing=False) if dispute.side == event.side else dispute
                    for dispute in state.disputes
                ),
            )
        case ResultDisputed():
            dispute = replace(mark, reason=event.reason)
            return replace(state, version=version, disputes=(*state.disputes, dispute))
        case _:
            assert_never(event)


def with_marks_of_its_result(state: MatchAggregate) -> MatchAggregate:
    """A confirmation or a dispute is of one result: once an event changed the result, those
    recorded against another one no longer stand (decision record 0044). They stay in the
    history, and a lapsed one never stands again, even if the result comes back."""
    if not (state.confirmations or state.disputes) or not any(
        mark.standing for mark in (*state.confirmations, *state.disputes)
    ):
        return state
    result = state.result
    return replace(
        state,
        confirmations=lapsed_unless_of(result, state.confirmations),
        disputes=lapsed_unless_of(result, state.disputes),
    )


def lapsed_unless_of(result: MatchResult, marks: tuple[ResultMark, ...]) -> tuple[ResultMark, ...]:
    return tuple(
        mark if not mark.standing or mark.result == result else replace(mark, standing=False)
        for mark in marks
    )


def new_round(state: MatchAggregate, event: RoundStarted) -> MatchRound:
    """The round started: from the rules' deal that `decide` checked, or for an event read from
    the log (none carried), dealt by the rules here."""
    briscola, dealer = event.briscola, event.dealer
    if briscola is None:
        cards = None
    elif event.decided is not None:
        cards = fold_events((event.decided,))
    else:
        cards = start_round(round_start(state.setup, dealer, briscola, event.deck))
    return MatchRound(
        number=event.round,
        dealer=dealer,
        leader=state.table.next_seat(dealer),
        briscola=briscola,
        cards=cards,
    )


RoundChange = Callable[[MatchRound], MatchRound]


def with_round(state: MatchAggregate, number: int, change: RoundChange) -> tuple[MatchRound, ...]:
    """The match's rounds, round `number` changed."""
    rounds = list(state.rounds)
    rounds[number - 1] = change(rounds[number - 1])
    return tuple(rounds)


def played(event: CardPlayed) -> RoundChange:
    """The round with the card played. A play that `decide` judged carries what the rules made
    of it, applied as it is; one read from the log is judged by the rules here."""
    decided = event.decided
    if decided is not None:
        return lambda r: replace(r, cards=fold_events(decided, cards_of(r)))
    play = Play(event.seat, event.card)
    return lambda r: replace(r, cards=play_card(cards_of(r), play))


def undone(match_round: MatchRound) -> MatchRound:
    return replace(match_round, cards=undo_last_play(cards_of(match_round)))


def corrected(event: CardCorrected) -> RoundChange:
    def apply(match_round: MatchRound) -> MatchRound:
        cards = cards_of(match_round)
        plays = replace_play(cards.plays, event.play_index, event.card)
        return replace(match_round, cards=replay_round(start_command_of(cards), plays).state)

    return apply


def corrected_after_round(event: CardCorrectedAfterRound) -> RoundChange:
    """The finished round replayed with the two plays' cards exchanged (decision record 0048)."""

    def apply(match_round: MatchRound) -> MatchRound:
        cards = cards_of(match_round)
        plays = swap_cards(cards.plays, event.play_index, event.swapped_with)
        return replace(
            match_round,
            cards=replay_round(start_command_of(cards), plays).state,
            corrections=(*match_round.corrections, event),
        )

    return apply
