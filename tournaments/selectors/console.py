"""The organizer's evening, in order: what is done, what can be done now, what comes later.

A read model for the tournament's admin page (issue 12 §3): registration, check-in, seeding, the
start, the rounds (each match's table, call and state, overdue and disputed ones flagged), the
next round and the finish, each step with the operations that can run now. It reads the folded
tournament and the rows; every operation it offers calls a service
(tournaments/admin/operations.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Match
from tournaments.formats.errors import NoDrawWithoutSameGroup
from tournaments.models import Entrant, Fixture, FixtureStatus
from tournaments.plan import cut_ties, drawing, knockouts, silence
from tournaments.services.pipeline import load_tournament
from tournaments.state import TournamentState

DONE, NOW, LATER = "done", "now", "later"


@dataclass(frozen=True)
class EntrantLine:
    id: int
    name: str
    seed: int | None
    checked_in: bool
    withdrawn: bool


@dataclass(frozen=True)
class DisputeLine:
    """An open dispute of a match's result: the side that disputes, by name, and why (decision
    record 0045). Never who recorded it."""

    side: str
    reason: str


@dataclass(frozen=True)
class MatchLine:
    """One match of the evening as the organizer follows it."""

    pk: int
    key: str
    match_id: UUID
    round: int
    stage: str
    sides: tuple[str, ...]
    """The entrants' names in seat order: two, or three at a table of three."""
    table: int | None
    status: str
    called: bool
    overdue: bool
    disputed: bool
    disputes: tuple[DisputeLine, ...] = ()
    """The open disputes, in the order they were recorded."""

    @property
    def can_call(self) -> bool:
        return self.table is not None and not self.called and self.status == FixtureStatus.READY


@dataclass(frozen=True)
class Step:
    key: str
    title: str
    state: str
    summary: str
    operations: tuple[str, ...] = ()


@dataclass(frozen=True)
class TiedGroup:
    """A group tied at its qualification cut, waiting for the organizer to order the tied
    entrants (the organizer's rule, decision record 0029)."""

    label: str
    places: int
    """How many of the tied entrants qualify."""
    entrants: tuple[EntrantLine, ...]
    """The tied entrants, in seed order."""


@dataclass(frozen=True)
class Evening:
    steps: tuple[Step, ...]
    waiting_check_in: tuple[EntrantLine, ...] = ()
    matches: tuple[MatchLine, ...] = ()
    flagged: tuple[MatchLine, ...] = field(default=())
    tied_groups: tuple[TiedGroup, ...] = ()

    @property
    def operations(self) -> tuple[str, ...]:
        """Every operation that can run now, in the evening's order."""
        return tuple(name for step in self.steps for name in step.operations)


def evening(*, tournament_id: UUID, now: datetime) -> Evening:
    state, _ = load_tournament(tournament_id=tournament_id)
    entrants = [
        EntrantLine(row.id, row.name, row.seed, row.checked_in, row.withdrawn)
        for row in Entrant.objects.filter(tournament_id=tournament_id).order_by("seed", "id")
    ]
    lines = match_lines(tournament_id, now=now)
    active = [e for e in entrants if not e.withdrawn]
    waiting = tuple(e for e in active if not e.checked_in)
    steps = (
        registration_step(state, active),
        check_in_step(state, active, waiting, now=now),
        seeding_step(state),
        start_step(state, active),
        rounds_step(state, lines),
        finish_step(state),
    )
    live = tuple(line for line in lines if line.status != FixtureStatus.FINISHED)
    flagged = tuple(line for line in lines if line.overdue or line.disputed)
    return Evening(
        steps=steps,
        waiting_check_in=waiting,
        matches=live,
        flagged=flagged,
        tied_groups=tied_groups(state, entrants),
    )


def match_lines(tournament_id: UUID, *, now: datetime) -> list[MatchLine]:
    fixtures = list(
        Fixture.objects.filter(tournament_id=tournament_id)
        .exclude(status=FixtureStatus.RESET)
        .select_related("home", "away", "third")
        .order_by("round", "id")
    )
    disputed = dict(
        Match.objects.filter(id__in=[f.match_id for f in fixtures])
        .exclude(disputed_by=[])
        .values_list("id", "disputes")
    )
    return [
        MatchLine(
            pk=fixture.pk,
            key=fixture.key,
            match_id=fixture.match_id,
            round=fixture.round,
            stage=fixture.stage,
            sides=tuple(entrant.name for entrant in fixture.seated),
            table=fixture.table,
            status=fixture.status,
            called=fixture.called_at is not None,
            overdue=fixture.status == FixtureStatus.READY
            and fixture.deadline is not None
            and fixture.deadline <= now,
            disputed=fixture.match_id in disputed,
            disputes=open_disputes(
                disputed.get(fixture.match_id, []),
                [entrant.name for entrant in fixture.seated],
            ),
        )
        for fixture in fixtures
    ]


def open_disputes(
    disputes: Sequence[dict[str, Any]], names: Sequence[str]
) -> tuple[DisputeLine, ...]:
    """The standing disputes of a match row, the sides named in seat order."""
    return tuple(
        DisputeLine(
            side=names[dispute["side"]]
            if dispute["side"] < len(names)
            else _("side %(side)s") % {"side": dispute["side"]},
            reason=dispute.get("reason", ""),
        )
        for dispute in disputes
        if dispute["standing"]
    )


def registration_step(state: TournamentState, active: Sequence[EntrantLine]) -> Step:
    return Step(
        "registration",
        _("Registration"),
        DONE if state.started else NOW,
        ngettext("%(count)s entrant registered", "%(count)s entrants registered", len(active))
        % {"count": len(active)},
    )


def check_in_step(
    state: TournamentState,
    active: Sequence[EntrantLine],
    waiting: Sequence[EntrantLine],
    *,
    now: datetime,
) -> Step:
    window = state.check_in
    is_open = window.accepts(now)
    if window.opened_at is None and window.closed_at is None:
        operations: tuple[str, ...] = ("open_check_in", "close_check_in")
    elif is_open:
        operations = ("close_check_in",)
    else:
        operations = ("open_check_in",)
    said = _("open") if is_open else _("closed")
    if window.opened_at is None and is_open:
        said = _("open at any time (no window opened)")
    checked = len(active) - len(waiting)
    return Step(
        "check_in",
        _("Check-in"),
        DONE if state.started and not waiting else NOW,
        _("%(checked)s of %(count)s checked in; check-in is %(said)s")
        % {"checked": checked, "count": len(active), "said": said},
        operations if not state.finished else (),
    )


def seeding_step(state: TournamentState) -> Step:
    if state.started:
        return Step("seeding", _("Seeding"), DONE, _("fixed at the start"))
    said = (
        _("seeded (%(method)s)") % {"method": seeding_method(state.seeding_method)}
        if state.seeding
        else _("by the given seeds")
    )
    return Step("seeding", _("Seeding"), NOW, said, ("seed_given", "seed_random"))


def seeding_method(method: str | None) -> str:
    return {"given": _("by the given seeds"), "random": _("at random")}.get(
        method or "", method or ""
    )


def start_step(state: TournamentState, active: Sequence[EntrantLine]) -> Step:
    if state.started:
        return Step(
            "start",
            _("Start"),
            DONE,
            _("started with %(count)s entrants") % {"count": len(state.order or ())},
        )
    return Step(
        "start",
        _("Start"),
        NOW if len(active) >= 2 else LATER,
        _("needs two entrants at least") if len(active) < 2 else _("ready to start"),
        ("start", "start_checked_in") if len(active) >= 2 else (),
    )


def groups_keep_the_round_back(state: TournamentState, number: int) -> bool:
    """Whether a strict `avoid_same_group` finds no draw of this Swiss round (decision record
    0057): the organizer may publish it letting entrants of one group meet."""
    rule = drawing.same_group_rule(state, number)
    if rule is None or not rule.strict:
        return False
    try:
        drawing.next_swiss_round(state, number)
    except NoDrawWithoutSameGroup:
        return True
    return False


def rounds_step(state: TournamentState, lines: Sequence[MatchLine]) -> Step:
    if not state.started:
        return Step(
            "rounds", _("Rounds and results"), LATER, _("pairings and tables come with the start")
        )
    playing = [line for line in lines if line.status != FixtureStatus.FINISHED]
    without_table = [line for line in playing if line.table is None]
    operations: list[str] = []
    if without_table and not state.finished:
        operations.append("schedule")
    due = drawing.swiss_round_due(state)
    if state.settings.format == "swiss" and due is not None:
        if not state.settings.automatic_rounds:
            operations.append("publish_swiss_round")
        if groups_keep_the_round_back(state, due):
            operations.append("publish_swiss_round_allowing_same_group")
    operations.append("refresh")
    rounds = sorted({line.round for line in playing})
    said = (
        ngettext(
            "%(count)s match to play (round %(rounds)s), %(without)s without a table",
            "%(count)s matches to play (round %(rounds)s), %(without)s without a table",
            len(playing),
        )
        % {
            "count": len(playing),
            "rounds": ", ".join(map(str, rounds)),
            "without": len(without_table),
        }
        if playing
        else _("no match waiting")
    )
    return Step(
        "rounds",
        _("Rounds and results"),
        DONE if state.finished else NOW,
        said,
        (tuple(operations) if not state.finished else ("refresh",)) + reveal_operation(state),
    )


def reveal_operation(state: TournamentState) -> tuple[str, ...]:
    """The reveal, while the silent final rounds' results are hidden (decision record 0060)."""
    return ("reveal_results",) if silence.silent_from_round(state) is not None else ()


def finish_step(state: TournamentState) -> Step:
    if state.finished:
        return Step("finish", _("Finish"), DONE, _("finished: the standings are final"))
    return Step("finish", _("Finish"), LATER, _("when the format's last match is decided"))


def tied_groups(state: TournamentState, entrants: Sequence[EntrantLine]) -> tuple[TiedGroup, ...]:
    """The complete groups whose tie at the cut waits for the organizer's order."""
    if state.finished or not cut_ties.settles_ties_at_the_cut(state.settings, "organizer"):
        return ()
    by_id = {entrant.id: entrant for entrant in entrants}
    found = []
    for stage in knockouts.group_stages_of(state):
        tie = knockouts.group_cut_tie(state, stage.name)
        decided = state.group_places.get(stage.name)
        if tie is None or (decided is not None and set(decided) == set(tie.tied)):
            continue
        lines = tuple(by_id[entrant] for entrant in tie.tied if entrant in by_id)
        found.append(TiedGroup(stage.name, tie.places, lines))
    return tuple(found)
