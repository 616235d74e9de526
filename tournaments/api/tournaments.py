"""Tournaments: create one, read one, seed it, start it."""

from __future__ import annotations

from uuid import UUID

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action
from common.api.base import JsonApi
from common.api.commands import command_response, idempotency_key_of, validated_query
from common.api.schema import error_responses
from common.api.serializing import Serializer, validated_input
from games.api.serializers import ScoringField, VariantField
from tournaments.api.pagination import (
    CursorField,
    PageQuery,
    cursor_of,
    page_output,
    page_parameters,
    tournament_key,
)
from tournaments.api.schema import (
    TAG,
    TOURNAMENT_NOT_FOUND,
    VERSION_CONFLICT,
    tournament_command_schema,
    tournament_read_schema,
)
from tournaments.api.serializers import (
    TIEBREAKS_HELP,
    FormatField,
    SeedingMethodField,
    TeamTableSizeField,
    TournamentOutput,
)
from tournaments.api.signup import RegistrationInput, registration_from
from tournaments.models import TournamentStatus
from tournaments.selectors import answers, lookup
from tournaments.selectors.access import (
    TournamentAccess,
    TournamentCreateAccess,
    club_for_new_tournament,
)
from tournaments.services import registration, running, scheduling
from tournaments.stream.events import EntrantsSeeded, tournament_event
from tournaments.stream.options import (
    MAX_GROUP_SIZE,
    MAX_MINUTES,
    MAX_ROUNDS,
    MAX_SWISS_ROUNDS,
    MAX_TABLES,
)

MAX_RANDOM_SEED = 2**63 - 1


def tournament_response(tournament_id: UUID, *, status_code: int = status.HTTP_200_OK) -> Response:
    tournament = lookup.tournament_get(tournament_id=tournament_id)
    return Response(TournamentOutput(tournament).data, status=status_code)


class TournamentSummaryOutput(Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    format = serializers.CharField()
    table_size = serializers.IntegerField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "TournamentSummary"


class TournamentCreateApi(JsonApi):
    permission_classes = [TournamentCreateAccess]

    class InputSerializer(Serializer):
        # Options left out take the services' defaults, so the defaults live in one place.
        name = serializers.CharField(min_length=1, max_length=200)
        format = FormatField(
            help_text="`single_elimination`, `double_elimination`, `round_robin`, `swiss` or "
            "`groups_then_knockout`."
        )
        table_size = TeamTableSizeField(
            help_text="2, 4 or 6: entrants are singles, pairs or trios; 3: tables of three, "
            "each for himself (no double elimination; decision record 0031)."
        )
        best_of = serializers.IntegerField(
            required=False, help_text="1, 3 or 5 (default 3) when scoring by rounds."
        )
        scoring = ScoringField(
            required=False,
            help_text="`rounds` (default: best of `best_of`) or `points` (`rounds` rounds).",
        )
        rounds = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=1,
            help_text=f"The rounds of a match when scoring by points (at most {MAX_ROUNDS}).",
        )
        variant = VariantField(required=False, help_text="The match variant's options.")
        swiss_rounds = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=1,
            help_text="Swiss: the rounds to play (default: log2 of the entrants, rounded up; "
            f"log3 at tables of three; at most {MAX_SWISS_ROUNDS}).",
        )
        silent_final_rounds = serializers.IntegerField(
            required=False,
            min_value=0,
            help_text="Swiss: the last rounds whose results, and the standings after them, only "
            "the organizers read until they reveal them (`POST reveal/`); default 0, at most "
            "`swiss_rounds` (decision record 0060).",
        )
        group_size = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=2,
            help_text="Groups then knockout: entrants per group (default 4; 6 at tables of "
            f"three, where a group has at least three; at most {MAX_GROUP_SIZE}).",
        )
        advance_per_group = serializers.IntegerField(
            required=False,
            min_value=1,
            help_text="Groups then knockout: how many of each group go on (default 2; at most "
            f"{MAX_GROUP_SIZE}).",
        )
        legs = serializers.IntegerField(
            required=False,
            min_value=1,
            help_text="Round robins and groups: 1 (default) or 2 (home and away).",
        )
        tables = serializers.IntegerField(
            required=False,
            allow_null=True,
            help_text=f"The venue's tables, numbered from 1 (default 1; at most {MAX_TABLES}). "
            "Null: as many as the first round needs (two entrants a table, three at tables of "
            "three, rounded up), counted at the start; change them with `PATCH tables/` "
            "(decision record 0049).",
        )
        third_place = serializers.BooleanField(
            required=False, help_text="Knockouts: play for third place (default false)."
        )
        grand_final_reset = serializers.BooleanField(
            required=False,
            help_text="Double elimination: a second final when the losers' side wins the first "
            "(default true).",
        )
        match_minutes = serializers.IntegerField(
            required=False,
            min_value=1,
            help_text=f"Planned length of a match (default 30; at most {MAX_MINUTES}).",
        )
        no_show_minutes = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=0,
            help_text="The no-show rule: this long after a match is scheduled, a side that has "
            "not checked in forfeits to one that has (both absent: the match is only marked "
            "overdue). Null or absent (the default): no rule, no deadline, no forfeit. At most "
            f"{MAX_MINUTES}.",
        )
        automatic_rounds = serializers.BooleanField(
            required=False,
            help_text="Swiss: pair each round as soon as the previous one is played (default "
            "true); false to publish rounds with `next-round/`.",
        )
        tiebreaks = serializers.ListField(
            child=serializers.CharField(max_length=40),
            required=False,
            allow_null=True,
            help_text=TIEBREAKS_HELP,
        )
        level_knockout = serializers.ChoiceField(
            choices=["deciding_round", "higher_seed", "organizer"],
            required=False,
            help_text="How a knockout match that ends level (scoring by points) gets its "
            "winner: `deciding_round` (the default: one more round, a tied one replayed), "
            "`higher_seed` (the higher seed goes through) or `organizer` (the organizer "
            "decides with `matches/{match_id}/decide/`, giving a reason).",
        )
        placing_scoring = serializers.JSONField(
            required=False,
            allow_null=True,
            help_text='Tables of three: match points per place, e.g. `{"places": [2, 1, 0], '
            '"bye": 2, "forfeit": 0}` (the default); shared places share their points.',
        )
        seeding = serializers.ChoiceField(
            choices=["given", "rating"],
            required=False,
            allow_null=True,
            help_text="How the tournament is seeded when it starts with no seeding fixed: "
            "`given` (the default: the seeds given, then registration order) or `rating` (by "
            "the players' ratings in the club, recorded as the order).",
        )
        club = serializers.CharField(
            required=False,
            max_length=60,
            help_text="The slug of the club that runs it; you must organize that club. By "
            "default the only club you organize.",
        )
        registration = RegistrationInput(
            required=False,
            help_text="Players' sign-up: `open`, `closes_at`, `cap`, `waitlist`, `approval` "
            "(default: closed). Changed before the start with `PATCH registration/`.",
        )
        public = serializers.BooleanField(
            required=False,
            help_text="Default true: anyone reads it. A private tournament is read only by its "
            "club's and its own members and players.",
        )
        accelerated = serializers.BooleanField(
            required=False,
            help_text="Swiss only: pair with the Baku acceleration (decision record 0059): the "
            "top half of the field is given virtual points in the first rounds, for the pairing "
            "only. Not applied to a field under 32 at the start. Default false.",
        )
        avoid_same_group = serializers.CharField(
            required=False,
            allow_null=True,
            max_length=20,
            help_text="Who must not meet (decision record 0057): entrants of one `group` kept "
            "apart in the first round (`first_round`) or in every Swiss round (`always`); null "
            "(the default): not at all. Another value: 422 `invalid_format_option`.",
        )
        avoid_same_group_strength = serializers.CharField(
            required=False,
            max_length=20,
            help_text="`strict` (the default): never; a Swiss round with no draw that keeps "
            "them apart is refused with 409 `no_draw_without_same_group`. `soft`: as few as "
            "possible, after rematches.",
        )
        late_entry_until_round = serializers.IntegerField(
            required=False,
            allow_null=True,
            help_text="Swiss: entrants may be registered after the start while the next round "
            "to draw is at most this one (2 or more); null (the default): not after the start "
            "(decision record 0058).",
        )
        late_entry_points = serializers.ChoiceField(
            choices=["zero", "bye"],
            required=False,
            help_text="Swiss: what a late entrant scores for each round it missed: `zero` (the "
            "default) or `bye` (a bye's match points).",
        )
        max_requested_byes = serializers.IntegerField(
            required=False,
            help_text="Swiss: the rounds an entrant may ask to sit out (default 1).",
        )
        requested_bye_points = serializers.IntegerField(
            required=False,
            allow_null=True,
            help_text="Swiss: the match points of a requested bye; null (the default): half a "
            "win's (of a 1st place's at tables of three), rounded down.",
        )

        class Meta:
            ref_name = "TournamentCreateInput"

    @tournament_command_schema(
        operation_id="tournament_create",
        summary="Create a tournament",
        # A key would have to be looked up across streams: a new tournament is a new stream.
        idempotent=False,
        request=InputSerializer,
        response=TournamentOutput,
        errors={
            422: "`invalid_tournament`, `invalid_format_option` (an option out of its bounds), "
            "`invalid_name` (a control character, or over 200 characters), "
            "`invalid_match_format`, `invalid_variant`, `unknown_tiebreak`, "
            "`duplicate_tiebreak`, `invalid_standings_config`.",
        },
    )
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        club = club_for_new_tournament(request.user, data.pop("club", None))
        if "registration" in data:
            data["registration"] = registration_from(data["registration"])
        tournament = registration.tournament_create(**data, club=club, actor=request_actor(request))
        return tournament_response(tournament.id, status_code=status.HTTP_201_CREATED)

    class QuerySerializer(PageQuery):
        status = serializers.ChoiceField(choices=TournamentStatus.values, required=False)
        after = CursorField(read=tournament_key, required=False)

        class Meta:
            ref_name = "TournamentListQuery"

    PageOutputSerializer = page_output(
        "tournaments",
        TournamentSummaryOutput(
            many=True, help_text="Newest first (then by id): this page's tournaments."
        ),
        ref_name="TournamentPage",
    )

    @extend_schema(
        operation_id="tournament_list",
        summary="Every tournament you may read, newest first, a page at a time",
        description="Follow `next_after` (as `after`) until it is null for the whole list; the "
        "filter goes with every page.",
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "status",
                str,
                enum=list(TournamentStatus.values),
                description="Only the tournaments with this status.",
            ),
            *page_parameters("tournaments"),
        ],
        responses={
            200: PageOutputSerializer,
            **error_responses({400: "`invalid_input`: `status`, `after` or `limit`."}, write=False),
        },
    )
    def get(self, request: Request) -> Response:
        query = validated_query(self.QuerySerializer, request.query_params)
        page = lookup.tournament_page(
            status=query.get("status"),
            reader=request.user,
            after=query.get("after"),
            limit=query["limit"],
        )
        body = {"tournaments": page.rows, "next_after": cursor_of(page.next_after)}
        return Response(self.PageOutputSerializer(body).data)


class TournamentDetailApi(JsonApi):
    permission_classes = [TournamentAccess]

    @tournament_read_schema(
        operation_id="tournament_get",
        summary="A tournament, its settings and its entrants",
        response=TournamentOutput,
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:  # noqa: ARG002 - DRF calls every handler with the request
        return tournament_response(tournament_id)


class TournamentSeedApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        method = SeedingMethodField(
            default="given",
            help_text="`given`: by the seeds given at registration, then registration order; "
            "`random`: shuffled from `random_seed`; `rating`: by the players' ratings in the "
            "club (a team by the mean of its players'), recorded as the order.",
        )
        random_seed = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=0,
            max_value=MAX_RANDOM_SEED,
            help_text="Needed by `random`; recorded, so the draw can be repeated and checked.",
        )

        class Meta:
            ref_name = "TournamentSeedInput"

    class OutputSerializer(Serializer):
        order = serializers.ListField(
            child=serializers.IntegerField(), help_text="Entrant ids, first seed first."
        )
        method = serializers.CharField()
        random_seed = serializers.IntegerField(allow_null=True)

        class Meta:
            ref_name = "TournamentSeeding"

    @tournament_command_schema(
        operation_id="tournament_seed",
        summary="Fix the seeding order before the start",
        description="Withdrawn entrants are left out. Seeding again replaces the order.",
        request=InputSerializer,
        response=OutputSerializer,
        errors={
            **TOURNAMENT_NOT_FOUND,
            409: f"`tournament_started`; {VERSION_CONFLICT}",
            422: "`invalid_tournament`: an unknown method, or `random` without `random_seed`.",
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = registration.tournament_seed(
            tournament_id=tournament_id,
            method=data["method"],
            random_seed=data.get("random_seed"),
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        seeded = tournament_event(result.events[0])
        if not isinstance(seeded, EntrantsSeeded):
            raise TypeError(f"a seeding records EntrantsSeeded first, not {seeded.type}")
        body = {
            "order": list(seeded.order),
            "method": seeded.method,
            "random_seed": seeded.random_seed,
        }
        return command_response(result, self.OutputSerializer(body).data)


class TournamentStartApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        only_checked_in = serializers.BooleanField(
            default=False,
            help_text="Withdraw every entrant that has not checked in (reason `did not check "
            "in`), then start with the others.",
        )

        class Meta:
            ref_name = "TournamentStartInput"

    @tournament_command_schema(
        operation_id="tournament_start",
        summary="Start the tournament: close registration and create the first matches",
        description="Entrants not seeded with `seed/` are seeded by the seeds given at "
        "registration (then registration order); withdrawn entrants are left out.",
        request=InputSerializer,
        response=TournamentOutput,
        errors={
            **TOURNAMENT_NOT_FOUND,
            409: f"`tournament_started`; {VERSION_CONFLICT}",
            422: "`too_few_entrants`, `invalid_format_option` (an option the format cannot "
            "take with these entrants, e.g. three legs).",
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = running.tournament_start(
            tournament_id=tournament_id,
            only_checked_in=data["only_checked_in"],
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        tournament = answers.tournament_as_left(result=result)
        return command_response(result, TournamentOutput(tournament).data)


class TournamentTablesChangeApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"patch": Action.ORGANIZE}

    class InputSerializer(Serializer):
        tables = serializers.IntegerField(
            allow_null=True,
            help_text=f"The venue's tables, numbered from 1 (at most {MAX_TABLES}). Null, before "
            "the start only: as many as the entrants registered need, counted at the start.",
        )

        class Meta:
            ref_name = "TournamentTablesChangeInput"

    @tournament_command_schema(
        operation_id="tournament_tables_change",
        summary="Change the venue's tables, at any time",
        description="Recorded as `TablesChanged`. More tables give the waiting matches of a "
        "running tournament their tables; fewer are refused while a match waiting for its "
        "result holds a table beyond them (decision record 0049).",
        request=InputSerializer,
        response=TournamentOutput,
        recorded_status=200,
        unchanged="The tables were already so: nothing recorded.",
        errors={
            **TOURNAMENT_NOT_FOUND,
            409: f"`tournament_started` (null after the start); {VERSION_CONFLICT}",
            422: "`invalid_format_option` (out of 1 to the most), `tables_in_use` (a match "
            "waiting for its result holds a table beyond them, or an entrant's fixed table is "
            "beyond them).",
        },
    )
    def patch(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = scheduling.tournament_tables_change(
            tournament_id=tournament_id,
            tables=data["tables"],
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return Response(TournamentOutput(answers.tournament_as_left(result=result)).data)
