"""Entrants: register one or a list of them, check one in, withdraw it."""

from __future__ import annotations

from uuid import UUID

from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action
from common.api.base import JsonApi
from common.api.commands import REASON_MAX_LENGTH, NoInput, idempotency_key_of
from common.api.serializing import Serializer, validated_input
from tournaments.api.schema import (
    ENTRANT_NOT_FOUND,
    TOURNAMENT_NOT_FOUND,
    VERSION_CONFLICT,
    tournament_command_schema,
)
from tournaments.api.serializers import EntrantOutput
from tournaments.selectors import answers
from tournaments.selectors.access import TournamentAccess
from tournaments.services import pipeline, registration

NAME_MAX_LENGTH = 200
GROUP_HELP = (
    "Its group (a club, a family, a bar's team): at most 60 characters, one line; null or "
    "blank: none. Entrants of one group are kept apart as the tournament's `avoid_same_group` "
    "says (decision record 0057)."
)


def group_field() -> serializers.CharField:
    # Longer than the services take, so that they say why (`invalid_name`).
    return serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=200, help_text=GROUP_HELP
    )


MAX_SEED = 2**31 - 1
"""The seed column's range; the services refuse seeds below 1 (`invalid_entrant`)."""


def entrant_response(result: pipeline.TournamentCommandResult, entrant_id: int) -> Response:
    """The entrant as the command left it: 201 when the command recorded something; 200 when
    the entrant was already so, or for a repeated idempotency key (the first answer)."""
    entrant = answers.entrant_as_left(result=result, entrant_id=entrant_id)
    return Response(
        EntrantOutput(entrant).data,
        status=status.HTTP_201_CREATED if result.recorded else status.HTTP_200_OK,
    )


class EntrantRegisterApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        name = serializers.CharField(
            min_length=1,
            max_length=NAME_MAX_LENGTH,
            help_text="The entrant's name: a player, a pair, a team.",
        )
        players = serializers.ListField(
            child=serializers.CharField(min_length=1, max_length=NAME_MAX_LENGTH),
            required=False,
            help_text="The players' names: 1 at tables of 2 or 3, 2 at 4, 3 at 6. Left out at "
            "tables of 2 or 3: one player named as the entrant; a pair or a trio names its "
            "players (`players_required`).",
        )
        seed = serializers.IntegerField(
            required=False,
            allow_null=True,
            max_value=MAX_SEED,
            help_text="1 for the strongest; entrants without a seed follow, in registration order. "
            "A seed another entrant holds is refused (`duplicate_seed`).",
        )
        group = group_field()
        confirm_duplicate_name = serializers.BooleanField(
            default=False,
            help_text="Another entrant of the tournament has the same name (case and spacing "
            "aside): the answer is 422 `duplicate_entrant_name` unless this is true.",
        )
        fixed_table = serializers.IntegerField(
            required=False,
            allow_null=True,
            help_text="The table the entrant always plays at (reduced mobility, decision "
            "record 0059): one of the venue's tables, no other active entrant's "
            "(`invalid_fixed_table`, `fixed_table_taken`). Null or left out: any table.",
        )

        class Meta:
            ref_name = "EntrantRegisterInput"

    @tournament_command_schema(
        operation_id="entrant_register",
        summary="Register an entrant before the start",
        request=InputSerializer,
        response=EntrantOutput,
        errors={
            **TOURNAMENT_NOT_FOUND,
            409: f"`registration_closed`: the tournament has started; {VERSION_CONFLICT}",
            422: "`invalid_entrant`: a player count that does not fit the table, or a seed "
            "below 1; `invalid_name`: a control character (a line break, a tab...) or a line "
            "separator in a name or the group, or a group over 60 characters; "
            "`players_required`: a pair or a trio without its players' "
            "names; `duplicate_seed`: another entrant holds the seed; "
            "`duplicate_entrant_name`: another entrant has the name (send "
            "`confirm_duplicate_name: true` to register it all the same); "
            "`invalid_fixed_table`, `fixed_table_taken` (decision record 0059).",
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = registration.entrant_register(
            tournament_id=tournament_id,
            name=data["name"],
            players=data.get("players"),
            seed=data.get("seed"),
            fixed_table=data.get("fixed_table"),
            group=data.get("group"),
            confirm_duplicate_name=data["confirm_duplicate_name"],
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return entrant_response(result, registration.registered_entrant_id(result))


MAX_ENTRANTS_AT_ONCE = 1000


class EntrantLineInput(Serializer):
    name = serializers.CharField(min_length=1, max_length=NAME_MAX_LENGTH)
    players = serializers.ListField(
        child=serializers.CharField(min_length=1, max_length=NAME_MAX_LENGTH),
        required=False,
        help_text="As for one entrant: left out at tables of 2 or 3, one player named as the "
        "entrant.",
    )
    seed = serializers.IntegerField(required=False, allow_null=True, max_value=MAX_SEED)
    fixed_table = serializers.IntegerField(
        required=False, allow_null=True, help_text="As for one entrant (decision record 0059)."
    )
    group = group_field()

    class Meta:
        ref_name = "EntrantLineInput"


class EntrantsOutput(Serializer):
    entrants = EntrantOutput(many=True, help_text="In the order of the request's `entrants`.")

    class Meta:
        ref_name = "Entrants"


class EntrantsRegisterApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        entrants = serializers.ListField(
            child=EntrantLineInput(),
            min_length=1,
            max_length=MAX_ENTRANTS_AT_ONCE,
            help_text="The entrants, each as `POST .../entrants/` takes one.",
        )
        confirm_duplicate_names = serializers.BooleanField(
            default=False,
            help_text="Register an entrant whose name another entrant (or another item) has.",
        )

        class Meta:
            ref_name = "EntrantsRegisterInput"

    @tournament_command_schema(
        operation_id="entrants_register",
        summary="Register a list of entrants at once: all of them, or none",
        description="One command: an `EntrantRegistered` per entrant, in order. Each entrant is "
        "checked as `POST .../entrants/` checks one, with the entrants before it registered.",
        request=InputSerializer,
        response=EntrantsOutput,
        errors={
            **TOURNAMENT_NOT_FOUND,
            409: f"`registration_closed`: the tournament has started; {VERSION_CONFLICT}",
            422: "`entrants_refused`: nothing registered; `lines` names each refused entrant "
            "(`line`, its place in `entrants` from 1) with its `code` (`invalid_entrant`, "
            "`players_required`, `duplicate_seed`, `duplicate_entrant_name`, "
            "`invalid_fixed_table`, `fixed_table_taken`) and `detail`.",
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = registration.entrants_register(
            tournament_id=tournament_id,
            lines=[
                registration.ImportedEntrant(
                    line,
                    item["name"],
                    item.get("players"),
                    item.get("seed"),
                    item.get("group"),
                    fixed_table=item.get("fixed_table"),
                )
                for line, item in enumerate(data["entrants"], start=1)
            ],
            confirm_duplicate_names=data["confirm_duplicate_names"],
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        entrants = [
            answers.entrant_as_left(result=result, entrant_id=entrant_id)
            for entrant_id in registration.registered_entrant_ids(result)
        ]
        return Response(
            EntrantsOutput({"entrants": entrants}).data,
            status=status.HTTP_201_CREATED if result.recorded else status.HTTP_200_OK,
        )


class EntrantCheckInApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    @tournament_command_schema(
        operation_id="entrant_check_in",
        summary="Record that an entrant is at the venue",
        description="With the tournament's no-show rule on (`no_show_minutes`), a scheduled "
        "match not started by its deadline is forfeited by a side that has not checked in, and "
        "only when the other side has; with both absent it is only marked `overdue`.",
        request=None,
        response=EntrantOutput,
        errors={**ENTRANT_NOT_FOUND, 409: VERSION_CONFLICT},
        unchanged="The entrant had checked in already: nothing recorded.",
    )
    def post(self, request: Request, tournament_id: UUID, entrant_id: int) -> Response:
        validated_input(NoInput, request.data)
        result = registration.entrant_check_in(
            tournament_id=tournament_id,
            entrant_id=entrant_id,
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return entrant_response(result, entrant_id)


class EntrantWithdrawApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        reason = serializers.CharField(
            max_length=REASON_MAX_LENGTH,
            allow_blank=True,
            default="",
            help_text="Why the entrant leaves; recorded with the event and the forfeits.",
        )

        class Meta:
            ref_name = "EntrantWithdrawInput"

    @tournament_command_schema(
        operation_id="entrant_withdraw",
        summary="Withdraw an entrant",
        description="Before the start the entrant is left out of the seeding; after it, every "
        "match the entrant still has to play is forfeited, now or when it is created.",
        request=InputSerializer,
        response=EntrantOutput,
        errors={**ENTRANT_NOT_FOUND, 409: VERSION_CONFLICT},
        unchanged="The entrant had withdrawn already: nothing recorded.",
    )
    def post(self, request: Request, tournament_id: UUID, entrant_id: int) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = registration.entrant_withdraw(
            tournament_id=tournament_id,
            entrant_id=entrant_id,
            reason=data["reason"],
            actor=request_actor(request, reason=data["reason"]),
            idempotency_key=idempotency_key_of(request),
        )
        return entrant_response(result, entrant_id)
