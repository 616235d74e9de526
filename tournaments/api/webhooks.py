"""Webhooks through the API: a tournament's organizers register the addresses that are sent its
events, list them and deactivate them (decision record 0039; the admin does the same)."""

from __future__ import annotations

from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.permissions import Action
from common.api.base import JsonApi
from common.api.commands import NoInput
from common.api.schema import error_responses
from common.api.serializing import Serializer, validated_input
from tournaments.api.schema import TAG, TOURNAMENT_NOT_FOUND, tournament_command_schema
from tournaments.selectors.access import TournamentAccess
from tournaments.webhooks import services as webhook_services
from tournaments.webhooks.selectors import tournament_webhooks


class WebhookEndpointOutput(Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    active = serializers.BooleanField(help_text="False once deactivated: sent nothing more.")
    after_position = serializers.IntegerField(
        help_text="The log's head at registration: the events after it are sent."
    )
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "WebhookEndpoint"


class RegisteredWebhookEndpointOutput(WebhookEndpointOutput):
    secret = serializers.CharField(
        help_text="The key of the `X-Briscola-Signature` HMAC. Shown this once."
    )

    class Meta:
        ref_name = "RegisteredWebhookEndpoint"


class WebhookEndpointListApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"get": Action.AUDIT, "post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        url = serializers.CharField(
            max_length=webhook_services.MAX_URL_LENGTH,
            help_text="An http or https address without credentials.",
        )
        secret = serializers.CharField(
            required=False,
            max_length=webhook_services.MAX_SECRET_LENGTH,
            help_text=f"{webhook_services.MIN_SECRET_LENGTH} to "
            f"{webhook_services.MAX_SECRET_LENGTH} characters; by default one is generated.",
        )

        class Meta:
            ref_name = "WebhookEndpointRegisterInput"

    @extend_schema(
        operation_id="webhook_endpoint_list",
        summary="The tournament's webhook endpoints, newest first (organizers)",
        tags=[TAG],
        responses={
            200: WebhookEndpointOutput(many=True),
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
        endpoints = tournament_webhooks(tournament_id=tournament_id)
        return Response(WebhookEndpointOutput(endpoints, many=True).data)

    @tournament_command_schema(
        idempotent=False,
        operation_id="webhook_endpoint_register",
        summary="Register an address that is sent the tournament's events from now on (organizers)",
        request=InputSerializer,
        response=RegisteredWebhookEndpointOutput,
        errors={
            **TOURNAMENT_NOT_FOUND,
            422: "`webhook_url_invalid`, `webhook_address_refused`, `webhook_secret_invalid`.",
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        endpoint, secret = webhook_services.webhook_register(
            tournament_id=tournament_id,
            url=data["url"],
            user=request.user,
            secret=data.get("secret"),
        )
        body = {**WebhookEndpointOutput(endpoint).data, "secret": secret}
        return Response(body, status=status.HTTP_201_CREATED)


class WebhookEndpointDeactivateApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    @extend_schema(
        operation_id="webhook_endpoint_deactivate",
        summary="Send the endpoint nothing more (organizers); again changes nothing",
        tags=[TAG],
        request=None,
        responses={
            200: WebhookEndpointOutput,
            **error_responses({404: "`tournament_not_found`, `webhook_not_found`."}),
        },
    )
    def post(self, request: Request, tournament_id: UUID, endpoint_id: int) -> Response:
        validated_input(NoInput, request.data)
        endpoint = webhook_services.webhook_deactivate(
            endpoint_id=endpoint_id, user=request.user, tournament_id=tournament_id
        )
        return Response(WebhookEndpointOutput(endpoint).data, status=status.HTTP_200_OK)
