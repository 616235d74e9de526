"""A club's seasons: configuration, their standings computed on read (decision record 0037)."""

from django.db import models

from tournaments.models.core import Tournament


class Season(models.Model):
    """Configuration: a club's season, as its organizers set it (decision record 0037). Its
    standings are computed from its tournaments' events when read, never stored."""

    club = models.ForeignKey("accounts.Club", on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=60, help_text="Unique within the club: the page's address.")
    points = models.JSONField(help_text="Points for 1st, 2nd, 3rd... place, best place first.")
    participation = models.PositiveSmallIntegerField(
        default=0, help_text="Points for a place beyond the points table."
    )
    best_n = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Count only each player's N best results; empty: all."
    )
    tournaments = models.ManyToManyField(
        Tournament, through="SeasonTournament", related_name="seasons", blank=True
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["club", "-created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="tournaments_season_club_slug")
        ]

    def __str__(self) -> str:
        return self.name


class SeasonTournament(models.Model):
    """Configuration: a tournament counted in a season."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="memberships")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["season", "tournament__created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "tournament"], name="tournaments_seasontournament_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} in {self.season}"
