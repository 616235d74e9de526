"""The tournaments' own tables: tournaments, players, entrants, tables and fixtures (names as
ordinary rows, the rest projections of the tournament stream), the views and the checkpoints."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy, pgettext_lazy


class Format(models.TextChoices):
    SINGLE_ELIMINATION = "single_elimination", gettext_lazy("Single Elimination")
    DOUBLE_ELIMINATION = "double_elimination", gettext_lazy("Double Elimination")
    ROUND_ROBIN = "round_robin", gettext_lazy("Round Robin")
    SWISS = "swiss", gettext_lazy("Swiss")
    GROUPS_THEN_KNOCKOUT = "groups_then_knockout", gettext_lazy("Groups Then Knockout")


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", pgettext_lazy("tournament", "Registration")
    IN_PROGRESS = "in_progress", pgettext_lazy("tournament", "In Progress")
    FINISHED = "finished", pgettext_lazy("tournament", "Finished")


class Tournament(models.Model):
    """The tournament stream folded; its id is the stream id."""

    id = models.UUIDField(primary_key=True)
    name = models.CharField(max_length=200)
    club = models.ForeignKey(
        "accounts.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        help_text="The club that runs it: its organizers organize the tournament.",
    )
    public = models.BooleanField(
        default=True,
        help_text="Anyone may read a public tournament; a private one only its club's and its "
        "own members.",
    )
    format = models.CharField(max_length=24, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField()
    settings = models.JSONField(
        help_text="Match rules, format options, tables, deadlines and tie-breaks, as created."
    )
    status = models.CharField(
        max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION
    )
    version = models.PositiveIntegerField(default=0)
    names_signature = models.UUIDField(
        default=uuid.uuid4,
        help_text="Drawn anew whenever a name the tournament's reads show changes (an entrant's, "
        "a player's, an erasure): their ETag, with the version, without reading every name.",
    )
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    silent_from_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The first Swiss round whose results only the organizers read until they "
        "reveal them (silent final rounds); empty when nothing is hidden.",
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person. Personal data stays here; erasing it leaves every event intact."""

    name = models.CharField(max_length=200)
    erased = models.BooleanField(default=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        help_text="The account this player signs in with, to read and confirm their matches.",
    )

    def __str__(self) -> str:
        return "erased player" if self.erased else self.name


class Entrant(models.Model):
    """A single, a pair or a trio registered in one tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    name = models.CharField(max_length=200)
    players = models.ManyToManyField(Player, through="EntrantPlayer", related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    checked_in = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    registered_at = models.DateTimeField()
    fixed_table = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The table the entrant always plays at (reduced mobility, decision 0059).",
    )
    group = models.CharField(  # noqa: DJ001 - None: no group, as the log says
        gettext_lazy("group"), max_length=60, null=True, blank=True
    )
    """Its group (a club, a family, a bar's team), projected from the log (decision record
    0057); None: none."""

    class Meta:
        ordering = ["tournament", "seed", "id"]

    def __str__(self) -> str:
        return self.name


class EntrantPlayer(models.Model):
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE)
    player = models.ForeignKey(Player, on_delete=models.PROTECT)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["entrant", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["entrant", "position"], name="tournaments_entrantplayer_position"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.entrant}"


class Table(models.Model):
    """A physical table of the venue: a resource matches are assigned to."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournaments_table_number"
            )
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"


class FixtureStatus(models.TextChoices):
    READY = "ready", pgettext_lazy("match", "Ready")
    IN_PROGRESS = "in_progress", pgettext_lazy("match", "In Progress")
    FINISHED = "finished", pgettext_lazy("match", "Finished")
    RESET = "reset", pgettext_lazy("match", "Reset")


class DecidedBy(models.TextChoices):
    """How a level knockout match's winner was decided off the table (decision record 0029)."""

    HIGHER_SEED = "higher_seed", gettext_lazy("Higher Seed")
    ORGANIZER = "organizer", pgettext_lazy("decided by", "Organizer")


class Fixture(models.Model):
    """Projection: a match the tournament created for a pairing or a bracket slot."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="fixtures")
    key = models.CharField(max_length=40, help_text="The pairing or bracket slot id, e.g. W1-3.")
    match_id = models.UUIDField(unique=True)
    stage = models.CharField(max_length=40)
    round = models.PositiveSmallIntegerField()
    home = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="+")
    away = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="+")
    third = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="At tables of three: the third entrant at the table.",
    )
    status = models.CharField(max_length=12, choices=FixtureStatus.choices)
    winner = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    scheduled_at = models.DateTimeField(null=True, blank=True)
    called_at = models.DateTimeField(
        null=True, blank=True, help_text="When the match was called to its table."
    )
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="With the no-show rule: the call plus its minutes."
    )
    decided_by = models.CharField(  # noqa: DJ001 (null: won at the table, as the API says)
        max_length=12,
        choices=DecidedBy.choices,
        null=True,
        blank=True,
        help_text="A level knockout match's winner decided by the higher seed or the organizer.",
    )
    places = models.JSONField(
        null=True,
        blank=True,
        help_text="At tables of three: each entrant's place (1st, 2nd, 3rd), in seat order.",
    )

    class Meta:
        ordering = ["tournament", "round", "key"]
        indexes = [
            models.Index(fields=["tournament", "status"]),
            # The match list's ETag counts the matches overdue (tournaments.selectors.public).
            models.Index(
                fields=["tournament", "deadline"],
                condition=models.Q(status="ready"),
                name="tournaments_fixture_overdue",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.get_status_display()})"

    @property
    def entrant_ids(self) -> list[int]:
        """The entrants at the table in seat order: home, away and, at three, the third."""
        seated = [self.home_id, self.away_id, self.third_id]
        return [entrant for entrant in seated if entrant is not None]

    @property
    def seated(self) -> list[Entrant]:
        """The entrant rows in seat order (select_related home, away and third to read them)."""
        return [e for e in (self.home, self.away, self.third) if e is not None]


class TournamentView(models.Model):
    """Projection: the bracket and standings readers see, rebuilt from the log."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="view")
    bracket = models.JSONField(default=dict)
    standings = models.JSONField(default=list)
    position = models.BigIntegerField(default=0, help_text="Last global position folded in.")
    public = models.JSONField(
        null=True,
        blank=True,
        help_text="While the last rounds are silent: the round the public standings are after, "
        "the standings then and the bracket without the silent results.",
    )
    inputs = models.CharField(
        max_length=32,
        blank=True,
        default="",
        help_text="A digest of what the view was computed from (the tournament stream's version "
        "and its live fixture rows), new whenever the view is written: the consumer computes it "
        "again only when they moved, and the pages' ETag reads it instead of the view.",
    )

    def __str__(self) -> str:
        return f"view of {self.tournament}"


class Checkpoint(models.Model):
    """How far an asynchronous consumer has read the global log."""

    name = models.CharField(max_length=60, primary_key=True)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.name} @ {self.position}"
