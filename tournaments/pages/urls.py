"""Public tournament pages: the list, a tournament's standings, bracket and fixtures, the
projector screen, and a player's matches."""

from django.urls import URLPattern, path

from tournaments.pages import me, ratings, signup, views
from tournaments.pages import seasons as season_views

urlpatterns: list[URLPattern] = [
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/<uuid:tournament_id>/", views.tournament_detail, name="tournament-detail"),
    path(
        "tournaments/<uuid:tournament_id>/screen/",
        views.tournament_screen,
        name="tournament-screen",
    ),
    path(
        "tournaments/<uuid:tournament_id>/sign-up/",
        signup.sign_up,
        name="tournament-sign-up",
    ),
    path("me/", me.me, name="me"),
    path("players/<int:player_id>/", views.player_detail, name="player-detail"),
    path("clubs/<slug:club_slug>/seasons/", season_views.club_seasons, name="club-seasons"),
    path(
        "clubs/<slug:club_slug>/seasons/<slug:season_slug>/",
        season_views.season_detail,
        name="season-detail",
    ),
    path("clubs/<slug:slug>/ratings/", ratings.club_ratings, name="club-ratings"),
]
