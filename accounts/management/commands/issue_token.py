from argparse import ArgumentTypeError
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts import selectors, services
from accounts.models import Club, Role, User


class Command(BaseCommand):
    help = (
        "Print the API token of USERNAME (only the key, for scripts), creating the user "
        "(without a password) and the token when missing. With --role and --club or "
        "--tournament, also grant the user that role there (creating the club when missing)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--role", choices=Role.values, help="Grant this role (with --club or --tournament)."
        )
        parser.add_argument(
            "--club", metavar="SLUG", help="The club to grant the role in; created when missing."
        )
        parser.add_argument(
            "--tournament",
            metavar="UUID",
            type=tournament_id,
            help="The tournament (its id) to grant the role in.",
        )
        parser.add_argument(
            "--tables",
            metavar="N,N",
            type=table_numbers,
            default=(),
            help="With --role scorer --tournament: only the matches at these tables.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        username = user_model.normalize_username(options["username"])
        check_username(user_model, username)
        role, club_slug = options["role"], options["club"]
        tournament = options["tournament"]
        if isinstance(tournament, str):  # call_command(tournament=...) skips the parser's type
            try:
                tournament = tournament_id(tournament)
            except ArgumentTypeError as error:
                raise CommandError(str(error)) from None
        check_role_options(role=role, club_slug=club_slug, tournament=tournament)
        try:
            user, token = self.issue(
                user_model,
                username,
                role=role,
                club_slug=club_slug,
                tournament=tournament,
                tables=options["tables"],
            )
        except services.AccountsError as error:
            raise CommandError(error.detail) from None
        if not user.is_active:
            self.stderr.write(
                f"{username} is inactive: the token will be refused until reactivated."
            )
        self.stdout.write(token.key)

    def issue(
        self,
        user_model: type[User],
        username: str,
        *,
        role: str | None,
        club_slug: str | None,
        tournament: UUID | None,
        tables: Sequence[int] = (),
    ) -> tuple[User, Token]:
        with transaction.atomic():
            user, _created = user_model.objects.get_or_create(
                **{user_model.USERNAME_FIELD: username},
                # An unusable password: the user signs in with the token only.
                defaults={"password": make_password(None)},
            )
            token, _created = Token.objects.get_or_create(user=user)
            if role is not None:
                club = None if club_slug is None else club_named(club_slug)
                services.role_grant(
                    user=user, role=role, club=club, tournament_id=tournament, tables=tables
                )
        return user, token


def check_username(user_model: type[AbstractUser], username: str) -> None:
    candidate = user_model(**{user_model.USERNAME_FIELD: username})
    others = [field.name for field in user_model._meta.fields]
    others.remove(user_model.USERNAME_FIELD)
    try:
        candidate.clean_fields(exclude=others)
    except ValidationError as error:
        raise CommandError(f"{username!r} is not a valid username: {error.messages[0]}") from None


def table_numbers(value: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in value.split(",") if part.strip())
    except ValueError:
        raise ArgumentTypeError(f"{value!r} is not a list of table numbers (3,4)") from None


def tournament_id(value: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise ArgumentTypeError(f"{value!r} is not a tournament id (a UUID)") from None


def check_role_options(*, role: str | None, club_slug: str | None, tournament: UUID | None) -> None:
    """Refuse half-given or ambiguous options before anything is written."""
    if role is None:
        if club_slug is not None or tournament is not None:
            raise CommandError("--club and --tournament grant a role: give --role too")
        return
    if (club_slug is None) == (tournament is None):
        raise CommandError(
            "--role is granted in a club or in a tournament: give --club or --tournament"
        )


def club_named(slug: str) -> Club:
    return selectors.club_by_slug(slug=slug) or services.club_create(name=slug, slug=slug)
