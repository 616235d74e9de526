"""Output shapes shared by several tournament operations: tournaments, entrants and matches."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api.serializing import Serializer
from games.api.serializers import VariantField
from tournaments.models import (
    DecidedBy,
    Entrant,
    Fixture,
    FixtureStatus,
    Format,
    Tournament,
    TournamentStatus,
)
from tournaments.plan import rankings
from tournaments.projections.rows import tables_of
from tournaments.state import Registration, tables_needed
from tournaments.stream.commands import TABLE_SIZES

SEEDING_METHODS = ("given", "random")

TIEBREAKS_HELP = (
    "Tie-break names in order; null for the default order (decision record 0008; at tables of "
    "three decision record 0031: `match_points`, `placings`, `head_to_head`, "
    "`card_points_margin`, `round_wins_margin`, `opponents_score`, `seed`)."
)


# Named enums: the schema would otherwise name them after their fields (`status`, `format`),
# which collide with the scorer API's.
@extend_schema_field({"type": "string", "enum": Format.values}, component_name="TournamentFormat")
class FormatField(serializers.CharField):
    """A format name; the tournament services decide which names exist (422 otherwise)."""


@extend_schema_field(
    {"type": "integer", "enum": list(TABLE_SIZES)}, component_name="TournamentTableSize"
)
class TeamTableSizeField(serializers.IntegerField):
    """A tournament's table size; the services refuse the others (422 `invalid_tournament`)."""


@extend_schema_field(
    {"type": "string", "enum": list(SEEDING_METHODS)}, component_name="SeedingMethod"
)
class SeedingMethodField(serializers.CharField):
    """The services refuse other methods (422 `invalid_tournament`)."""


@extend_schema_field(
    {"type": "string", "enum": TournamentStatus.values}, component_name="TournamentStatus"
)
class TournamentStatusField(serializers.CharField):
    pass


@extend_schema_field(
    {"type": "string", "enum": [*DecidedBy.values, None], "nullable": True},
    component_name="DecidedBy",
)
class DecidedByField(serializers.CharField):
    """`higher_seed` or `organizer` (decision record 0029); null when won at the table."""


FIXTURE_STATUSES = [FixtureStatus.READY, FixtureStatus.IN_PROGRESS, FixtureStatus.FINISHED]
"""The statuses a listed match can have (a reset match is never listed)."""


@extend_schema_field(
    {"type": "string", "enum": [str(s) for s in FIXTURE_STATUSES]},
    component_name="TournamentMatchStatus",
)
class FixtureStatusField(serializers.CharField):
    pass


class EntrantOutput(Serializer):
    id = serializers.IntegerField(help_text="Use it in the entrant's URLs and in results.")
    name = serializers.CharField()
    players = serializers.SerializerMethodField(help_text="The players' names, in seat order.")
    seed = serializers.IntegerField(
        allow_null=True, help_text="As given at registration; the seeding's position once seeded."
    )
    checked_in = serializers.BooleanField()
    withdrawn = serializers.BooleanField()
    fixed_table = serializers.IntegerField(
        allow_null=True,
        help_text="The table the entrant always plays at (decision record 0059); null: any.",
    )
    group = serializers.CharField(
        allow_null=True,
        default=None,
        help_text="Its group (a club, a family, a bar's team): entrants of one group are kept "
        "apart as `avoid_same_group` says; null: none.",
    )

    class Meta:
        ref_name = "Entrant"

    def get_players(self, entrant: Entrant) -> list[str]:
        return [str(membership.player) for membership in entrant.entrantplayer_set.all()]


class TournamentOutput(Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    format = FormatField()
    status = TournamentStatusField()
    table_size = serializers.IntegerField(help_text="2, 4 or 6 seats at every match.")
    best_of = serializers.IntegerField(source="settings.best_of")
    scoring = serializers.CharField(source="settings.scoring", help_text="`rounds` or `points`.")
    rounds = serializers.IntegerField(
        source="settings.rounds",
        allow_null=True,
        help_text="The rounds of a match scored by points.",
    )
    variant = VariantField(source="settings.variant")
    swiss_rounds = serializers.IntegerField(
        source="settings.swiss_rounds",
        allow_null=True,
        help_text="Null: enough rounds for the field (log2 of the entrants, rounded up).",
    )
    group_size = serializers.IntegerField(
        source="settings.group_size", allow_null=True, help_text="Null: groups of 4."
    )
    advance_per_group = serializers.IntegerField(source="settings.advance_per_group")
    legs = serializers.IntegerField(source="settings.legs")
    tables = serializers.SerializerMethodField(
        help_text="The venue's tables, numbered from 1. Created by need (`tables_by_need`): "
        "what the entrants registered need until the start, which counts the first round's "
        "need (decision record 0049). Changed with `PATCH tables/`."
    )
    tables_by_need = serializers.SerializerMethodField(
        help_text="True before the start of a tournament created without `tables` (or set back "
        "to null): `tables` follows the entrants registered."
    )
    third_place = serializers.BooleanField(source="settings.third_place")
    grand_final_reset = serializers.BooleanField(source="settings.grand_final_reset")
    match_minutes = serializers.IntegerField(source="settings.match_minutes")
    no_show_minutes = serializers.IntegerField(
        source="settings.no_show_minutes",
        allow_null=True,
        help_text="The no-show rule's minutes; null: no rule, nothing is forfeited for a no-show.",
    )
    automatic_rounds = serializers.BooleanField(source="settings.automatic_rounds")
    seeding = serializers.CharField(
        source="settings.seeding",
        default=None,
        allow_null=True,
        help_text="`rating`: started with no seeding fixed, the tournament is seeded by its "
        "players' ratings; null: by the seeds given (decision 0036).",
    )
    tiebreaks = serializers.ListField(
        source="settings.tiebreaks",
        child=serializers.CharField(),
        allow_null=True,
        help_text=TIEBREAKS_HELP,
    )
    level_knockout = serializers.SerializerMethodField(
        help_text="How a knockout match that ends level (scoring by points) gets its winner: "
        "`deciding_round`, `higher_seed` or `organizer`; null for a tournament created before "
        "the rule (its level matches wait for the organizer's decision)."
    )
    placing_scoring = serializers.SerializerMethodField(
        help_text="Tables of three: match points per place (`places`: 1st, 2nd, 3rd), a bye "
        "and a forfeit; null at two-sided tables."
    )
    registration = serializers.SerializerMethodField(
        help_text="Players' sign-up (decision record 0053): `open`, `closes_at`, `cap`, "
        "`waitlist`, `approval`; closed by default."
    )
    accelerated = serializers.BooleanField(
        source="settings.accelerated",
        default=False,
        help_text="Swiss paired with the Baku acceleration (decision record 0059).",
    )
    avoid_same_group = serializers.CharField(
        source="settings.avoid_same_group",
        default=None,
        allow_null=True,
        help_text="Who must not meet: `first_round`, `always`; null: not at all (decision 0057).",
    )
    avoid_same_group_strength = serializers.CharField(
        source="settings.avoid_same_group_strength",
        default="strict",
        help_text="`strict` or `soft`.",
    )
    late_entry_until_round = serializers.IntegerField(
        source="settings.late_entry_until_round",
        default=None,
        allow_null=True,
        help_text="Swiss: late entrants are taken while the next round to draw is at most this "
        "one; null: none after the start (decision record 0058).",
    )
    late_entry_points = serializers.CharField(
        source="settings.late_entry_points",
        default="zero",
        help_text="Swiss: a late entrant's missed rounds score `zero` or a `bye` each.",
    )
    max_requested_byes = serializers.IntegerField(
        source="settings.max_requested_byes",
        default=1,
        help_text="Swiss: the rounds an entrant may ask to sit out.",
    )
    requested_bye_points = serializers.IntegerField(
        source="settings.requested_bye_points",
        default=None,
        allow_null=True,
        help_text="Swiss: a requested bye's match points; null: half a win's, rounded down.",
    )
    entrants = EntrantOutput(many=True, help_text="Seeded first, in seed order.")
    version = serializers.IntegerField(help_text="The tournament stream's version.")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    silent_final_rounds = serializers.SerializerMethodField(
        help_text="Swiss: the last rounds whose results only the organizers read until they "
        "reveal them (decision record 0060); 0: none."
    )
    results_hidden = serializers.SerializerMethodField(
        help_text="The silent rounds' results are hidden now (not revealed yet): the public "
        "reads the standings after `standings_after_round` and no result of the later rounds."
    )
    standings_after_round = serializers.SerializerMethodField(
        help_text="While `results_hidden`: the last round whose results the public reads; "
        "null otherwise."
    )

    class Meta:
        ref_name = "Tournament"

    def get_silent_final_rounds(self, tournament: Tournament | dict[str, Any]) -> int:
        settings = tournament["settings"] if isinstance(tournament, dict) else tournament.settings
        return int(settings.get("silent_final_rounds") or 0)

    def get_results_hidden(self, tournament: Tournament | dict[str, Any]) -> bool:
        return self.get_standings_after_round(tournament) is not None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_standings_after_round(self, tournament: Tournament | dict[str, Any]) -> int | None:
        silent_from = (
            tournament["silent_from_round"]
            if isinstance(tournament, dict)
            else tournament.silent_from_round
        )
        return None if silent_from is None else int(silent_from) - 1

    def get_tables(self, tournament: Tournament | dict[str, Any]) -> int:
        settings = tournament["settings"] if isinstance(tournament, dict) else tournament.settings
        if settings.get("tables") is not None:
            return int(settings["tables"])
        if isinstance(tournament, dict):
            active = sum(1 for entrant in tournament["entrants"] if not entrant.withdrawn)
            return tables_needed(entrants=active, table_size=tournament["table_size"])
        return tables_of(tournament)

    def get_tables_by_need(self, tournament: Tournament | dict[str, Any]) -> bool:
        settings = tournament["settings"] if isinstance(tournament, dict) else tournament.settings
        return settings.get("tables") is None

    @extend_schema_field(serializers.JSONField())
    def get_registration(self, tournament: Tournament | dict[str, Any]) -> dict[str, Any]:
        settings = tournament["settings"] if isinstance(tournament, dict) else tournament.settings
        return Registration.from_dict(settings.get("registration")).to_dict()

    def get_level_knockout(self, tournament: Tournament | dict[str, Any]) -> str | None:
        # A row, or the same fields as a dict (what a command's answer is built from).
        settings = tournament["settings"] if isinstance(tournament, dict) else tournament.settings
        level_knockout: str | None = settings.get("level_knockout")
        return level_knockout

    @extend_schema_field(serializers.JSONField(allow_null=True))
    def get_placing_scoring(self, tournament: Tournament | dict[str, Any]) -> Any:
        settings = tournament["settings"] if isinstance(tournament, dict) else tournament.settings
        table_size = (
            tournament["table_size"] if isinstance(tournament, dict) else tournament.table_size
        )
        if table_size != 3:
            return None
        return rankings.placing_scoring_in_force(settings.get("placing_scoring"))


class TournamentMatchOutput(Serializer):
    id = serializers.UUIDField(
        source="match_id",
        help_text="The match id: score it with /api/v1/matches/{id}/ and its rounds.",
    )
    key = serializers.CharField(help_text="The pairing or bracket slot, e.g. `R1-2`, `W2-1`.")
    stage = serializers.CharField(
        help_text="A bracket's section (`main`, `third_place`, `winners`, `losers`, "
        "`grand_final`), `league`, `swiss`, or a group's label (`A`, `B`...)."
    )
    round = serializers.IntegerField()
    entrants = serializers.SerializerMethodField(
        help_text="[home, away] entrant ids; at tables of three [first, second, third] in seat "
        "order."
    )
    entrant_names = serializers.SerializerMethodField(
        help_text="The entrants' names in the same order, as they read now (an erased player's "
        "entrant reads `erased player`)."
    )
    places = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="At tables of three, once finished: each entrant's place (1, 2, 3; shared "
        "places repeat), in the order of `entrants`. Null at two-sided tables.",
    )
    status = FixtureStatusField(
        help_text="As the tournament last recorded it from the match (the consumer lags)."
    )
    table = serializers.IntegerField(allow_null=True)
    scheduled_at = serializers.DateTimeField(allow_null=True)
    called_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When the match was called to its table (by the organizer, or by itself once "
        "both sides checked in). Null: not called yet.",
    )
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="With the no-show rule on, the call plus its minutes: a match not started by "
        "then is forfeited by the side that has not checked in, if the other has. Null with the "
        "rule off or before the call.",
    )
    overdue = serializers.SerializerMethodField(
        help_text="Past its deadline and still not started or forfeited (both sides absent, or "
        "both present but not playing): for the organizer to settle."
    )
    winner = serializers.IntegerField(
        source="winner_id", allow_null=True, help_text="The winning entrant's id; null if none."
    )
    winner_name = serializers.SerializerMethodField(
        help_text="The winning entrant's name; null if none."
    )
    decided_by = DecidedByField(
        allow_null=True,
        help_text="How a knockout match that ended level got its winner off the table: "
        "`higher_seed` (the tournament's rule) or `organizer` (the organizer's decision, whose "
        "reason stays in the event log). Null: won at the table, or no winner yet.",
    )

    class Meta:
        ref_name = "TournamentMatch"

    def get_overdue(self, fixture: Fixture) -> bool:
        return (
            fixture.status == FixtureStatus.READY
            and fixture.deadline is not None
            and fixture.deadline <= timezone.now()
        )

    def get_entrants(self, fixture: Fixture) -> list[int]:
        return fixture.entrant_ids

    def get_entrant_names(self, fixture: Fixture) -> list[str]:
        return [entrant.name for entrant in fixture.seated]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_winner_name(self, fixture: Fixture) -> str | None:
        winner = [entrant for entrant in fixture.seated if entrant.id == fixture.winner_id]
        return winner[0].name if winner else None


_moment = serializers.DateTimeField()
"""How TournamentMatchOutput writes a date and time (ISO 8601, in the current time zone)."""


def match_document(row: dict[str, Any], now: datetime) -> dict[str, Any]:
    """What TournamentMatchOutput writes for a fixture, from a plain row of
    `selectors.FIXTURE_ROW_FIELDS`, without a serializer's cost per value (a page is up to 500
    matches; tested equal to the serializer's answer)."""
    seated = [
        (row[f"{seat}_id"], row[f"{seat}__name"])
        for seat in ("home", "away", "third")
        if row[f"{seat}_id"] is not None
    ]
    winner = row["winner_id"]
    return {
        "id": str(row["match_id"]),
        "key": row["key"],
        "stage": row["stage"],
        "round": row["round"],
        "entrants": [entrant for entrant, _ in seated],
        "entrant_names": [name for _, name in seated],
        "places": row["places"],
        "status": row["status"],
        "table": row["table"],
        "scheduled_at": _moment.to_representation(row["scheduled_at"]),
        "called_at": _moment.to_representation(row["called_at"]),
        "deadline": _moment.to_representation(row["deadline"]),
        "overdue": row["status"] == FixtureStatus.READY
        and row["deadline"] is not None
        and row["deadline"] <= now,
        "winner": winner,
        "winner_name": next((name for entrant, name in seated if entrant == winner), None),
        "decided_by": row["decided_by"],
    }


class EntrantByesOutput(Serializer):
    entrant = serializers.IntegerField()
    requested_byes = serializers.ListField(
        child=serializers.IntegerField(), help_text="The rounds it asked to sit out."
    )
    paused = serializers.BooleanField(help_text="Left out of the draws until it returns.")
    from_round = serializers.IntegerField(
        allow_null=True, help_text="A late entrant: the first round it was drawn in."
    )
    next_round = serializers.IntegerField(
        allow_null=True, help_text="The next Swiss round to draw; null: none (or not a Swiss)."
    )
    may_request_next = serializers.BooleanField(
        help_text="A bye in `next_round` would be taken now."
    )

    class Meta:
        ref_name = "EntrantByes"
