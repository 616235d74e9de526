from django.apps import AppConfig


class CommonConfig(AppConfig):
    """What every app uses: the JSON API's base, the admin's helpers, the error envelope."""

    name = "common"
    verbose_name = "Common parts"
