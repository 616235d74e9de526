"""A club's seasons: configuration rows its organizers set (decision record 0037).

A season, its points table and its tournaments are the organizer's settings, like a club's name:
they are written here, never derived. What is derived, the standings, is computed from the
tournaments' events when read (`tournaments.seasons.selectors`). Who may call these (a club's
organizers) is checked by the entry points (the admin)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_noop

from accounts.models import Club
from tournaments.errors import InvalidSeason
from tournaments.models import Season, SeasonTournament, Tournament
from tournaments.standings.seasons import PointsTable, check_best_n


def season_create(
    *,
    club: Club,
    name: str,
    points: Sequence[int],
    participation: int = 0,
    best_n: int | None = None,
    slug: str = "",
    tournaments: Iterable[Tournament] = (),
) -> Season:
    """A season of `club`; InvalidPointsTable, InvalidBestN or InvalidSeason when refused."""
    if not name.strip():
        raise InvalidSeason.because(gettext_noop("a season needs a name"))
    table = PointsTable(tuple(points), participation)
    check_best_n(best_n)
    slug = slug or slugify(name)[:60]
    if not slug:
        raise InvalidSeason.because(
            gettext_noop("give the season a slug (letters, digits, hyphens) for its address")
        )
    with transaction.atomic():
        if Season.objects.filter(club=club, slug=slug).exists():
            raise InvalidSeason.because(
                gettext_noop("%(club)s already has a season at %(slug)s: choose another slug"),
                club=club.name,
                slug=slug,
            )
        season = Season.objects.create(
            club=club,
            name=name.strip(),
            slug=slug,
            points=list(table.places),
            participation=table.participation,
            best_n=best_n,
            created_at=timezone.now(),
        )
        for tournament in tournaments:
            season_tournament_add(season=season, tournament=tournament)
    return season


def season_change(
    *,
    season: Season,
    name: str | None = None,
    points: Sequence[int] | None = None,
    participation: int | None = None,
    best_n: int | None = None,
    clear_best_n: bool = False,
) -> Season:
    """Change a season's settings: its standings follow at once (they are computed on read)."""
    table = PointsTable(
        tuple(season.points if points is None else points),
        season.participation if participation is None else participation,
    )
    if clear_best_n:
        best_n = None
    elif best_n is None:
        best_n = season.best_n
    check_best_n(best_n)
    if name is not None:
        if not name.strip():
            raise InvalidSeason.because(gettext_noop("a season needs a name"))
        season.name = name.strip()
    season.points = list(table.places)
    season.participation = table.participation
    season.best_n = best_n
    season.save(update_fields=["name", "points", "participation", "best_n"])
    return season


def season_tournament_add(*, season: Season, tournament: Tournament) -> bool:
    """Count a tournament of the season's club in the season (False: it was already). Another
    club's tournament, and a private one (the season's standings are public), are refused."""
    if tournament.club_id != season.club_id:
        raise InvalidSeason.because(
            gettext_noop(
                "%(tournament)s is not a tournament of %(club)s: a season counts only its "
                "club's tournaments"
            ),
            tournament=tournament.name,
            club=season.club.name,
        )
    if not tournament.public:
        raise InvalidSeason.because(
            gettext_noop(
                "%(tournament)s is private: a season's standings are public, so they count "
                "public tournaments only"
            ),
            tournament=tournament.name,
        )
    _, added = SeasonTournament.objects.get_or_create(season=season, tournament=tournament)
    return added


def season_tournament_remove(*, season: Season, tournament: Tournament) -> bool:
    """Stop counting a tournament in the season (False: it was not counted)."""
    removed, _ = SeasonTournament.objects.filter(season=season, tournament=tournament).delete()
    return removed > 0
