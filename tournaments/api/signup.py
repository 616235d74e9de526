"""Players' sign-up (issue 26 §1, decision record 0053): anyone who may read a tournament applies
to play while its registration is open; its organizers list the applications, approve, decline
or promote one, and reorder the waiting list."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action
from accounts.throttling import SettingsRateThrottle
from common.api.base import JsonApi
from common.api.commands import REASON_MAX_LENGTH, NoInput, idempotency_key_of
from common.api.serializing import Serializer, validated_input
from tournaments.api.entrants import NAME_MAX_LENGTH
from tournaments.api.schema import (
    TOURNAMENT_NOT_FOUND,
    VERSION_CONFLICT,
    tournament_command_schema,
    tournament_read_schema,
)
from tournaments.api.serializers import TournamentOutput
from tournaments.selectors import answers
from tournaments.selectors.access import TournamentAccess
from tournaments.selectors.signup import application_rows
from tournaments.services import signup
from tournaments.services.pipeline import TournamentCommandResult
from tournaments.state import Registration

APPLICATION_NOT_FOUND = {404: "`tournament_not_found`, `application_not_found`."}


class SignUpThrottle(SettingsRateThrottle):
    """Applications per client address (scope `signup`), whoever sends them: a sign-up page
    is open to anyone, so its writes are counted more strictly than other requests."""

    scope = "signup"

    def get_cache_key(self, request: Any, view: Any) -> str | None:  # noqa: ARG002 - DRF's signature
        if request.method != "POST":
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class ApplicationOutput(Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    contact = serializers.CharField(help_text="Email or phone, as given; empty: none.")
    status = serializers.CharField(help_text="`pending`, `waitlisted`, `entered` or `declined`.")
    position = serializers.IntegerField(
        allow_null=True, help_text="The place on the waiting list, from 1."
    )
    entrant = serializers.IntegerField(allow_null=True)
    applied_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Application"


class ApplicationsOutput(Serializer):
    applications = ApplicationOutput(many=True, help_text="The waiting list first, in order.")

    class Meta:
        ref_name = "Applications"


class SignUpOutput(Serializer):
    entrant = serializers.IntegerField(allow_null=True, help_text="Null until it enters.")
    status = serializers.CharField(help_text="`entered`, `waitlisted` or `pending`.")
    position = serializers.IntegerField(
        allow_null=True, help_text="Waitlisted: the place on the waiting list, from 1."
    )
    player_key = serializers.CharField(
        help_text="The player's key, shown this once (stored only as its hash): it reads and "
        "acts on this entry only, as `Authorization: Token KEY`. A repeated request (same "
        "`Idempotency-Key`) answers the same application and key."
    )

    class Meta:
        ref_name = "SignUp"


def applications_response(
    tournament_id: UUID, result: TournamentCommandResult | None = None, *, code: int = 200
) -> Response:
    rows = application_rows(
        tournament_id=tournament_id, state=None if result is None else result.state
    )
    return Response(ApplicationsOutput({"applications": rows}).data, status=code)


class RegistrationsApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"get": Action.ORGANIZE, "post": Action.READ}
    throttle_classes = [*JsonApi.throttle_classes, SignUpThrottle]

    class InputSerializer(Serializer):
        name = serializers.CharField(
            min_length=1, max_length=NAME_MAX_LENGTH, help_text="The entrant's name."
        )
        players = serializers.ListField(
            child=serializers.CharField(min_length=1, max_length=NAME_MAX_LENGTH),
            required=False,
            help_text="A pair's or a trio's players' names; left out for a single.",
        )
        contact = serializers.CharField(
            required=False,
            allow_blank=True,
            max_length=200,
            help_text="An email address or a phone number, for the organizer only: kept as "
            "personal data outside the tournament's events, erasable.",
        )

        class Meta:
            ref_name = "SignUpInput"

    @tournament_read_schema(
        operation_id="registration_list",
        summary="The players' applications and the waiting list (organizers)",
        response=ApplicationsOutput,
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:  # noqa: ARG002 - DRF passes the request
        return applications_response(tournament_id)

    @tournament_command_schema(
        operation_id="registration_submit",
        summary="Apply to play (anyone who may read the tournament, while registration is open)",
        description="Entered at once when registration is open without approval and under the "
        "cap; waitlisted over the cap when the tournament keeps a waiting list; pending when "
        "the organizer approves each application. Throttled per address (scope `signup`). "
        "Decision record 0053.",
        request=InputSerializer,
        response=SignUpOutput,
        errors={
            **TOURNAMENT_NOT_FOUND,
            409: "`registration_closed` (not open, after `closes_at`, or started); "
            f"{VERSION_CONFLICT}",
            422: "`tournament_full` (the cap reached and no waiting list), "
            "`duplicate_entrant_name`, `players_required`, `invalid_entrant`, `invalid_name`.",
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        signed_up = signup.application_submit(
            tournament_id=tournament_id,
            name=data["name"],
            players=data.get("players"),
            contact=data.get("contact", ""),
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        body = {
            "entrant": signed_up.entrant,
            "status": signed_up.status.value,
            "position": signed_up.position,
            "player_key": signed_up.player_key,
        }
        code = status.HTTP_200_OK if signed_up.repeated else status.HTTP_201_CREATED
        return Response(SignUpOutput(body).data, status=code)


APPLICATION_ERRORS = {
    **APPLICATION_NOT_FOUND,
    409: f"`tournament_started`; {VERSION_CONFLICT}",
    422: "`invalid_application` (not where the action takes it from), `tournament_full`.",
}


class ApplicationApproveApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    @tournament_command_schema(
        operation_id="registration_approve",
        summary="Approve a pending application: it enters under the cap, else it waits",
        request=NoInput,
        response=ApplicationsOutput,
        errors=APPLICATION_ERRORS,
    )
    def post(self, request: Request, tournament_id: UUID, application_id: int) -> Response:
        result = signup.application_approve(
            tournament_id=tournament_id,
            application_id=application_id,
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return applications_response(tournament_id, result, code=201)


class ApplicationDeclineApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        reason = serializers.CharField(
            required=False, allow_blank=True, max_length=REASON_MAX_LENGTH
        )

        class Meta:
            ref_name = "ApplicationDeclineInput"

    @tournament_command_schema(
        operation_id="registration_decline",
        summary="Decline a pending or waitlisted application",
        request=InputSerializer,
        response=ApplicationsOutput,
        errors=APPLICATION_ERRORS,
    )
    def post(self, request: Request, tournament_id: UUID, application_id: int) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = signup.application_decline(
            tournament_id=tournament_id,
            application_id=application_id,
            reason=data.get("reason", ""),
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return applications_response(tournament_id, result, code=201)


class ApplicationPromoteApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    @tournament_command_schema(
        operation_id="registration_promote",
        summary="Enter a waitlisted (or pending) application while there is room under the cap",
        request=NoInput,
        response=ApplicationsOutput,
        errors=APPLICATION_ERRORS,
    )
    def post(self, request: Request, tournament_id: UUID, application_id: int) -> Response:
        result = signup.application_promote(
            tournament_id=tournament_id,
            application_id=application_id,
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return applications_response(tournament_id, result, code=201)


class WaitingListOrderApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"patch": Action.ORGANIZE}

    class InputSerializer(Serializer):
        order = serializers.ListField(
            child=serializers.IntegerField(),
            help_text="Every application on the waiting list once, first promoted first.",
        )

        class Meta:
            ref_name = "WaitingListOrderInput"

    @tournament_command_schema(
        operation_id="registration_reorder",
        summary="Reorder the waiting list",
        request=InputSerializer,
        response=ApplicationsOutput,
        recorded_status=200,
        unchanged="The list was already in that order.",
        errors={
            **TOURNAMENT_NOT_FOUND,
            409: f"`tournament_started`; {VERSION_CONFLICT}",
            422: "`invalid_application`: not every application on the list once.",
        },
    )
    def patch(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = signup.waiting_list_reorder(
            tournament_id=tournament_id,
            order=data["order"],
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return applications_response(tournament_id, result)


class RegistrationInput(Serializer):
    """The sign-up settings (decision record 0053): closed by default."""

    open = serializers.BooleanField(default=False)
    closes_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None, help_text="Null: until the start."
    )
    cap = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, help_text="Null: no cap."
    )
    waitlist = serializers.BooleanField(
        default=False, help_text="Over the cap: wait (true) or refuse `tournament_full`."
    )
    approval = serializers.BooleanField(
        default=False, help_text="Every application waits for the organizer's approval."
    )

    class Meta:
        ref_name = "RegistrationInput"


def registration_from(data: dict[str, Any] | None) -> Registration:
    if data is None:
        return Registration()
    closes_at = data.get("closes_at")
    return Registration(
        open=data["open"],
        closes_at=None if closes_at is None else closes_at.isoformat(),
        cap=data.get("cap"),
        waitlist=data["waitlist"],
        approval=data["approval"],
    )


class RegistrationChangeApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"patch": Action.ORGANIZE}

    InputSerializer = RegistrationInput

    @tournament_command_schema(
        operation_id="registration_change",
        summary="Change the sign-up settings, before the start",
        description="Recorded as `RegistrationChanged`. The tournament's answer shows them as "
        "`registration`.",
        request=RegistrationInput,
        response=TournamentOutput,
        recorded_status=200,
        unchanged="The settings were already so: nothing recorded.",
        errors={
            **TOURNAMENT_NOT_FOUND,
            409: f"`tournament_started`; {VERSION_CONFLICT}",
            422: "`invalid_tournament`.",
        },
    )
    def patch(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = signup.registration_change(
            tournament_id=tournament_id,
            registration=registration_from(data),
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return Response(TournamentOutput(answers.tournament_as_left(result=result)).data)
