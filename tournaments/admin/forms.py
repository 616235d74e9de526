"""The organizer's forms: what the admin asks before it calls a tournament service.

The forms only read and check input; the services decide and append (a CSV file of entrants is
and a pasted list are read by `tournaments.admin.entrants_csv` into `ImportedEntrant`s, which
`registration.entrants_register` registers).
"""

from __future__ import annotations

from typing import Any, Literal

from django import forms
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import Club
from games.models import Scoring
from tournaments.admin.entrants_csv import (
    MAX_SEED,
    parse_entrant_lines,
    parse_pasted_lines,
    split_players,
)
from tournaments.models import Entrant, Format, Player, Tournament, TournamentStatus
from tournaments.services.corrections import (
    KEEP_FIXED_TABLE,
    KEEP_GROUP,
    KEEP_SEED,
    Keep,
    KeepTable,
    PlayerCorrection,
)
from tournaments.services.registration import ImportedEntrant
from tournaments.state import Registration
from tournaments.stream.entrant_checks import GROUP_MAX_LENGTH

TABLE_SIZES = [
    (2, gettext_lazy("Singles: tables of 2")),
    (3, gettext_lazy("Threes: tables of 3 (each for himself)")),
    (4, gettext_lazy("Pairs: tables of 4 (2 v 2)")),
    (6, gettext_lazy("Trios: tables of 6 (3 v 3)")),
]
LEVEL_KNOCKOUT_CHOICES = [
    ("deciding_round", gettext_lazy("A deciding round (a tied one is replayed)")),
    ("higher_seed", gettext_lazy("The higher seed goes through")),
    ("organizer", gettext_lazy("The organizer decides, giving a reason")),
]
AVOID_SAME_GROUP_CHOICES = [
    ("", gettext_lazy("Never: groups are drawn like anyone")),
    ("first_round", gettext_lazy("In the first round")),
    ("always", gettext_lazy("In every round (Swiss)")),
]
AVOID_SAME_GROUP_STRENGTH_CHOICES = [
    ("strict", gettext_lazy("Strictly: refuse a Swiss round that cannot")),
    ("soft", gettext_lazy("As far as possible, after rematches")),
]
MAX_CSV_BYTES = 1_000_000
MAX_PASTED_CHARACTERS = 100_000


class TournamentCreateForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    club = forms.ModelChoiceField(
        label=gettext_lazy("Club"),
        queryset=Club.objects.none(),
        required=False,
        help_text=gettext_lazy("The club that runs it: its organizers organize it (one of yours)."),
    )
    public = forms.BooleanField(
        label=gettext_lazy("Public"),
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "Anyone may follow a public tournament; a private one only its club's "
            "members and its players."
        ),
    )
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=Format.choices)
    table_size = forms.TypedChoiceField(
        label=gettext_lazy("Table size"), coerce=int, choices=TABLE_SIZES, initial=2
    )
    scoring = forms.ChoiceField(
        label=gettext_lazy("Scoring"), choices=Scoring.choices, initial=Scoring.ROUNDS
    )
    best_of = forms.IntegerField(
        label=gettext_lazy("Best of"),
        min_value=1,
        initial=3,
        required=False,
        help_text=gettext_lazy(
            "Scoring by rounds: the match goes to the majority (blank: 3). Not asked "
            "when scoring by points."
        ),
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds"),
        min_value=1,
        required=False,
        help_text=gettext_lazy("Scoring by points: the rounds every match plays."),
    )
    swiss_rounds = forms.IntegerField(
        label=gettext_lazy("Swiss rounds"),
        min_value=1,
        required=False,
        help_text=gettext_lazy("Swiss only. Blank: enough rounds for a winner."),
    )
    silent_final_rounds = forms.IntegerField(
        label=gettext_lazy("Silent final rounds"),
        min_value=0,
        required=False,
        help_text=gettext_lazy(
            "Swiss only: the last rounds whose results and standings only the organizers see "
            "until they reveal them. Blank: none."
        ),
    )
    group_size = forms.IntegerField(
        label=gettext_lazy("Group size"),
        min_value=2,
        required=False,
        help_text=gettext_lazy("Groups then knockout only. Blank: 4."),
    )
    advance_per_group = forms.IntegerField(
        label=gettext_lazy("Advance per group"),
        min_value=1,
        initial=2,
        help_text=gettext_lazy("Groups then knockout: who goes on from each group."),
    )
    third_place = forms.BooleanField(
        label=gettext_lazy("Third place"),
        required=False,
        help_text=gettext_lazy("Knockouts: the losing semi-finalists play for third place."),
    )
    grand_final_reset = forms.BooleanField(
        label=gettext_lazy("Grand final reset"),
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "Double elimination: a second final when the lower bracket's winner wins."
        ),
    )
    automatic_rounds = forms.BooleanField(
        label=gettext_lazy("Automatic rounds"),
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "Swiss: pair the next round as soon as one ends. Off: publish it yourself."
        ),
    )
    accelerated = forms.BooleanField(
        label=gettext_lazy("Accelerated Swiss"),
        required=False,
        help_text=gettext_lazy(
            "Swiss of 32 entrants or more: the top half is given virtual points in the first "
            "rounds (Baku acceleration), for the pairing only."
        ),
    )
    level_knockout = forms.ChoiceField(
        label=gettext_lazy("Level knockout"),
        choices=LEVEL_KNOCKOUT_CHOICES,
        initial="deciding_round",
        required=False,
        help_text=gettext_lazy(
            "Scoring by points: how a knockout match that ends level gets its winner."
        ),
    )
    tables = forms.IntegerField(
        min_value=1,
        required=False,
        label=gettext_lazy("Tables"),
        help_text=gettext_lazy(
            "Tables at the venue. Blank: as many as the first round needs, counted at the "
            "start; you can change them on the tournament's page."
        ),
    )
    no_show_minutes = forms.IntegerField(
        label=gettext_lazy("No show minutes"),
        min_value=0,
        required=False,
        help_text=gettext_lazy(
            "The no-show rule: minutes after a match is called before a side that has not "
            "checked in forfeits to one that has. Empty: no rule, nothing is forfeited."
        ),
    )

    first_place_points = forms.IntegerField(
        required=False,
        label=gettext_lazy("Match points for 1st"),
        help_text=gettext_lazy("Tables of three only. Blank: 2 (with 2nd and 3rd blank too)."),
    )
    second_place_points = forms.IntegerField(
        required=False,
        label=gettext_lazy("Match points for 2nd"),
        help_text=gettext_lazy("Tables of three only. Blank: 1."),
    )
    third_place_points = forms.IntegerField(
        required=False,
        label=gettext_lazy("Match points for 3rd"),
        help_text=gettext_lazy("Tables of three only. Blank: 0."),
    )
    bye_points = forms.IntegerField(
        required=False,
        label=gettext_lazy("Match points for a bye"),
        help_text=gettext_lazy("Tables of three only. Blank: 2."),
    )
    forfeit_points = forms.IntegerField(
        required=False,
        label=gettext_lazy("Match points for a forfeit"),
        help_text=gettext_lazy("Tables of three only: for the entrant who forfeits. Blank: 0."),
    )

    avoid_same_group = forms.ChoiceField(
        label=gettext_lazy("Keep groups apart"),
        choices=AVOID_SAME_GROUP_CHOICES,
        required=False,
        help_text=gettext_lazy(
            "Entrants of one group (a club, a family, a bar's team) do not meet: in the first "
            "round, or in every Swiss round."
        ),
    )
    avoid_same_group_strength = forms.ChoiceField(
        label=gettext_lazy("How strictly"),
        choices=AVOID_SAME_GROUP_STRENGTH_CHOICES,
        initial="strict",
        required=False,
    )

    sign_up_open = forms.BooleanField(
        required=False,
        label=gettext_lazy("Open to sign-up"),
        help_text=gettext_lazy("Players sign themselves up on the tournament's sign-up page."),
    )
    sign_up_cap = forms.IntegerField(
        required=False,
        min_value=1,
        label=gettext_lazy("Most entrants"),
        help_text=gettext_lazy("Blank: no cap."),
    )
    sign_up_waitlist = forms.BooleanField(
        required=False, label=gettext_lazy("Waiting list over the cap")
    )
    sign_up_approval = forms.BooleanField(
        required=False, label=gettext_lazy("Approve each application")
    )

    late_entry_until_round = forms.IntegerField(
        required=False,
        min_value=2,
        label=gettext_lazy("Late entries until round"),
        help_text=gettext_lazy(
            "Swiss: entrants may be added after the start while the next round to draw is at "
            "most this one. Blank: no entries after the start."
        ),
    )
    late_entry_points = forms.ChoiceField(
        required=False,
        choices=[
            ("zero", gettext_lazy("Nothing")),
            ("bye", gettext_lazy("A bye's match points")),
        ],
        initial="zero",
        label=gettext_lazy("Late entrant's missed rounds score"),
    )
    max_requested_byes = forms.IntegerField(
        required=False,
        min_value=0,
        initial=1,
        label=gettext_lazy("Requested byes per entrant"),
        help_text=gettext_lazy("Swiss: rounds an entrant may ask to sit out. Blank: 1."),
    )
    requested_bye_points = forms.IntegerField(
        required=False,
        min_value=0,
        label=gettext_lazy("Match points for a requested bye"),
        help_text=gettext_lazy("Swiss. Blank: half a win's, rounded down."),
    )

    PLACE_FIELDS = ("first_place_points", "second_place_points", "third_place_points")
    PLACING_FIELDS = (*PLACE_FIELDS, "bye_points", "forfeit_points")
    SIGN_UP_FIELDS = ("sign_up_open", "sign_up_cap", "sign_up_waitlist", "sign_up_approval")

    fieldsets = (
        (None, {"fields": ["name", "club", "public", "format", "table_size"]}),
        (gettext_lazy("Matches"), {"fields": ["scoring", "best_of", "rounds", "level_knockout"]}),
        (
            gettext_lazy("Format"),
            {
                "fields": [
                    "swiss_rounds",
                    "silent_final_rounds",
                    "automatic_rounds",
                    "accelerated",
                    "group_size",
                    "advance_per_group",
                    "third_place",
                    "grand_final_reset",
                ]
            },
        ),
        (
            gettext_lazy("Match points per place (tables of three)"),
            {"fields": list(PLACING_FIELDS)},
        ),
        (gettext_lazy("Venue"), {"fields": ["tables", "no_show_minutes"]}),
        (
            gettext_lazy("Who must not meet"),
            {"fields": ["avoid_same_group", "avoid_same_group_strength"]},
        ),
        (gettext_lazy("Sign-up"), {"fields": list(SIGN_UP_FIELDS)}),
        (
            gettext_lazy("Late arrivals and byes (Swiss)"),
            {
                "fields": [
                    "late_entry_until_round",
                    "late_entry_points",
                    "max_requested_byes",
                    "requested_bye_points",
                ]
            },
        ),
    )

    class Media:
        js = ("tournaments/admin_scoring.js",)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("scoring") == Scoring.POINTS:
            cleaned["best_of"] = None  # a fixed number of rounds: no majority to reach
        given = [cleaned.get(name) is not None for name in self.PLACE_FIELDS]
        if any(given) and not all(given):
            raise forms.ValidationError(
                _("Give the match points of all three places (1st, 2nd and 3rd), or none.")
            )
        return cleaned

    def placing_scoring(self) -> dict[str, Any] | None:
        """The `placing_scoring` setting from the fields given (the service checks it: only at
        tables of three, a better place never earning fewer points); None when all are blank."""
        data = self.cleaned_data
        scoring: dict[str, Any] = {}
        if data.get("first_place_points") is not None:
            scoring["places"] = [data[name] for name in self.PLACE_FIELDS]
        for key in ("bye", "forfeit"):
            if data.get(f"{key}_points") is not None:
                scoring[key] = data[f"{key}_points"]
        return scoring or None

    def for_organizer(self, clubs: Any, *, club_required: bool) -> TournamentCreateForm:
        """The clubs the user may create a tournament in; one of them required unless the user
        runs the site (a tournament of no club is organized by superusers only)."""
        field = self.fields["club"]
        if not isinstance(field, forms.ModelChoiceField):
            raise RuntimeError("the club is a choice of clubs")
        field.queryset = clubs
        field.required = club_required
        return self

    def service_arguments(self) -> dict[str, Any]:
        """The keyword arguments of `tournament_create`, the actor aside (an option left out
        takes the service's default)."""
        arguments = {
            name: value
            for name, value in self.cleaned_data.items()
            if value != "" and name not in self.PLACING_FIELDS and name not in self.SIGN_UP_FIELDS
        }
        if arguments.get("best_of") is None:
            arguments.pop("best_of", None)  # the service's default, unused when scoring by points
        if arguments.get("max_requested_byes") is None:
            arguments.pop("max_requested_byes", None)  # the service's default: one
        if arguments.get("silent_final_rounds") is None:
            arguments.pop("silent_final_rounds", None)  # none
        scoring = self.placing_scoring()
        if scoring is not None:
            arguments["placing_scoring"] = scoring
        data = self.cleaned_data
        arguments["registration"] = Registration(
            open=bool(data.get("sign_up_open")),
            cap=data.get("sign_up_cap"),
            waitlist=bool(data.get("sign_up_waitlist")),
            approval=bool(data.get("sign_up_approval")),
        )
        return arguments


def duplicate_name_confirmation() -> forms.BooleanField:
    """Hidden until the service warns that another entrant has the name: then a checkbox."""
    return forms.BooleanField(
        required=False,
        widget=forms.HiddenInput,
        label=gettext_lazy("Keep the duplicate name"),
        help_text=gettext_lazy(
            "Another entrant of the tournament has this name: tick to keep it all the same."
        ),
    )


def ask_to_confirm_duplicate_name(form: forms.Form) -> None:
    """Show the confirmation box, after the service's duplicate-name warning."""
    form.fields["confirm_duplicate_name"].widget = forms.CheckboxInput()


def fixed_table_field(**options: Any) -> forms.IntegerField:
    """An entrant's fixed table (reduced mobility, decision record 0059)."""
    return forms.IntegerField(
        label=gettext_lazy("Fixed table"),
        min_value=1,
        required=False,
        help_text=gettext_lazy(
            "Reduced mobility: the entrant always plays at this table. Blank: any table."
        ),
        **options,
    )


class EntrantRegisterForm(forms.Form):
    tournament = forms.ModelChoiceField(
        label=gettext_lazy("Tournament"),
        queryset=Tournament.objects.filter(
            Q(status=TournamentStatus.REGISTRATION)
            # A Swiss that takes late entrants (decision record 0058): its rules say until when.
            | Q(
                status=TournamentStatus.IN_PROGRESS,
                format=Format.SWISS,
                settings__has_key="late_entry_until_round",
            )
        ),
        help_text=gettext_lazy("Tournaments still taking entries."),
    )
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=200,
        help_text=gettext_lazy("The single's, pair's or trio's name."),
    )
    players = forms.CharField(
        label=gettext_lazy("Players"),
        max_length=600,
        required=False,
        help_text=gettext_lazy(
            "A single: leave blank for one player named as the entrant. A pair or a "
            "trio: one name per player, separated by ';'."
        ),
    )
    seed = forms.IntegerField(
        label=gettext_lazy("Seed"), min_value=1, max_value=MAX_SEED, required=False
    )
    group = forms.CharField(
        label=gettext_lazy("Group"),
        max_length=GROUP_MAX_LENGTH,
        required=False,
        help_text=gettext_lazy(
            "A club, a family, a bar's team: entrants of one group are kept apart as the "
            "tournament's settings say. Blank: none."
        ),
    )
    fixed_table = fixed_table_field()
    confirm_duplicate_name = duplicate_name_confirmation()

    fieldsets = (
        (
            None,
            {
                "fields": [
                    "tournament",
                    "name",
                    "players",
                    "seed",
                    "group",
                    "fixed_table",
                    "confirm_duplicate_name",
                ]
            },
        ),
    )

    def for_organizer(self, tournaments: Any) -> EntrantRegisterForm:
        """Only the tournaments the user organizes are choices."""
        field = self.fields["tournament"]
        if not isinstance(field, forms.ModelChoiceField):
            raise RuntimeError("the tournament is a choice of tournaments")
        field.queryset = field.queryset.filter(id__in=tournaments)  # type: ignore[union-attr]
        return self

    def clean_players(self) -> list[str] | None:
        """The players' names; None when left blank (the service names a single's player as
        the entrant, and asks a pair or a trio for theirs)."""
        if not self.cleaned_data["players"].strip():
            return None
        players, problem = split_players(self.cleaned_data["players"])
        if problem:
            raise forms.ValidationError(problem)
        return players


class WithdrawForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=200,
        required=False,
        help_text=gettext_lazy(
            "Recorded with the event; their matches still to play are forfeited."
        ),
    )


class EntrantCorrectForm(forms.Form):
    """An entrant's page: its name, a field per seat (the player's name, and whether another
    person takes the seat), its seed before the start, and why."""

    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=200,
        help_text=gettext_lazy("The single's, pair's or trio's name."),
    )

    def __init__(
        self,
        data: Any = None,
        *,
        entrant: Entrant,
        players: list[Player],
        started: bool,
    ) -> None:
        initial: dict[str, Any] = {
            "name": entrant.name,
            "seed": entrant.seed,
            "fixed_table": entrant.fixed_table,
            "group": entrant.group or "",
        }
        super().__init__(data, initial=initial)
        self.entrant = entrant
        self.seats = len(players)
        seat_fields = []
        for seat, player in enumerate(players, start=1):
            self.fields[f"player_{seat}"] = forms.CharField(
                max_length=200,
                label=_("Player %(seat)s") % {"seat": seat},
                initial="" if player.erased else player.name,
                help_text=gettext_lazy(
                    "Personal data erased: give the new player's name and tick below."
                )
                if player.erased
                else "",
            )
            self.fields[f"replace_{seat}"] = forms.BooleanField(
                required=False,
                label=_("Another person in seat %(seat)s") % {"seat": seat},
                help_text=gettext_lazy(
                    "Ticked: a new player takes the seat. Unticked: the same person, "
                    "their name corrected (they keep their account link)."
                ),
            )
            seat_fields += [f"player_{seat}", f"replace_{seat}"]
        self.fields["seed"] = forms.IntegerField(
            label=gettext_lazy("Seed"),
            min_value=1,
            max_value=MAX_SEED,
            required=False,
            disabled=started,
            help_text=gettext_lazy("Fixed once the tournament has started.")
            if started
            else _("Blank: no seed. To swap seeds, use the Seeds form on the tournament's page."),
        )
        self.fields["fixed_table"] = fixed_table_field()
        self.fields["group"] = forms.CharField(
            label=gettext_lazy("Group"),
            max_length=GROUP_MAX_LENGTH,
            required=False,
            disabled=started,
            help_text=gettext_lazy("Fixed once the tournament has started.")
            if started
            else gettext_lazy("Blank: none."),
        )
        self.fields["reason"] = forms.CharField(
            label=gettext_lazy("Reason"),
            max_length=500,
            help_text=gettext_lazy("Recorded with the correction, for whoever reads the log."),
        )
        self.fields["confirm_duplicate_name"] = duplicate_name_confirmation()
        fields = [
            "name",
            *seat_fields,
            "seed",
            "group",
            "fixed_table",
            "reason",
            "confirm_duplicate_name",
        ]
        self.fieldsets = ((None, {"fields": fields}),)

    def corrected_name(self) -> str | None:
        name: str = self.cleaned_data["name"]
        return None if name == self.entrant.name else name

    def corrected_players(self, players: list[Player]) -> list[PlayerCorrection] | None:
        """Every seat, when any seat changed; None when none did."""
        seats = [
            PlayerCorrection(
                self.cleaned_data[f"player_{seat}"], replace=self.cleaned_data[f"replace_{seat}"]
            )
            for seat in range(1, self.seats + 1)
        ]
        unchanged = all(
            not corrected.replace and corrected.name == player.name
            for corrected, player in zip(seats, players, strict=True)
        )
        return None if unchanged else seats

    def corrected_seed(self) -> int | Literal[Keep.SEED] | None:
        seed: int | None = self.cleaned_data["seed"]
        return KEEP_SEED if "seed" not in self.changed_data else seed

    def corrected_fixed_table(self) -> int | KeepTable | None:
        table: int | None = self.cleaned_data["fixed_table"]
        return KEEP_FIXED_TABLE if "fixed_table" not in self.changed_data else table

    def corrected_group(self) -> str | Literal[Keep.GROUP] | None:
        group: str = self.cleaned_data["group"]
        return KEEP_GROUP if "group" not in self.changed_data else (group.strip() or None)

    def warn_of_duplicate_name(self, warning: str) -> None:
        """The service's duplicate-name warning on the name, with the confirmation box."""
        self.add_error("name", warning)
        ask_to_confirm_duplicate_name(self)


class SeedsForm(forms.Form):
    """Every active entrant's seed on one form, sent as one reseed (so two can swap)."""

    def __init__(self, data: Any = None, *, entrants: list[Entrant]) -> None:
        super().__init__(data)
        self.entrants = {entrant.id: entrant for entrant in entrants}
        for entrant in entrants:
            self.fields[seed_field(entrant.id)] = forms.IntegerField(
                min_value=1,
                max_value=MAX_SEED,
                required=False,
                initial=entrant.seed,
                label=entrant.name,
            )
        self.fields["reason"] = forms.CharField(
            label=gettext_lazy("Reason"),
            max_length=500,
            help_text=gettext_lazy("Recorded with the new seeds."),
        )

    def rows(self) -> list[tuple[Entrant, forms.BoundField]]:
        return [(entrant, self[seed_field(entrant.id)]) for entrant in self.entrants.values()]

    def changed_seeds(self) -> dict[int, int | None]:
        return {
            entrant_id: self.cleaned_data[seed_field(entrant_id)]
            for entrant_id in self.entrants
            if seed_field(entrant_id) in self.changed_data
        }


def seed_field(entrant_id: int) -> str:
    return f"seed_{entrant_id}"


class PlayerEraseForm(forms.Form):
    """Nothing to fill in: submitting the page confirms the erasure."""


class PlayerLinkForm(forms.Form):
    username = forms.CharField(
        label=gettext_lazy("Username"),
        max_length=150,
        help_text=gettext_lazy(
            "The account the player signs in with: they then read their private "
            "tournaments, confirm their own results and see their own hand of a dealt round."
        ),
    )


class LevelMatchDecideForm(forms.Form):
    winner = forms.ChoiceField(
        label=gettext_lazy("Winner"),
        choices=[("home", "Home"), ("away", "Away"), ("third", "Third (tables of three)")],
        help_text=gettext_lazy("Who goes through from the knockout match that ended level."),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=500,
        help_text=gettext_lazy("Recorded with the decision."),
    )


class TableAssignForm(forms.Form):
    table = forms.IntegerField(
        label=gettext_lazy("Table"),
        min_value=1,
        help_text=gettext_lazy(
            "A table another waiting or running match holds: the two matches swap."
        ),
    )


class EntrantImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("File"),
        help_text=gettext_lazy(
            "A CSV file with the columns name,players,seed and optionally group and "
            "fixed_table (a header line is optional). Players of a pair or trio are separated "
            "by ';'; the seed, the group and the fixed table may be blank."
        ),
    )
    confirm_duplicate_names = forms.BooleanField(
        required=False,
        label=gettext_lazy("Keep duplicate names"),
        help_text=gettext_lazy(
            "Register lines whose name an entrant of the tournament (or another line) "
            "already has. Unticked, such lines are refused (and nothing is imported)."
        ),
    )

    def clean_file(self) -> list[ImportedEntrant]:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_CSV_BYTES:
            raise forms.ValidationError(_("the file is larger than 1 MB"))
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise forms.ValidationError(_("the file is not UTF-8 text")) from exc
        lines, errors = parse_entrant_lines(text)
        if errors:
            raise forms.ValidationError(
                [*errors, _("Nothing was imported: correct these lines and upload the file again.")]
            )
        return lines


class EntrantPasteForm(forms.Form):
    """A pasted list of entrants, one per line: previewed, then registered in one command."""

    entrants = forms.CharField(
        label=gettext_lazy("Entrants"),
        max_length=MAX_PASTED_CHARACTERS,
        widget=forms.Textarea(attrs={"rows": 10, "cols": 60}),
        help_text=gettext_lazy(
            "One entrant per line: Name, or Name; Player 1, Player 2 (a pair or a trio), "
            "and a seed as a field of its own if any (Name; 3), and a group in brackets if "
            "any (Name; [Circolo Aurora]). A single's player is the name."
        ),
    )
    confirm_duplicate_names = forms.BooleanField(
        required=False,
        label=gettext_lazy("Keep duplicate names"),
        help_text=gettext_lazy(
            "Register lines whose name another entrant (or another line) already has."
        ),
    )

    def clean_entrants(self) -> list[ImportedEntrant]:
        lines, errors = parse_pasted_lines(self.cleaned_data["entrants"])
        if errors:
            raise forms.ValidationError(errors)
        return lines
