"""Who may do what, decided in one place (docs/decisions/0016-role-enforcement.md).

Every API view names, per HTTP method, the `Action` a request takes, and its permission class
says where it acts (a `Place`: a tournament and its club, maybe one match at one table). Then
`refusal` decides, from the user's role grants and the device token's scope:

- READ: anybody for a public place; for a private one, whoever holds a role there, plays there or
  created the match; anybody else is told it does not exist (404, the place's own code).
- SCORE (start rounds, enter cards or points, undo, correct, void): an organizer; a scorer of the
  tournament or its club, at the match's table when the grant names tables, and only while the
  match is open; the creator of a free-standing match.
- CONFIRM (a result, for one's own side): the match's players, its organizers, the creator of a
  free-standing match.
- ORGANIZE (tournament commands, forfeits, device tokens) and AUDIT (a stream's events, with
  who did what): organizers; the creator of a free-standing match.

The global log spans every club's tournaments: only superusers read it (`StaffOnly`; every
organizer is staff, decision 0040).

Superusers may do everything (they run the site and the admin). A device token with a tournament
or tables is a scorer's tablet: it may read, score and confirm there and nowhere else, whatever
roles its user holds; a token without a scope acts with its user's roles, as a user token does.
A player key (`PlayerPass`, issue 26, decision 0055) is no account: it reads its own tournament,
a private one too, and acts only on its own entry through the player's endpoints (`/me/`);
every other tournament and match is unknown to it (404) and no other write is its (403).
Anonymous writes are 401, refusals of signed-in users 403 `permission_denied` with a detail that
says why. Visibility is decided before anything else: whoever may not read a private place (a
device token of another tournament included) is told it does not exist, whatever they asked to
do there, so no refusal confirms that it does.

This module knows roles, not games or tournaments: `games.access` and `tournaments.selectors.access`
say where a request acts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy, gettext_noop
from rest_framework import exceptions, permissions
from typing_extensions import override

from accounts import credentials
from accounts.models import DeviceToken, Role, RoleGrant

if TYPE_CHECKING:  # rest_framework.views reads the settings, which name this module
    from rest_framework.request import Request
    from rest_framework.views import APIView

AnyUser = AbstractBaseUser | AnonymousUser


class Action(StrEnum):
    READ = "read"
    SCORE = "score"
    CONFIRM = "confirm"
    ORGANIZE = "organize"
    AUDIT = "audit"


WRITE_ACTIONS = frozenset({Action.SCORE, Action.CONFIRM, Action.ORGANIZE})
SIGNED_IN_ACTIONS = WRITE_ACTIONS | {Action.AUDIT}
DEVICE_ACTIONS = frozenset({Action.READ, Action.SCORE, Action.CONFIRM})
"""What a device token with a scope may do: a tablet at a table scores, it does not organize."""


@dataclass(frozen=True, slots=True)
class PlayerPass:
    """What a player key lets its holder do (the key is the tournaments' `PlayerKey`, its
    authentication `tournaments.api.authentication`): read its tournament and act on its own
    entry there, no more. `request.auth` for a request with a player key; the user is anonymous."""

    tournament_id: UUID
    application_id: int
    prefix: str
    """The key's first characters, shown in the event log as the device."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where a request acts, as far as who may act there is concerned."""

    not_found: Callable[[], Exception]
    """The error for a place the requester may not know about (the same as for an unknown id)."""
    tournament_id: UUID | None = None
    club_id: int | None = None
    public: bool = True
    table: int | None = None
    """The table of the match, once it has one."""
    open: bool = True
    """The match is still being played: scorers may write to it."""
    owner_id: int | None = None
    """Who created a free-standing match (outside any tournament)."""
    player_seats: Mapping[int, frozenset[int]] = field(default_factory=dict)
    """The seats each player (by user id) holds at the match."""
    player_sides: Mapping[int, frozenset[int]] = field(default_factory=dict)
    """The sides each player (by user id) plays for at the match."""
    players: frozenset[int] = frozenset()
    """Who plays there (by user id), beyond the match's players: a tournament's entrants."""
    silent_from_round: int | None = None
    """At a tournament whose last rounds are silent (decision record 0060): the first of them;
    their results and the standings after them are its organizers' until they reveal them."""
    silent_match: bool = False
    """A match of a silent round, not revealed yet: its pairing is public (the tournament's
    matches), the match itself (rounds, cards, result, events) is its organizers', its
    players' and its table's scorers' (`reads_silent_results`)."""
    stream_head: object = field(default=None, compare=False, repr=False)
    """Where the place's stream stood when the place was found (a match's:
    `games.eventstore.loading.Head`), for the command that follows to load from (its view hands
    it over: `games.access.head_of`)."""
    standings: dict[int, Standing] = field(default_factory=dict, compare=False, repr=False)
    """What each user holds here, once asked (a place lives for one request)."""

    @property
    def in_tournament(self) -> bool:
        return self.tournament_id is not None

    @property
    def free_standing(self) -> bool:
        """A match outside any tournament and club: its creator's alone."""
        return self.tournament_id is None and self.club_id is None


@dataclass(frozen=True, slots=True)
class Standing:
    """What one user holds at one place."""

    roles: frozenset[Role]
    scorer_tables: frozenset[int] | None
    """The tables the user scores; None for every table (or no scorer role: see roles)."""

    def scores_table(self, table: int | None) -> bool:
        if Role.SCORER not in self.roles:
            return False
        return self.scorer_tables is None or table in self.scorer_tables


NOBODY = Standing(roles=frozenset(), scorer_tables=None)


def standing_at(user: AnyUser, place: Place) -> Standing:
    """The user's roles at the place (its tournament and its club), in at most one query, once
    per place (and so per request)."""
    if not is_signed_in(user) or place.free_standing:
        return NOBODY
    user_id: int = user.pk  # type: ignore[assignment]
    if user_id not in place.standings:
        place.standings[user_id] = recent_standing(user_id, place)
    return place.standings[user_id]


def recent_standing(user_id: int, place: Place) -> Standing:
    """The user's standing at the place, as this process checked it a moment ago while no role
    was granted or revoked since (`accounts.credentials`), else looked up."""
    generation = credentials.current_generation()
    key = (user_id, place.tournament_id, place.club_id)
    if generation is not None:
        known: Standing | None = credentials.standings.get(key, generation)
        if known is not None:
            return known
    found = granted_standing(user_id, place)
    if generation is not None:
        credentials.standings.put(key, found, generation)
    return found


def granted_standing(user_id: int, place: Place) -> Standing:
    where = Q()
    if place.tournament_id is not None:
        where |= Q(tournament_id=place.tournament_id)
    if place.club_id is not None:
        where |= Q(club_id=place.club_id)
    grants = list(
        RoleGrant.objects.filter(where, user_id=user_id).values_list("role", "tables", "club_id")
    )
    scorer_tables: set[int] | None = set()
    for role, tables, club_id in grants:
        if role == Role.SCORER and scorer_tables is not None:
            if club_id is not None or not tables:
                scorer_tables = None  # a club's scorer, or one without tables, scores them all
            else:
                scorer_tables.update(tables)
    return Standing(
        roles=frozenset(Role(role) for role, _tables, _club in grants),
        scorer_tables=None if scorer_tables is None else frozenset(scorer_tables),
    )


def is_signed_in(user: AnyUser) -> bool:
    return bool(user.is_authenticated and user.is_active)


def is_superuser(user: AnyUser) -> bool:
    return is_signed_in(user) and bool(getattr(user, "is_superuser", False))


def may_see(user: AnyUser, place: Place) -> bool:
    """Whether the user may read the place (a private tournament is hidden from outsiders)."""
    if place.public or is_superuser(user):
        return True
    if not is_signed_in(user):
        return False
    if user.pk == place.owner_id or user.pk in place.player_seats or user.pk in place.players:
        return True
    return bool(standing_at(user, place).roles)


def is_organizer(user: AnyUser, place: Place) -> bool:
    """An organizer of the place, the creator of a free-standing match, or a superuser."""
    if is_superuser(user):
        return True
    if not is_signed_in(user):
        return False
    if place.free_standing:
        return place.owner_id is not None and user.pk == place.owner_id
    return Role.ORGANIZER in standing_at(user, place).roles


def reads_silent_results(user: AnyUser, place: Place) -> bool:
    """Whether the user reads what the place hides until its organizers reveal it (a
    tournament's silent final rounds, decision record 0060): everybody where nothing is
    hidden; else its organizers (superusers too) and, at a silent match, its players and the
    scorers of its table (they entered it). A tournament's players read their own match, not
    the standings."""
    if place.silent_from_round is None and not place.silent_match:
        return True
    if is_organizer(user, place):
        return True
    if not place.silent_match or not is_signed_in(user):
        return False
    if user.pk in place.player_seats:
        return True
    return standing_at(user, place).scores_table(place.table)


def silent_match_refusal() -> exceptions.PermissionDenied:
    """A match of a silent round, read by someone who may not read it yet: 403, since its
    pairing is public (it is no secret that the match exists)."""
    detail = gettext(
        "The results of this round are hidden until the organizers reveal them; "
        "its pairing is in the tournament's matches."
    )
    return exceptions.PermissionDenied(detail, code="results_hidden")


def silent_refusal(user: AnyUser, action: Action, place: Place) -> Exception | None:
    """A silent match is read only by those who read its results (decision record 0060)."""
    if action == Action.READ and place.silent_match and not reads_silent_results(user, place):
        return silent_match_refusal()
    return None


def refusal(user: AnyUser, auth: Any, action: Action, place: Place) -> Exception | None:
    """Why the user (signed in with `auth`) may not take `action` at `place`; None if they may."""
    if isinstance(auth, PlayerPass):
        return player_pass_refusal(auth, action, place)
    if action in SIGNED_IN_ACTIONS and not is_signed_in(user):
        return exceptions.NotAuthenticated()
    # Whether the place exists comes first: a refusal of any other kind would confirm it.
    if not may_see(user, place):
        return place.not_found()
    scope = device_scope_refusal(auth, action, place) or silent_refusal(user, action, place)
    if scope is not None:
        return scope
    if action == Action.READ or is_organizer(user, place):
        return None
    if action == Action.SCORE:
        return score_refusal(place, standing_at(user, place))
    if action == Action.CONFIRM:
        if user.pk in place.player_seats:
            return None
        return denied(
            gettext_noop("only the match's players and its organizers confirm its result")
        )
    if place.free_standing:
        return denied(gettext_noop("only who created this match may do this"))
    return denied(gettext_noop("only the tournament's organizers may do this"))


def side_refusal(user: AnyUser, place: Place, side: int) -> Exception | None:
    """Why the user may not act for `side` of the match (confirm or dispute its result): a
    player acts for their own side only; organizers for any."""
    if is_organizer(user, place):
        return None
    if side in place.player_sides.get(user.pk, frozenset()):  # type: ignore[arg-type]
        return None
    return denied(gettext_noop("you do not play for side %(side)s of this match"), side=side)


def score_refusal(place: Place, standing: Standing) -> Exception | None:
    if not place.in_tournament:
        return denied(gettext_noop("only who created this match scores it"))
    if Role.SCORER not in standing.roles:
        return denied(
            gettext_noop("only the tournament's scorers and organizers score its matches")
        )
    if not standing.scores_table(place.table):
        tables = ", ".join(map(str, sorted(standing.scorer_tables or ())))
        return denied(
            gettext_noop("you score table(s) %(tables)s; this match is at %(at)s"),
            tables=tables,
            at=table_of(place),
        )
    if not place.open:
        return denied(gettext_noop("the match is over: only an organizer may change it now"))
    return None


def player_pass_refusal(
    auth: PlayerPass, action: Action, place: Place, *, writes: bool = False
) -> Exception | None:
    """A player key reads its own tournament (and its matches) and nothing else: any other
    place is unknown to it, whatever it asks (visibility first, as for everybody). There it
    takes no action but reading (`writes`: a request that would change something, whatever
    action it names, such as an application sent with a key): it acts on its entry only
    through the player's own endpoints."""
    if place.tournament_id is None or place.tournament_id != auth.tournament_id:
        return place.not_found()
    if place.silent_match and not writes:
        return silent_match_refusal()  # the player's own result is on their page (`/me/`)
    if action != Action.READ or writes:
        return denied(
            gettext_noop(
                "the player key %(prefix)s… acts only on its own entry, from the player's page"
            ),
            prefix=auth.prefix,
        )
    return None


def scoped_device(auth: Any) -> DeviceToken | None:
    """The device token the request came with, when it is limited to a tournament or tables."""
    if isinstance(auth, DeviceToken) and (auth.tournament_id is not None or auth.tables):
        return auth
    return None


def device_scope_refusal(auth: Any, action: Action, place: Place) -> Exception | None:
    """A device token with a scope acts only there, and only as a scorer's tablet."""
    if scoped_device(auth) is None:
        return None
    if action not in DEVICE_ACTIONS:
        return denied(
            gettext_noop("the device token %(prefix)s… only scores: sign in as an organizer"),
            prefix=auth.prefix,
        )
    if action == Action.READ:
        return None
    if auth.tournament_id != place.tournament_id:
        return denied(
            gettext_noop("the device token %(prefix)s… scores another tournament's matches"),
            prefix=auth.prefix,
        )
    if auth.tables and place.table not in auth.tables:
        tables = ", ".join(map(str, auth.tables))
        return denied(
            gettext_noop(
                "the device token %(prefix)s… scores table(s) %(tables)s; this match is at %(at)s"
            ),
            prefix=auth.prefix,
            tables=tables,
            at=table_of(place),
        )
    return None


def table_of(place: Place) -> str:
    """Where the match is played, for a refusal (in the active language)."""
    if place.table is None:
        return gettext("no table yet")
    return gettext("table %(table)s") % {"table": place.table}


def denied(template: str, /, **params: object) -> exceptions.PermissionDenied:
    """A 403 whose detail is `template % params` in the request's language (a template marked
    with gettext_noop), as a sentence."""
    detail = gettext(template) % params
    return exceptions.PermissionDenied(detail[0].upper() + detail[1:] + ".")


class PlaceAccess(permissions.BasePermission):
    """The permission class of views that act at a place. The view says which action each HTTP
    method takes (`access`); the subclass says where (`place`). The place is found once per
    request and kept as `request.place` for the view."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        action = action_of(view, request)
        if isinstance(request.auth, PlayerPass):
            place = self.place(request, view)
            request.place = place  # type: ignore[attr-defined]
            writes = request.method not in permissions.SAFE_METHODS
            found = player_pass_refusal(request.auth, action, place, writes=writes)
            if found is not None:
                raise found
            return True
        if action in SIGNED_IN_ACTIONS and not is_signed_in(request.user):
            raise exceptions.NotAuthenticated()
        place = self.place(request, view)
        request.place = place  # type: ignore[attr-defined]
        found = refusal(request.user, request.auth, action, place)
        if found is not None:
            raise found
        return True

    def place(self, request: Request, view: APIView) -> Place:
        raise NotImplementedError


class Authenticated(permissions.BasePermission):
    """Views that act at no place yet (creating a free-standing match): any signed-in user, but
    not a device token with a scope (a tablet scores where it was issued for)."""

    @override
    def has_permission(self, request: Request, view: APIView) -> bool:
        if not is_signed_in(request.user):
            raise exceptions.NotAuthenticated()
        device = scoped_device(request.auth)
        if device is not None:
            raise denied(
                gettext_noop("the device token %(prefix)s… only scores its tournament's matches"),
                prefix=device.prefix,
            )
        return True


class SignedIn(permissions.BasePermission):
    """Views that list what the requester may do (the matches they score): anyone signed in,
    a device token with a scope too, for the view to narrow to its scope."""

    @override
    def has_permission(self, request: Request, view: APIView) -> bool:
        if not is_signed_in(request.user):
            raise exceptions.NotAuthenticated()
        return True


class StaffOnly(permissions.BasePermission):
    @override
    def has_permission(self, request: Request, view: APIView) -> bool:
        if not is_signed_in(request.user):
            raise exceptions.NotAuthenticated()
        if not is_superuser(request.user):
            raise denied(gettext_noop("only the site's administrators read the whole event log"))
        return True


class Undeclared(permissions.BasePermission):
    """The default: a view that does not say who may use it refuses everybody (fail closed)."""

    message = gettext_lazy("This endpoint does not say who may use it.")

    @override
    def has_permission(self, request: Request, view: APIView) -> bool:
        return False


class DeclaresAccess:
    """Mixin for views: `access` maps HTTP methods (lower case) to actions; GET reads."""

    access: ClassVar[Mapping[str, Action]] = {"get": Action.READ}


def action_of(view: APIView, request: Request) -> Action:
    access: Mapping[str, Action] = getattr(view, "access", {"get": Action.READ})
    method = request.method.lower() if request.method else "get"
    if method in ("head", "options"):
        method = "get"
    try:
        return access[method]
    except KeyError:
        raise exceptions.MethodNotAllowed(request.method or "") from None
