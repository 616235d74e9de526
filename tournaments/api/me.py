"""The player's own API (issue 26 §2, decision record 0055): `Authorization: Token pk_…`, a
player key, reads and acts on its own entry and nothing else. `GET /me/` answers the tournament,
where the entry is, the next or current match with its table and call, the results and the
place; the player checks in, withdraws before the start, and confirms or disputes their side's
result. Each write answers the player's view as the command left it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils.translation import gettext_noop
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from typing_extensions import override

from accounts.actors import device_of
from accounts.permissions import PlayerPass, denied, is_signed_in
from common.actors import Actor
from common.api.base import JsonApi
from common.api.commands import REASON_MAX_LENGTH, NoInput, command_response, idempotency_key_of
from common.api.schema import command_schema, error_responses
from common.api.serializing import Serializer, validated_input
from common.observability import current_request_id
from tournaments.api.schema import KEY_REUSED
from tournaments.api.serializers import EntrantByesOutput
from tournaments.selectors.me import player_view
from tournaments.services import me
from tournaments.services.pipeline import TournamentCommandResult

TAG = "players"
PLAYER_KEY_ONLY = {
    401: "`not_authenticated` (send `Authorization: Token pk_…`, the player key), "
    "`authentication_failed` (an unknown key) or `player_key_revoked`.",
    403: "`permission_denied`: a user's token or session: only a player key opens this.",
}
NOT_ENTERED = "`not_entered`: the application is pending, waitlisted or declined."


class PlayerKeyOnly(permissions.BasePermission):
    """The player's endpoints answer a player key only: anyone else is anonymous here (401), or
    signed in with an account, which has no entry of its own to act on (403)."""

    @override
    def has_permission(self, request: Request, view: APIView) -> bool:
        if isinstance(request.auth, PlayerPass):
            return True
        if is_signed_in(request.user):
            raise denied(gettext_noop("only a player key opens the player's own page"))
        raise exceptions.NotAuthenticated()


def player_of(request: Request) -> PlayerPass:
    """The request's player key (`PlayerKeyOnly` let only a player key through)."""
    player = request.auth
    if not isinstance(player, PlayerPass):
        raise exceptions.NotAuthenticated()
    return player


def player_actor(request: Request, entrant_id: int, *, reason: str | None = None) -> Actor:
    """The player, with no account: their entrant, and their key's first characters as the
    device (or the device they name)."""
    return Actor(
        entrant=entrant_id,
        device=device_of(request) or player_of(request).prefix,
        reason=reason or None,
        correlation_id=current_request_id(),
    )


def own_entrant(request: Request) -> int:
    player = player_of(request)
    return me.player_entrant(
        tournament_id=player.tournament_id, application_id=player.application_id
    )


def view_of(request: Request) -> dict[str, Any]:
    player = player_of(request)
    view = player_view(tournament_id=player.tournament_id, application_id=player.application_id)
    return dict(PlayerViewOutput(view).data)


class MatchOfMineOutput(Serializer):
    id = serializers.UUIDField()
    round = serializers.IntegerField()
    stage = serializers.CharField()
    table = serializers.IntegerField(allow_null=True, help_text="Null until it has a table.")
    called = serializers.BooleanField(help_text="Called to its table: go and sit there.")
    called_at = serializers.DateTimeField(allow_null=True)
    status = serializers.CharField(help_text="`not_started`, `in_progress` or `finished`.")
    side = serializers.IntegerField(help_text="The side the player's entrant plays, from 0.")
    opponents = serializers.ListField(child=serializers.CharField())
    round_wins = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="Mine first."
    )
    points = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="Card points, mine first."
    )
    outcome = serializers.CharField(allow_null=True, help_text="`won`, `lost` or `tied`.")
    confirmed = serializers.BooleanField(help_text="My side confirmed the result as it stands.")
    disputed = serializers.BooleanField(help_text="My side's dispute is open.")
    dispute_reason = serializers.CharField(help_text="The reason of my side's open dispute.")

    class Meta:
        ref_name = "MatchOfMine"


class PlayerTournamentOutput(Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="`registration`, `in_progress` or `finished`.")
    table_size = serializers.IntegerField()
    page_url = serializers.CharField(help_text="The tournament's public page.")
    standings_url = serializers.CharField()
    feed_url = serializers.CharField(
        help_text="Its events as server-sent events: follow it with the same key."
    )

    class Meta:
        ref_name = "PlayerTournament"


class EntryOutput(Serializer):
    application = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField(
        help_text="`pending`, `waitlisted`, `declined`, `entered` or `withdrawn`."
    )
    position = serializers.IntegerField(
        allow_null=True, help_text="Waitlisted: the place on the waiting list, from 1."
    )
    entrant = serializers.IntegerField(allow_null=True)
    checked_in = serializers.BooleanField()

    class Meta:
        ref_name = "Entry"


class CheckInOutput(Serializer):
    open = serializers.BooleanField(help_text="The organizer has the check-in window open.")
    closes_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "PlayerCheckIn"


class PlayerViewOutput(Serializer):
    tournament = PlayerTournamentOutput()
    entry = EntryOutput()
    check_in = CheckInOutput()
    may_check_in = serializers.BooleanField()
    may_withdraw = serializers.BooleanField(help_text="Entered, and the tournament not started.")
    next_match = MatchOfMineOutput(
        allow_null=True, help_text="The match being played, else the next one; null: none."
    )
    results = MatchOfMineOutput(many=True, help_text="My finished matches, in order.")
    place = serializers.IntegerField(
        allow_null=True, help_text="My rank in the standings (a moment after each result)."
    )
    byes = EntrantByesOutput(
        allow_null=True,
        help_text="Swiss: my requested byes and absence, and whether I may ask for a bye in "
        "the next round (`POST /me/byes/`); null when not entered (decision record 0058).",
    )

    class Meta:
        ref_name = "PlayerView"


class MeApi(JsonApi):
    permission_classes = [PlayerKeyOnly]

    @extend_schema(
        operation_id="me_get",
        summary="My entry: tournament, status, next match and its table, results, place",
        tags=[TAG],
        responses={200: PlayerViewOutput, **error_responses(PLAYER_KEY_ONLY, write=False)},
    )
    def get(self, request: Request) -> Response:
        return Response(view_of(request))


def player_command_response(request: Request, result: TournamentCommandResult) -> Response:
    """201 when the command recorded something; 200 when it was so already, or for a repeated
    idempotency key."""
    body = view_of(request)
    return Response(body, status=201 if result.recorded else 200)


class MeCheckInApi(JsonApi):
    permission_classes = [PlayerKeyOnly]

    @command_schema(
        operation_id="me_check_in",
        summary="Check myself in, while the organizer has the check-in window open",
        description="Calls my match to its table when the other side is here, as when the "
        "organizer checks me in.",
        tag=TAG,
        request=NoInput,
        response=PlayerViewOutput,
        errors={
            **PLAYER_KEY_ONLY,
            409: f"{NOT_ENTERED} `entrant_withdrawn`; `version_conflict`.",
            422: f"`check_in_closed` (not open, or closed). {KEY_REUSED}",
        },
        repeated="I had checked in already (nothing recorded), or the same `Idempotency-Key` "
        "again.",
    )
    def post(self, request: Request) -> Response:
        validated_input(NoInput, request.data)
        player = player_of(request)
        entrant = own_entrant(request)
        result = me.player_check_in(
            tournament_id=player.tournament_id,
            entrant_id=entrant,
            actor=player_actor(request, entrant),
            idempotency_key=idempotency_key_of(request),
        )
        return player_command_response(request, result)


class MeWithdrawApi(JsonApi):
    permission_classes = [PlayerKeyOnly]

    class InputSerializer(Serializer):
        reason = serializers.CharField(
            max_length=REASON_MAX_LENGTH, allow_blank=True, default="", help_text="Optional."
        )

        class Meta:
            ref_name = "MeWithdrawInput"

    @command_schema(
        operation_id="me_withdraw",
        summary="Withdraw, before the start",
        description="The first on the waiting list enters in my place.",
        tag=TAG,
        request=InputSerializer,
        response=PlayerViewOutput,
        errors={
            **PLAYER_KEY_ONLY,
            409: f"{NOT_ENTERED} `tournament_started` (ask the organizer); `version_conflict`.",
            422: KEY_REUSED,
        },
        repeated="I had withdrawn already (nothing recorded), or the same `Idempotency-Key` again.",
    )
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        player = player_of(request)
        entrant = own_entrant(request)
        result = me.player_withdraw(
            tournament_id=player.tournament_id,
            entrant_id=entrant,
            reason=data["reason"],
            actor=player_actor(request, entrant, reason=data["reason"]),
            idempotency_key=idempotency_key_of(request),
        )
        return player_command_response(request, result)


MATCH_ERRORS = {
    **PLAYER_KEY_ONLY,
    404: "`match_not_found`: not one of my matches.",
}


class MeResultConfirmApi(JsonApi):
    permission_classes = [PlayerKeyOnly]

    @command_schema(
        operation_id="me_result_confirm",
        summary="Confirm the result of my match for my side",
        tag=TAG,
        request=NoInput,
        response=PlayerViewOutput,
        errors={
            **MATCH_ERRORS,
            409: f"{NOT_ENTERED} `result_already_confirmed`.",
            422: "`match_not_finished`.",
        },
        idempotent=False,
    )
    def post(self, request: Request, match_id: UUID) -> Response:
        validated_input(NoInput, request.data)
        player = player_of(request)
        entrant = own_entrant(request)
        result = me.player_result_confirm(
            tournament_id=player.tournament_id,
            entrant_id=entrant,
            match_id=match_id,
            actor=player_actor(request, entrant),
        )
        return command_response(result, view_of(request))


class MeResultDisputeApi(JsonApi):
    permission_classes = [PlayerKeyOnly]

    class InputSerializer(Serializer):
        reason = serializers.CharField(
            max_length=REASON_MAX_LENGTH,
            allow_blank=True,  # a blank reason is the rules' to refuse: 422 `reason_required`
            help_text="What is wrong with the result, for the organizer; not blank. It stays in "
            "the event log for good: leave out personal details.",
        )

        class Meta:
            ref_name = "MeResultDisputeInput"

    @command_schema(
        operation_id="me_result_dispute",
        summary="Dispute the result of my match for my side, with a reason",
        description="The organizer sees it where disputes are settled; the result does not "
        "change. Confirming later withdraws the dispute.",
        tag=TAG,
        request=InputSerializer,
        response=PlayerViewOutput,
        errors={
            **MATCH_ERRORS,
            409: f"{NOT_ENTERED} `result_already_disputed`, `result_already_confirmed`.",
            422: "`match_not_finished`, `reason_required`.",
        },
        idempotent=False,
    )
    def post(self, request: Request, match_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        player = player_of(request)
        entrant = own_entrant(request)
        result = me.player_result_dispute(
            tournament_id=player.tournament_id,
            entrant_id=entrant,
            match_id=match_id,
            reason=data["reason"],
            actor=player_actor(request, entrant, reason=data["reason"]),
        )
        return command_response(result, view_of(request))
