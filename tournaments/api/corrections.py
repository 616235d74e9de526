"""Entrant corrections: rename an entrant, change its players or its seed; change seeds as a list.

Changes of an existing resource, so `PATCH`, answered 200 with the entrant(s) as the correction
left them. Each records an event with the organizer and the reason
(tournaments/services/corrections.py).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils.translation import gettext_lazy
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action
from common.api.base import JsonApi
from common.api.commands import REASON_MAX_LENGTH, idempotency_key_of
from common.api.serializing import Serializer, validated_input
from tournaments.api.entrants import MAX_SEED, NAME_MAX_LENGTH, group_field
from tournaments.api.schema import (
    ENTRANT_NOT_FOUND,
    VERSION_CONFLICT,
    tournament_command_schema,
)
from tournaments.api.serializers import EntrantOutput
from tournaments.selectors import answers
from tournaments.selectors.access import TournamentAccess
from tournaments.services import corrections

MAX_PLAYERS = 3
"""A trio, at tables of 6: the services refuse a count that does not fit the table."""

REASON_HELP = "Why: recorded with the event, for whoever reads the log."
CONFIRM_HELP = (
    "Another entrant of the tournament has the same name (case and spacing aside): the "
    "answer is 422 `duplicate_entrant_name` unless this is true."
)
NOTHING_TO_CORRECT = gettext_lazy("Give the name, the players, the group or the seed to correct.")
ENTRANT_TWICE = gettext_lazy("Give each entrant once.")


class PlayerInput(Serializer):
    name = serializers.CharField(min_length=1, max_length=NAME_MAX_LENGTH)
    replace = serializers.BooleanField(
        default=False,
        help_text="false (the default): the same person, their name corrected (they keep "
        "their account link); true: another person takes this seat, as a new player.",
    )

    class Meta:
        ref_name = "EntrantPlayerCorrection"


class SeedInput(Serializer):
    entrant = serializers.IntegerField(help_text="The entrant's id.")
    seed = serializers.IntegerField(
        allow_null=True, max_value=MAX_SEED, help_text="1 for the strongest; null for none."
    )

    class Meta:
        ref_name = "EntrantSeedInput"


def reason_field() -> serializers.CharField:
    return serializers.CharField(max_length=REASON_MAX_LENGTH, help_text=REASON_HELP)


class EntrantCorrectApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"patch": Action.ORGANIZE}

    class InputSerializer(Serializer):
        name = serializers.CharField(
            required=False, min_length=1, max_length=NAME_MAX_LENGTH, help_text="The new name."
        )
        players = serializers.ListField(
            child=PlayerInput(),
            required=False,
            min_length=1,
            max_length=MAX_PLAYERS,
            help_text="Every seat in order (1, 2 or 3 at tables of 2, 4 or 6).",
        )
        seed = serializers.IntegerField(
            required=False,
            allow_null=True,
            max_value=MAX_SEED,
            help_text="The new seed, null for none: before the start only, and held by no other "
            "entrant. To swap seeds, use `seeds/`.",
        )
        fixed_table = serializers.IntegerField(
            required=False,
            allow_null=True,
            help_text="The table the entrant always plays at from now on (decision record "
            "0059), null for none: one of the venue's tables, no other active entrant's.",
        )
        group = group_field()
        reason = reason_field()
        confirm_duplicate_name = serializers.BooleanField(default=False, help_text=CONFIRM_HELP)

        class Meta:
            ref_name = "EntrantCorrectInput"

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if not {"name", "players", "seed", "group", "fixed_table"} & set(attrs):
                raise serializers.ValidationError(str(NOTHING_TO_CORRECT))
            return attrs

    @tournament_command_schema(
        operation_id="entrant_correct",
        summary="Correct an entrant: its name, its players, its seed",
        description="Names and players can be corrected at any time, the seed only before the "
        "start. Recorded as `EntrantCorrected` (and `EntrantsReseeded` for the seed), with the "
        "ids of what changed: names stay out of the log.",
        request=InputSerializer,
        response=EntrantOutput,
        recorded_status=200,
        unchanged="Nothing differed from the entrant as it was: nothing recorded.",
        errors={
            **ENTRANT_NOT_FOUND,
            409: f"`tournament_started`: a seed or a group after the start; {VERSION_CONFLICT}",
            422: "`invalid_entrant` (a player count that does not fit the table, a blank name, "
            "a seed below 1, an erased player renamed), `invalid_name` (a control character or "
            "a line separator in a name), `duplicate_entrant_name`, "
            "`duplicate_seed`, `reason_required`, `invalid_fixed_table`, `fixed_table_taken`.",
        },
    )
    def patch(self, request: Request, tournament_id: UUID, entrant_id: int) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        players = data.get("players")
        result = corrections.entrant_amend(
            tournament_id=tournament_id,
            entrant_id=entrant_id,
            name=data.get("name"),
            players=None
            if players is None
            else [corrections.PlayerCorrection(**player) for player in players],
            seed=data.get("seed", corrections.KEEP_SEED),
            fixed_table=data.get("fixed_table", corrections.KEEP_FIXED_TABLE),
            group=data.get("group", corrections.KEEP_GROUP),
            reason=data["reason"],
            confirm_duplicate_name=data["confirm_duplicate_name"],
            actor=request_actor(request, reason=data["reason"]),
            idempotency_key=idempotency_key_of(request),
        )
        entrant = answers.entrant_as_left(result=result, entrant_id=entrant_id)
        return Response(EntrantOutput(entrant).data)


class EntrantsReseedApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"patch": Action.ORGANIZE}

    class InputSerializer(Serializer):
        seeds = serializers.ListField(
            child=SeedInput(),
            min_length=1,
            help_text="The entrants whose seed changes, each once; the others keep theirs.",
        )
        reason = reason_field()

        class Meta:
            ref_name = "EntrantsReseedInput"

        def validate_seeds(self, seeds: list[dict[str, Any]]) -> list[dict[str, Any]]:
            entrants = [seed["entrant"] for seed in seeds]
            if len(set(entrants)) != len(entrants):
                raise serializers.ValidationError(str(ENTRANT_TWICE))
            return seeds

    @tournament_command_schema(
        operation_id="entrants_reseed",
        summary="Change seeds before the start, as one list",
        description="All the seeds at once, so that two entrants can swap. Recorded as "
        "`EntrantsReseeded`; a seeding order fixed earlier with `seed/` gives way, its "
        "positions kept as the others' seeds. Answers every entrant, seeded first, as the "
        "tournament shows them.",
        request=InputSerializer,
        response=EntrantOutput(many=True),
        recorded_status=200,
        unchanged="Every seed was already so: nothing recorded.",
        errors={
            **ENTRANT_NOT_FOUND,
            409: f"`tournament_started`; {VERSION_CONFLICT}",
            422: "`invalid_entrant` (a seed below 1), `duplicate_seed`, `reason_required`.",
        },
    )
    def patch(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = corrections.entrants_reseed(
            tournament_id=tournament_id,
            seeds={seed["entrant"]: seed["seed"] for seed in data["seeds"]},
            reason=data["reason"],
            actor=request_actor(request, reason=data["reason"]),
            idempotency_key=idempotency_key_of(request),
        )
        entrants = answers.tournament_as_left(result=result)["entrants"]
        return Response(EntrantOutput(entrants, many=True).data)
