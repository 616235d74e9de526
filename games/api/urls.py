"""The scorer API's routes, included under /api/v1/ by config.urls."""

from django.urls import path

from games.api.event_streams import MatchEventStreamApi
from games.api.events import EventListApi, MatchEventListApi
from games.api.matches import (
    MatchCreateApi,
    MatchDetailApi,
    MatchForfeitApi,
    ResultConfirmApi,
    ResultDisputeApi,
)
from games.api.plays import CardBatchApi, CardCorrectApi, CardPlayApi
from games.api.rounds import (
    PlayUndoApi,
    RoundCorrectApi,
    RoundDetailApi,
    RoundPointsEnterApi,
    RoundReplayApi,
    RoundRuleApi,
    RoundStartApi,
    RoundVoidApi,
)

MATCH = "matches/<uuid:match_id>/"
ROUND = f"{MATCH}rounds/<int:round_number>/"

urlpatterns = [
    path("matches/", MatchCreateApi.as_view(), name="match-create"),
    path(MATCH, MatchDetailApi.as_view(), name="match-detail"),
    path(f"{MATCH}confirm/", ResultConfirmApi.as_view(), name="result-confirm"),
    path(f"{MATCH}dispute/", ResultDisputeApi.as_view(), name="result-dispute"),
    path(f"{MATCH}forfeit/", MatchForfeitApi.as_view(), name="match-forfeit"),
    path(f"{MATCH}events/", MatchEventListApi.as_view(), name="match-events"),
    path(f"{MATCH}events/stream/", MatchEventStreamApi.as_view(), name="match-event-stream"),
    path(f"{MATCH}rounds/", RoundStartApi.as_view(), name="round-start"),
    path(ROUND, RoundDetailApi.as_view(), name="round-detail"),
    path(f"{ROUND}plays/", CardPlayApi.as_view(), name="card-play"),
    path(f"{ROUND}plays/batch/", CardBatchApi.as_view(), name="card-play-batch"),
    path(f"{ROUND}plays/<int:play_index>/correct/", CardCorrectApi.as_view(), name="card-correct"),
    path(f"{ROUND}score/", RoundPointsEnterApi.as_view(), name="round-points-enter"),
    path(f"{ROUND}undo/", PlayUndoApi.as_view(), name="play-undo"),
    path(f"{ROUND}void/", RoundVoidApi.as_view(), name="round-void"),
    path(f"{ROUND}rule/", RoundRuleApi.as_view(), name="round-rule"),
    path(f"{ROUND}correct/", RoundCorrectApi.as_view(), name="round-correct"),
    path(f"{ROUND}replay/", RoundReplayApi.as_view(), name="round-replay"),
    path("events/", EventListApi.as_view(), name="log-events"),
]
