"""Inline projections of the match streams: what a table needs to continue, and what readers
see. Every row here is derived from the event log and can be dropped and rebuilt from it
(`manage.py rebuild_projections`); the events themselves live in `games.eventstore`.

`MatchSide` is the exception: an ordinary table, written by `match_create` next to the event, that
holds the names of a free-standing match's sides, so that no name is ever in an event
(docs/decisions/0018-names-outside-events-and-erasure.md).
"""

from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy


class MatchStatus(models.TextChoices):
    NOT_STARTED = "not_started", pgettext_lazy("match", "Not Started")
    IN_PROGRESS = "in_progress", pgettext_lazy("match", "In Progress")
    FINISHED = "finished", pgettext_lazy("match", "Finished")


class RoundStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", pgettext_lazy("round", "In Progress")
    FINISHED = "finished", pgettext_lazy("round", "Finished")
    VOIDED = "voided", pgettext_lazy("round", "Voided")


class Scoring(models.TextChoices):
    ROUNDS = "rounds", gettext_lazy("Best of N rounds")
    POINTS = "points", gettext_lazy("Fixed rounds, total points")


class Match(models.Model):
    """One match stream folded: its id is the stream id."""

    id = models.UUIDField(primary_key=True)
    table_size = models.PositiveSmallIntegerField()
    scoring = models.CharField(max_length=10, choices=Scoring.choices)
    best_of = models.PositiveSmallIntegerField(
        help_text="Rounds to win the majority of (scoring 'rounds'), or rounds played ('points')."
    )
    sides = models.JSONField(
        help_text='Who each side is, by ids, as the events say: [{"entrant": id}] for a '
        "tournament's match, [{}] for a free-standing one; side 0 first. Names are resolved "
        "when read (games.matches.selectors.side_names_of)."
    )
    variant = models.JSONField()
    first_dealer = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=12, choices=MatchStatus.choices)
    round_wins = models.JSONField()
    total_points = models.JSONField()
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    decider = models.CharField(
        max_length=8,
        default="none",
        help_text="Scoring 'points': 'round', a match level after its rounds plays a deciding "
        "round; 'none', it ends level (decision record 0029).",
    )
    deciding_round_due = models.BooleanField(
        default=False, help_text="Level after its rounds: a deciding round is being played."
    )
    deciding_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The number of the deciding round that won a match level after its rounds.",
    )
    decided_by = models.CharField(  # noqa: DJ001 (null: not decided by a deciding round)
        max_length=16,
        null=True,
        blank=True,
        help_text="'deciding_round' when a deciding round won the match (decision record 0045).",
    )
    regulation_points = models.JSONField(
        null=True,
        blank=True,
        help_text="Scoring 'points': each side's total of the fixed rounds, without the deciding "
        "rounds; null for a best-of match.",
    )
    forfeited_by = models.PositiveSmallIntegerField(null=True, blank=True)
    confirmed_by = models.JSONField(default=list)
    disputed_by = models.JSONField(
        default=list,
        help_text="The sides whose dispute of the result is open: confirming withdraws one.",
    )
    confirmations = models.JSONField(
        default=list,
        help_text="Every confirmation recorded, in order: its side, the stream version of its "
        "event, the result it was of, and whether it stands (decision record 0044).",
    )
    disputes = models.JSONField(
        default=list,
        help_text="Every dispute recorded, in order, as `confirmations`: standing while open.",
    )
    version = models.PositiveIntegerField(help_text="The stream version this row reflects.")
    last_position = models.BigIntegerField(help_text="Global position of the last event applied.")
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status"])]

    side_names: list[str] | None = None
    """Not a column: the sides' names, once a reader resolved them from the ordinary tables
    (`games.matches.selectors.with_side_names`); the row itself holds no name."""

    def __str__(self) -> str:
        if self.side_names is None:
            return _("Match %(id)s (%(status)s)") % {
                "id": str(self.id)[:8],
                "status": self.get_status_display(),
            }
        return f"{_(' v ').join(self.side_names)} ({self.get_status_display()})"


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
    ruling = models.JSONField(
        null=True,
        blank=True,
        help_text='The organizer\'s ruling on the finished round: {"points": [...], "reason": '
        '"..."}; `points` are then the ruled ones (decision record 0045).',
    )
    corrections = models.JSONField(
        default=list,
        blank=True,
        help_text="The organizer's corrections of the finished round's cards, in order: "
        '[{"play_index", "seat", "card", "previous_card", "swapped_with", "reason"}]; the plays '
        "are as corrected (decision record 0048).",
    )
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
        return f"{_('Round %(number)s') % {'number': self.number}} ({self.get_status_display()})"


class MatchSide(models.Model):
    """The name of one side of a free-standing match, given when the match was created.

    Not a projection: the events carry no names, so `rebuild_projections` leaves this table
    alone. No foreign key to `Match`, which is dropped and refilled by a rebuild."""

    match_id = models.UUIDField()
    side = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=200)

    class Meta:
        ordering = ["match_id", "side"]
        constraints = [
            models.UniqueConstraint(fields=["match_id", "side"], name="games_matchside_match_side")
        ]

    def __str__(self) -> str:
        return f"side {self.side} of match {self.match_id}: {self.name}"
