from django.urls import URLPattern, path

from tournaments.pages import views

urlpatterns: list[URLPattern] = [
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/<uuid:tournament_id>/", views.tournament_detail, name="tournament-detail"),
]
