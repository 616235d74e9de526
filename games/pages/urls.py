from django.urls import URLPattern, path

from games.pages import matches, table

urlpatterns: list[URLPattern] = [
    path("table/", table.table, name="table"),
    path("matches/<uuid:match_id>/", matches.match_detail, name="match-detail"),
    path(
        "matches/<uuid:match_id>/rounds/<int:round_number>/",
        matches.round_replay,
        name="round-replay",
    ),
]
