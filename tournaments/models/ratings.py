"""Club ratings: a club's setting, and the ratings and their history as projections (decision
record 0036)."""

from django.db import models

from tournaments.models.core import Player, Tournament


class ClubRatingSettings(models.Model):
    """Configuration: how a club's results count for the ratings (decision record 0036)."""

    club = models.OneToOneField(
        "accounts.Club", on_delete=models.CASCADE, related_name="rating_settings"
    )
    count_forfeits = models.BooleanField(
        default=False,
        help_text="Forfeited matches change the players' ratings (off: they are not rated).",
    )

    class Meta:
        verbose_name = "club rating settings"
        verbose_name_plural = "club rating settings"

    def __str__(self) -> str:
        return f"rating settings of {self.club}"


class PlayerRating(models.Model):
    """Projection: a player's rating in a club (or overall: no club), from the log."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    club = models.ForeignKey(
        "accounts.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(help_text="The display value: mu minus three sigma.")
    matches = models.PositiveIntegerField()
    position = models.BigIntegerField(help_text="The global position of its last match.")

    class Meta:
        ordering = ["club", "-rating", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "club"],
                name="tournaments_playerrating_scope",
                nulls_distinct=False,
            )
        ]
        indexes = [models.Index(fields=["club", "-rating"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.2f}"


class RatingChange(models.Model):
    """Projection: one player's rating before and after one match, in a club or overall."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    club = models.ForeignKey(
        "accounts.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    match_id = models.UUIDField()
    position = models.BigIntegerField(help_text="The global position of the match's result.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()

    class Meta:
        ordering = ["player", "club", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "club", "match_id"],
                name="tournaments_ratingchange_match",
                nulls_distinct=False,
            )
        ]
        indexes = [models.Index(fields=["match_id"]), models.Index(fields=["club", "position"])]

    def __str__(self) -> str:
        return f"{self.player} in {self.match_id}: {self.rating_after - self.rating_before:+.2f}"
