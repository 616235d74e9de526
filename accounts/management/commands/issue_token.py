from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = (
        "Print the API token of USERNAME (only the key, for scripts), creating the user "
        "(without a password) and the token when missing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        username = user_model.normalize_username(options["username"])
        check_username(user_model, username)
        with transaction.atomic():
            user, _created = user_model.objects.get_or_create(
                **{user_model.USERNAME_FIELD: username},
                # An unusable password: the user signs in with the token only.
                defaults={"password": make_password(None)},
            )
            token, _created = Token.objects.get_or_create(user=user)
        if not user.is_active:
            self.stderr.write(
                f"{username} is inactive: the token will be refused until reactivated."
            )
        self.stdout.write(token.key)


def check_username(user_model: type[AbstractUser], username: str) -> None:
    candidate = user_model(**{user_model.USERNAME_FIELD: username})
    others = [field.name for field in user_model._meta.fields]
    others.remove(user_model.USERNAME_FIELD)
    try:
        candidate.clean_fields(exclude=others)
    except ValidationError as error:
        raise CommandError(f"{username!r} is not a valid username: {error.messages[0]}") from None
