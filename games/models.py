"""Inline projections of the match streams: what a table needs to continue, and what readers
see. Every row here is derived from the event log and can be dropped and rebuilt from it
(`manage.py rebuild_projections`); the events themselves live in `games.eventstore`.
"""

from django.db import models


class MatchStatus(models.TextChoices):
    NOT_STARTED = "not_started"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"


class RoundStatus(models.TextChoices):
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    VOIDED = "voided"


class Scoring(models.TextChoices):
    ROUNDS = "rounds", "Best of N rounds"
    POINTS = "points", "Fixed rounds, total points"


class Match(models.Model):
    """One match stream folded: its id is the stream id."""

    id = models.UUIDField(primary_key=True)
    table_size = models.PositiveSmallIntegerField()
    scoring = models.CharField(max_length=10, choices=Scoring.choices)
    best_of = models.PositiveSmallIntegerField(
        help_text="Rounds to win the majority of (scoring 'rounds'), or rounds played ('points')."
    )
    sides = models.JSONField(help_text='[{"name": ...}] per side, side 0 first.')
    variant = models.JSONField()
    first_dealer = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=12, choices=MatchStatus.choices)
    round_wins = models.JSONField()
    total_points = models.JSONField()
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    forfeited_by = models.PositiveSmallIntegerField(null=True, blank=True)
    confirmed_by = models.JSONField(default=list)
    version = models.PositiveIntegerField(help_text="The stream version this row reflects.")
    last_position = models.BigIntegerField(help_text="Global position of the last event applied.")
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        names = " v ".join(side["name"] for side in self.sides)
        return f"{names} ({self.get_status_display()})"


class Round(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=RoundStatus.choices)
    dealer_seat = models.PositiveSmallIntegerField()
    leader_seat = models.PositiveSmallIntegerField()
    # NULL, not "": a round started without a briscola, or not decided yet, reads as null.
    briscola = models.CharField(max_length=3, null=True, blank=True)  # noqa: DJ001
    plays = models.JSONField(default=list, help_text="[[seat, card], ...] in playing order.")
    points = models.JSONField(default=list)
    points_entered = models.BooleanField(default=False)
    result = models.CharField(max_length=8, null=True, blank=True)  # noqa: DJ001
    replay_of = models.PositiveSmallIntegerField(null=True, blank=True)
    void_reason = models.TextField(blank=True, default="")
    deck = models.JSONField(
        null=True,
        blank=True,
        help_text="A round dealt by the server: its deck in dealing order. Secret while the round "
        "is played: the API shows only what games.visibility lets each viewer see.",
    )

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="games_round_match_number")
        ]

    def __str__(self) -> str:
        return f"Round {self.number} ({self.get_status_display()})"
