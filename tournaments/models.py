"""Tournaments: ordinary tables for names and resources, projections for everything derived.

Tournament facts are events on the tournament's stream (`games.eventstore`, stream type
"tournament"); events carry ids only. Names (entrants, players) live here so they can be erased
without touching an event. Brackets and standings are projections rebuilt from the log.
"""

from django.conf import settings
from django.db import models


class Format(models.TextChoices):
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    GROUPS_THEN_KNOCKOUT = "groups_then_knockout"


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"


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
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

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
    READY = "ready"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    RESET = "reset"


class DecidedBy(models.TextChoices):
    """How a level knockout match's winner was decided off the table (decision record 0029)."""

    HIGHER_SEED = "higher_seed"
    ORGANIZER = "organizer"


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
        indexes = [models.Index(fields=["tournament", "status"])]

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

    def __str__(self) -> str:
        return f"view of {self.tournament}"


class Checkpoint(models.Model):
    """How far an asynchronous consumer has read the global log."""

    name = models.CharField(max_length=60, primary_key=True)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.name} @ {self.position}"


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


class WebhookEndpoint(models.Model):
    """Configuration: an address an organizer registered to receive the tournament's events.

    It is sent the events recorded after `after_position` (the log's head when it was
    registered), signed with `secret` (docs/decisions/0039-outgoing-webhooks.md)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=2000)
    secret = models.CharField(max_length=200, help_text="The key the deliveries are signed with.")
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField()
    after_position = models.BigIntegerField(
        help_text="The log's head at registration: the events after it are delivered."
    )

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name = "webhook endpoint"
        indexes = [models.Index(fields=["active", "tournament"])]

    def __str__(self) -> str:
        return self.url


class DeliveryStatus(models.TextChoices):
    PENDING = "pending"
    DELIVERED = "delivered"
    FAILED = "failed"


class WebhookDelivery(models.Model):
    """An operational log of sending one event to one endpoint: not derived from events (the
    attempts and the receiver's answers are facts of the network), so `rebuild_projections`
    leaves it alone."""

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    position = models.BigIntegerField(help_text="The event's global position in the log.")
    event_type = models.CharField(max_length=80)
    stream_id = models.UUIDField()
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    last_status = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The HTTP status of the last answer."
    )
    last_error = models.TextField(blank=True, default="")
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "position"], name="tournaments_webhookdelivery_once"
            )
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"{self.event_type} @ {self.position} to {self.endpoint_id}"


class ClubRatingSettings(models.Model):
    """Configuration: how a club's results count for the ratings (decision record 0036)."""

    club = models.OneToOneField(
        "accounts.Club", on_delete=models.CASCADE, related_name="rating_settings"
    )
    count_forfeits = models.BooleanField(
        default=False,
        help_text="Forfeited matches change the players' ratings (off: they are not rated).",
    )

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
