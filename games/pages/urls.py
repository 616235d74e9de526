from django.urls import URLPattern, path

from games.pages import views

urlpatterns: list[URLPattern] = [
    path("table/", views.table, name="table"),
]
