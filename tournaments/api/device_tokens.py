"""Scorers' devices: an organizer issues a token per tablet, lists them and revokes them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import DeviceToken
from accounts.permissions import Action
from accounts.selectors import tournament_device_tokens
from accounts.throttling import AnonymousRateThrottle, ClientRateThrottle, TokenIssueThrottle
from common.api.base import JsonApi
from common.api.commands import NoInput
from common.api.schema import error_responses
from common.api.serializing import Serializer, validated_input
from tournaments.api.schema import TAG, TOURNAMENT_NOT_FOUND, tournament_command_schema
from tournaments.selectors.access import TournamentAccess
from tournaments.services import device_tokens

MAX_TABLE_NUMBER = 500


class DeviceTokenOutput(Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The device, e.g. 'tablet at table 3'.")
    prefix = serializers.CharField(help_text="The key's first characters, to recognise it.")
    scorer = serializers.CharField(source="user.username", help_text="Who scores with it.")
    tables = serializers.ListField(
        child=serializers.IntegerField(), help_text="Only these tables; empty for every table."
    )
    state = serializers.SerializerMethodField(help_text="`active`, `expired` or `revoked`.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)
    last_used_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "DeviceToken"

    def get_state(self, token: DeviceToken) -> str:
        return str(token.state_at(timezone.now()))


class IssuedDeviceTokenOutput(DeviceTokenOutput):
    key = serializers.CharField(
        help_text="Send it as `Authorization: Token KEY`. Shown this once: only its hash is kept."
    )

    class Meta:
        ref_name = "IssuedDeviceToken"


class DeviceTokenListApi(JsonApi):
    permission_classes = [TournamentAccess]
    throttle_classes = [AnonymousRateThrottle, ClientRateThrottle, TokenIssueThrottle]
    access = {"get": Action.AUDIT, "post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        scorer = serializers.CharField(
            max_length=150, help_text="The username of a scorer (or organizer) of the tournament."
        )
        name = serializers.CharField(max_length=64, help_text="The device, e.g. 'tablet 3'.")
        tables = serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_TABLE_NUMBER),
            required=False,
            max_length=MAX_TABLE_NUMBER,
            help_text="Only these tables of the tournament; by default every table.",
        )
        expires_in_minutes = serializers.IntegerField(
            required=False,
            min_value=1,
            max_value=31 * 24 * 60,
            help_text="By default the configured lifetime (24 hours); at most 31 days.",
        )

        class Meta:
            ref_name = "DeviceTokenIssueInput"

    @extend_schema(
        operation_id="device_token_list",
        summary="The tournament's device tokens, newest first (organizers)",
        tags=[TAG],
        responses={
            200: DeviceTokenOutput(many=True),
            **error_responses(
                {
                    **TOURNAMENT_NOT_FOUND,
                    401: "`not_authenticated` or `authentication_failed`: sign in.",
                    403: "`permission_denied`: only the tournament's organizers.",
                },
                write=False,
            ),
        },
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:  # noqa: ARG002 - DRF calls every handler with the request
        tokens = tournament_device_tokens(tournament_id=tournament_id)
        return Response(DeviceTokenOutput(tokens, many=True).data)

    @tournament_command_schema(
        idempotent=False,
        operation_id="device_token_issue",
        summary="Issue a device token to one of the tournament's scorers (organizers)",
        request=InputSerializer,
        response=IssuedDeviceTokenOutput,
        errors={
            **TOURNAMENT_NOT_FOUND,
            422: "`invalid_device_token`: an unknown user, a user who does not score the "
            "tournament, a table it does not have, a lifetime too long.",
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        minutes = data.get("expires_in_minutes")
        token, key = device_tokens.scorer_device_token_issue(
            tournament_id=tournament_id,
            username=data["scorer"],
            device=data["name"],
            tables=data.get("tables", []),
            expires_in=None if minutes is None else timedelta(minutes=minutes),
            issued_by=request.user,
        )
        body: dict[str, Any] = {**DeviceTokenOutput(token).data, "key": key}
        return Response(body, status=status.HTTP_201_CREATED)


class DeviceTokenRevokeApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    @extend_schema(
        operation_id="device_token_revoke",
        summary="Revoke a device token: it signs in no more (organizers); again changes nothing",
        tags=[TAG],
        request=None,
        responses={
            200: DeviceTokenOutput,
            **error_responses({404: "`tournament_not_found`, `device_token_not_found`."}),
        },
    )
    def post(self, request: Request, tournament_id: UUID, token_id: int) -> Response:
        validated_input(NoInput, request.data)
        token = device_tokens.scorer_device_token_revoke(
            tournament_id=tournament_id, token_id=token_id
        )
        return Response(DeviceTokenOutput(token).data, status=status.HTTP_200_OK)
