from django.urls import URLPattern, path

from games.pages import table

urlpatterns: list[URLPattern] = [
    path("table/", table.table, name="table"),
]
