"""Deciding how a tournament moves on: its start, its Swiss rounds, the fixtures whose entrants
became known, results (and the resets they cause), level knockout matches and group places the
organizer decides, and its end."""

from __future__ import annotations

import uuid
from dataclasses import replace

from common.explained import gettext_noop
from tournaments.errors import (
    EntrantNotFound,
    GroupNotComplete,
    GroupNotFound,
    GroupNotTied,
    InvalidGroupOrder,
    MatchNotLevel,
    SwissRoundNotDue,
    TooFewEntrants,
    TournamentAlreadyStarted,
    TournamentNotStarted,
)
from tournaments.formats.errors import NoDrawWithoutSameGroup
from tournaments.plan import cut_ties, drawing, knockouts, rankings
from tournaments.state import Fixture, Result, SwissPairing, TournamentState, tables_needed
from tournaments.stream.commands import (
    AdvanceTournament,
    DecideGroupPlaces,
    DecideLevelMatch,
    PublishSwissRound,
    RecordResult,
    StartTournament,
)
from tournaments.stream.entrant_checks import check_reason_given, entrant_order, rating_seeding
from tournaments.stream.events import (
    EntrantsSeeded,
    EntrantWithdrew,
    GroupPlacesDecided,
    TablesChanged,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
)
from tournaments.stream.evolve import evolve, fold
from tournaments.stream.fixture_events import (
    FixtureCreated,
    FixtureReset,
    LevelMatchDecided,
    ResultRecorded,
    SwissRoundPaired,
)
from tournaments.stream.tables import fixed_tables_in_use, live_fixture

FIRST_ROUND = "first_round"
"""`TablesChanged.by` when the start counts the tables of a tournament created by need."""


def start_tournament(state: TournamentState, command: StartTournament) -> list[TournamentEvent]:
    if state.started:
        raise TournamentAlreadyStarted.because(gettext_noop("the tournament has already started"))
    seeded: list[TournamentEvent] = []
    if state.settings.seeding == "rating" and state.seeding is None:
        by_rating = EntrantsSeeded(rating_seeding(state, command.rating_order), method="rating")
        seeded, state = [by_rating], evolve(state, by_rating)
    given = entrant_order(state, method="given", random_seed=None)
    # A seeding fixed before a late registration: the late entrants follow, by their seeds.
    seeding = state.seeding or ()
    order = (*seeding, *(entrant for entrant in given if entrant not in seeding))
    order = tuple(entrant for entrant in order if not state.entrants[entrant].withdrawn)
    absent = (
        [entrant for entrant in order if not state.entrants[entrant].checked_in]
        if command.only_checked_in
        else []
    )
    order = tuple(entrant for entrant in order if entrant not in absent)
    if rankings.at_threes(state.settings) and 2 <= len(order) < 3:
        raise TooFewEntrants.because(
            gettext_noop("a tournament at tables of three needs at least three entrants to start")
        )
    if len(order) < 2:
        if absent:
            raise TooFewEntrants.because(
                gettext_noop("fewer than two entrants have checked in: the tournament cannot start")
            )
        raise TooFewEntrants.because(
            gettext_noop("a tournament needs at least two entrants to start")
        )
    withdrawn: list[TournamentEvent] = [
        EntrantWithdrew(entrant, reason="did not check in") for entrant in absent
    ]
    started = TournamentStarted(order)
    counted: list[TournamentEvent] = (
        [
            TablesChanged(
                max(
                    tables_needed(entrants=len(order), table_size=state.settings.table_size),
                    fixed_tables_in_use(fold(withdrawn, state)),
                ),
                by=FIRST_ROUND,
            )
        ]
        if state.settings.tables is None
        else []
    )
    followed = advance(fold([*withdrawn, started, *counted], state), command.tournament)
    return [*seeded, *withdrawn, started, *counted, *followed]


def publish_swiss_round(
    state: TournamentState, command: PublishSwissRound
) -> list[TournamentEvent]:
    if not state.started:
        raise TournamentNotStarted.because(gettext_noop("start the tournament first"))
    number = drawing.swiss_round_due(state)
    if number is None:
        raise SwissRoundNotDue.because(
            gettext_noop(
                "no Swiss round can be paired now: the current round is still being played, "
                "all rounds were played, or this is not a Swiss tournament"
            )
        )
    paired = swiss_round_paired(state, number, allow_same_group=command.allow_same_group)
    return [paired, *advance(evolve(state, paired), command.tournament)]


def swiss_round_paired(
    state: TournamentState, number: int, *, allow_same_group: bool = False
) -> SwissRoundPaired:
    paired = drawing.next_swiss_round(state, number, allow_same_group=allow_same_group)
    return SwissRoundPaired(
        SwissPairing(
            number=number,
            pairings=paired.tables,
            bye=paired.bye,
            requested=paired.requested,
            absent=paired.absent,
        )
    )


def advance_tournament(state: TournamentState, command: AdvanceTournament) -> list[TournamentEvent]:
    return advance(state, command.tournament)


def advance(state: TournamentState, tournament: uuid.UUID) -> list[TournamentEvent]:
    """What the tournament records next on its own: the next automatic Swiss round, a fixture
    for every pairing or bracket slot whose entrants became known, and the end once the format
    is done. Nothing before the start or after the end."""
    if not state.started or state.finished:
        return []
    events: list[TournamentEvent] = []

    def record(recorded: TournamentEvent) -> None:
        nonlocal state
        events.append(recorded)
        state = evolve(state, recorded)

    number = drawing.swiss_round_due(state)
    if number is not None and (number == 1 or state.settings.automatic_rounds):
        try:
            record(swiss_round_paired(state, number))
        except NoDrawWithoutSameGroup:
            if number == 1:
                raise  # the start is refused: its groups can still be corrected
            # A result is never refused for the round after it: the organizer publishes that
            # one, allowing entrants of one group to meet (decision record 0057).
    generation = state.resets
    for spec in drawing.fixtures_to_create(state):
        record(
            FixtureCreated(
                fixture=spec.id,
                match_id=str(fixture_match_id(tournament, spec.id, generation)),
                home=spec.home,
                away=spec.away,
                stage=spec.stage,
                round=spec.round,
                third=spec.third,
            )
        )
    if drawing.is_complete(state):
        record(TournamentFinished())
    return events


def fixture_match_id(tournament: uuid.UUID, fixture_id: str, generation: int) -> uuid.UUID:
    """Stable per fixture and reset generation, so a retried advance creates nothing twice."""
    return uuid.uuid5(tournament, f"{fixture_id}#{generation}")


def record_result(state: TournamentState, command: RecordResult) -> list[TournamentEvent]:
    fixture = state.fixture_of_match(command.match_id)
    if fixture is None:
        return []
    result = settled(state, fixture, command.result)
    if state.results.get(fixture.id) == result:
        return []
    resets = knockouts.resets_after(state, fixture.id, result)
    recorded: list[TournamentEvent] = [
        ResultRecorded(fixture.id, result),
        *(FixtureReset(reset, reason=f"the result of {fixture.id} changed") for reset in resets),
    ]
    return [*recorded, *advance(fold(recorded, state), command.tournament)]


def settled(state: TournamentState, fixture: Fixture, result: Result) -> Result:
    """A knockout match's result with its winner (decision record 0029): a level one goes to
    the higher seed under that rule, and keeps the organizer's decision while its rounds stay
    as they were. Any other result as the match says."""
    if result.winner is not None or not knockouts.is_knockout_fixture(state, fixture.id):
        return result
    if state.settings.level_knockout == "higher_seed":
        winner = knockouts.higher_seed(state, knockouts.level_leaders(fixture, result))
        return replace(result, winner=winner, decided_by="higher_seed")
    earlier = state.results.get(fixture.id)
    unchanged = earlier is not None and replace(earlier, winner=None, decided_by=None) == result
    if earlier is not None and earlier.decided_by == "organizer" and unchanged:
        return earlier
    return result


def decide_level_match(state: TournamentState, command: DecideLevelMatch) -> list[TournamentEvent]:
    reason = check_reason_given(command.reason)
    fixture = live_fixture(state, command.match_id)
    if not knockouts.is_knockout_fixture(state, fixture.id):
        raise MatchNotLevel.because(
            gettext_noop("%(fixture)s is not a knockout match: its result stands as played"),
            fixture=fixture.id,
        )
    result = state.results.get(fixture.id)
    if result is None:
        raise MatchNotLevel.because(
            gettext_noop("%(fixture)s has no result yet: decide it once it ends level"),
            fixture=fixture.id,
        )
    if result.winner is not None:
        raise MatchNotLevel.because(
            gettext_noop("%(fixture)s has a winner already"), fixture=fixture.id
        )
    if command.winner not in fixture.entrants:
        raise EntrantNotFound.because(
            gettext_noop("entrant %(entrant)s does not play %(fixture)s"),
            entrant=command.winner,
            fixture=fixture.id,
        )
    if command.winner not in knockouts.level_leaders(fixture, result):
        raise MatchNotLevel.because(
            gettext_noop("entrant %(entrant)s did not share first place at %(fixture)s"),
            entrant=command.winner,
            fixture=fixture.id,
        )
    decided = LevelMatchDecided(fixture.id, command.winner, reason=reason)
    return [decided, *advance(evolve(state, decided), command.tournament)]


def decide_group_places(
    state: TournamentState, command: DecideGroupPlaces
) -> list[TournamentEvent]:
    reason = check_reason_given(command.reason)
    tie = group_tie_to_decide(state, command.group)
    if len(set(command.order)) != len(command.order) or set(command.order) != set(tie.tied):
        raise InvalidGroupOrder.because(
            gettext_noop(
                "the order must list the entrants tied at the cut of group %(group)s once each: "
                "%(entrants)s"
            ),
            group=command.group,
            entrants=", ".join(f"#{entrant}" for entrant in tie.tied),
        )
    decided = GroupPlacesDecided(command.group, tuple(command.order), reason=reason)
    return [decided, *advance(evolve(state, decided), command.tournament)]


def group_tie_to_decide(state: TournamentState, label: str) -> cut_ties.CutTie:
    """The tie at the cut of group `label` that waits for the organizer, or why there is none."""
    group = next((g for g in knockouts.group_stages_of(state) if g.name == label), None)
    if group is None:
        raise GroupNotFound.because(
            gettext_noop("this tournament has no group %(group)s"), group=label
        )
    if not group.complete:
        raise GroupNotComplete.because(
            gettext_noop("group %(group)s is still being played: decide its places once it ends"),
            group=label,
        )
    if not cut_ties.settles_ties_at_the_cut(state.settings, "organizer"):
        raise GroupNotTied.because(
            gettext_noop(
                "the tournament's rule settles a tie at the cut of group %(group)s, not the "
                "organizer"
            ),
            group=label,
        )
    tie = knockouts.group_cut_tie(state, label)
    if tie is None:
        raise GroupNotTied.because(
            gettext_noop("group %(group)s has no tie at its qualification cut"), group=label
        )
    decided = state.group_places.get(label)
    if decided is not None and set(decided) == set(tie.tied):
        raise GroupNotTied.because(
            gettext_noop("the places of group %(group)s at the cut were decided already"),
            group=label,
        )
    return tie
