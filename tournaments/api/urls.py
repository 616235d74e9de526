"""The tournament API's routes, included under /api/v1/ by config.urls."""

from django.urls import path

from tournaments.api.byes import (
    EntrantByeCancelApi,
    EntrantByesApi,
    EntrantPauseApi,
    EntrantReturnApi,
    MeByeCancelApi,
    MeByesApi,
)
from tournaments.api.calls import CheckInCloseApi, CheckInOpenApi, CheckInWindowApi, MatchCallApi
from tournaments.api.corrections import EntrantCorrectApi, EntrantsReseedApi
from tournaments.api.device_tokens import DeviceTokenListApi, DeviceTokenRevokeApi
from tournaments.api.entrants import (
    EntrantCheckInApi,
    EntrantRegisterApi,
    EntrantsRegisterApi,
    EntrantWithdrawApi,
)
from tournaments.api.event_streams import TournamentEventStreamApi
from tournaments.api.exports import ArchiveApi, ScheduleApi
from tournaments.api.groups import GroupPlacesDecideApi
from tournaments.api.level_matches import LevelMatchDecideApi
from tournaments.api.matches import SwissRoundPublishApi, TournamentMatchListApi
from tournaments.api.me import (
    MeApi,
    MeCheckInApi,
    MeResultConfirmApi,
    MeResultDisputeApi,
    MeWithdrawApi,
)
from tournaments.api.ratings import ClubRatingsApi, PlayerRatingsApi
from tournaments.api.results import BracketDetailApi, StandingListApi
from tournaments.api.reveal import ResultsRevealApi
from tournaments.api.scorer import ScorerMatchListApi
from tournaments.api.seasons import SeasonDetailApi, SeasonListApi
from tournaments.api.sheets import RoundSheetsApi
from tournaments.api.signup import (
    ApplicationApproveApi,
    ApplicationDeclineApi,
    ApplicationPromoteApi,
    RegistrationChangeApi,
    RegistrationsApi,
    WaitingListOrderApi,
)
from tournaments.api.table_cards import TableCardApi, TableCardsApi
from tournaments.api.tournaments import (
    TournamentCreateApi,
    TournamentDetailApi,
    TournamentSeedApi,
    TournamentStartApi,
    TournamentTablesChangeApi,
)
from tournaments.api.webhooks import WebhookEndpointDeactivateApi, WebhookEndpointListApi

TOURNAMENT = "tournaments/<uuid:tournament_id>/"
ENTRANT = f"{TOURNAMENT}entrants/<int:entrant_id>/"
APPLICATION = f"{TOURNAMENT}registrations/<int:application_id>/"

urlpatterns = [
    path("tournaments/", TournamentCreateApi.as_view(), name="tournament-create"),
    path(TOURNAMENT, TournamentDetailApi.as_view(), name="tournament-detail"),
    path(f"{TOURNAMENT}entrants/", EntrantRegisterApi.as_view(), name="entrant-register"),
    path(f"{TOURNAMENT}entrants/bulk/", EntrantsRegisterApi.as_view(), name="entrants-register"),
    path(ENTRANT, EntrantCorrectApi.as_view(), name="entrant-correct"),
    path(f"{ENTRANT}check-in/", EntrantCheckInApi.as_view(), name="entrant-check-in"),
    path(f"{ENTRANT}withdraw/", EntrantWithdrawApi.as_view(), name="entrant-withdraw"),
    path(f"{TOURNAMENT}registration/", RegistrationChangeApi.as_view(), name="registration"),
    path(f"{TOURNAMENT}registrations/", RegistrationsApi.as_view(), name="registrations"),
    path(
        f"{TOURNAMENT}registrations/order/",
        WaitingListOrderApi.as_view(),
        name="registrations-order",
    ),
    path(f"{APPLICATION}approve/", ApplicationApproveApi.as_view(), name="registration-approve"),
    path(f"{APPLICATION}decline/", ApplicationDeclineApi.as_view(), name="registration-decline"),
    path(f"{APPLICATION}promote/", ApplicationPromoteApi.as_view(), name="registration-promote"),
    path(f"{TOURNAMENT}seed/", TournamentSeedApi.as_view(), name="tournament-seed"),
    path(f"{TOURNAMENT}seeds/", EntrantsReseedApi.as_view(), name="entrants-reseed"),
    path(f"{TOURNAMENT}start/", TournamentStartApi.as_view(), name="tournament-start"),
    path(f"{TOURNAMENT}next-round/", SwissRoundPublishApi.as_view(), name="swiss-round-publish"),
    path(f"{TOURNAMENT}matches/", TournamentMatchListApi.as_view(), name="tournament-matches"),
    path(f"{TOURNAMENT}matches/<uuid:match_id>/call/", MatchCallApi.as_view(), name="match-call"),
    path(
        f"{TOURNAMENT}matches/<uuid:match_id>/decide/",
        LevelMatchDecideApi.as_view(),
        name="level-match-decide",
    ),
    path(
        f"{TOURNAMENT}groups/<str:label>/decide/",
        GroupPlacesDecideApi.as_view(),
        name="group-places-decide",
    ),
    path(f"{TOURNAMENT}check-in/", CheckInWindowApi.as_view(), name="check-in-window"),
    path(f"{TOURNAMENT}check-in/open/", CheckInOpenApi.as_view(), name="check-in-open"),
    path(f"{TOURNAMENT}check-in/close/", CheckInCloseApi.as_view(), name="check-in-close"),
    path(
        f"{TOURNAMENT}events/stream/",
        TournamentEventStreamApi.as_view(),
        name="tournament-event-stream",
    ),
    path(f"{TOURNAMENT}standings/", StandingListApi.as_view(), name="tournament-standings"),
    path(f"{TOURNAMENT}bracket/", BracketDetailApi.as_view(), name="tournament-bracket"),
    path(f"{TOURNAMENT}schedule/", ScheduleApi.as_view(), name="tournament-schedule"),
    path(f"{TOURNAMENT}archive/", ArchiveApi.as_view(), name="tournament-archive"),
    path(f"{TOURNAMENT}device-tokens/", DeviceTokenListApi.as_view(), name="device-tokens"),
    path(f"{TOURNAMENT}tables/", TournamentTablesChangeApi.as_view(), name="tournament-tables"),
    path(f"{TOURNAMENT}tables/<int:table>/card/", TableCardApi.as_view(), name="table-card"),
    path(f"{TOURNAMENT}tables/cards/", TableCardsApi.as_view(), name="table-cards"),
    path(
        f"{TOURNAMENT}rounds/<int:round_number>/sheets/",
        RoundSheetsApi.as_view(),
        name="round-sheets",
    ),
    path(f"{TOURNAMENT}webhooks/", WebhookEndpointListApi.as_view(), name="webhook-endpoints"),
    path(
        f"{TOURNAMENT}webhooks/<int:endpoint_id>/deactivate/",
        WebhookEndpointDeactivateApi.as_view(),
        name="webhook-endpoint-deactivate",
    ),
    path(
        f"{TOURNAMENT}device-tokens/<int:token_id>/revoke/",
        DeviceTokenRevokeApi.as_view(),
        name="device-token-revoke",
    ),
    path("scorer/matches/", ScorerMatchListApi.as_view(), name="scorer-matches"),
    # The player's own (a player key: decision record 0055).
    path("me/", MeApi.as_view(), name="me"),
    path("me/check-in/", MeCheckInApi.as_view(), name="me-check-in"),
    path("me/withdraw/", MeWithdrawApi.as_view(), name="me-withdraw"),
    path("me/matches/<uuid:match_id>/confirm/", MeResultConfirmApi.as_view(), name="me-confirm"),
    path("me/matches/<uuid:match_id>/dispute/", MeResultDisputeApi.as_view(), name="me-dispute"),
    # Requested byes and pauses in a Swiss (decision record 0058).
    path(f"{ENTRANT}byes/", EntrantByesApi.as_view(), name="entrant-byes"),
    path(
        f"{ENTRANT}byes/<int:round_number>/",
        EntrantByeCancelApi.as_view(),
        name="entrant-bye-cancel",
    ),
    path(f"{ENTRANT}pause/", EntrantPauseApi.as_view(), name="entrant-pause"),
    path(f"{ENTRANT}return/", EntrantReturnApi.as_view(), name="entrant-return"),
    path("me/byes/", MeByesApi.as_view(), name="me-byes"),
    path("me/byes/<int:round_number>/", MeByeCancelApi.as_view(), name="me-bye-cancel"),
    path("clubs/<slug:club_slug>/seasons/", SeasonListApi.as_view(), name="club-seasons"),
    path(
        "clubs/<slug:club_slug>/seasons/<slug:season_slug>/",
        SeasonDetailApi.as_view(),
        name="club-season",
    ),
    path("clubs/<slug:slug>/ratings/", ClubRatingsApi.as_view(), name="club-ratings"),
    path("players/<int:player_id>/ratings/", PlayerRatingsApi.as_view(), name="player-ratings"),
    path(f"{TOURNAMENT}reveal/", ResultsRevealApi.as_view(), name="tournament-reveal"),
]
