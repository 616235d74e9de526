"""The rating rows, kept from the log by a consumer of its own (checkpoint `ratings`).

The consumer reads the tournament events after its checkpoint. A result that comes into force
is rated at once, in log order, in its club's ratings and the overall ones (`scores`). A result
withdrawn (its fixture reset, or the fixture's result recorded anew) changes every rating
computed after it: the scopes it counted in are recomputed from the whole log up to the batch
read. So the rows always equal what `rebuild` computes from the log alone, which `verify`
checks (decision record 0036).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from typing import Any
from uuid import UUID

from django.db import transaction
from django.db.models import Q

from games.eventstore.api import (
    FoldedEvent,
    RecordedEvent,
    iter_all_to_fold,
    read_all,
    read_stream,
)
from tournaments.models import (
    Checkpoint,
    ClubRatingSettings,
    EntrantPlayer,
    Player,
    PlayerRating,
    RatingChange,
    Tournament,
)
from tournaments.projections.folded_log import TournamentLog, fold_tournament_log
from tournaments.ratings.ledger import (
    FOLDED,
    WITHDRAWING,
    Change,
    Ledger,
    RatedMatch,
    as_people,
)
from tournaments.ratings.maths import Rating
from tournaments.ratings.scores import Scope, Scores, Standing, Step, scopes_of, scored
from tournaments.selectors.people import people
from tournaments.stream.events import TOURNAMENT_EVENTS, tournament_event

CONSUMER = "ratings"
BATCH = 500
STREAM = TOURNAMENT_EVENTS.kind


def roster(entrant: int) -> tuple[int, ...]:
    """An entrant's players from the name rows (for events that do not name them)."""
    rows = EntrantPlayer.objects.filter(entrant_id=entrant).order_by("position")
    return tuple(rows.values_list("player_id", flat=True))


def people_in(match: RatedMatch | None, known: dict[int, int]) -> RatedMatch | None:
    return None if match is None else as_people(match, known)


def seat(tournament_id: UUID) -> tuple[int | None, bool] | None:
    """The tournament's club and visibility from its row (the club's id here)."""
    row = Tournament.objects.filter(id=tournament_id).values_list("club_id", "public").first()
    return None if row is None else (row[0], row[1])


def rateable(matches: list[RatedMatch | None]) -> list[RatedMatch]:
    """The matches whose players all have a row here (an imported tournament's archive holds
    the players of its entrants only, not those a correction replaced)."""
    present = [m for m in matches if m is not None]
    ids = {player for match in present for player in match.players}
    found = set(Player.objects.filter(id__in=ids).values_list("id", flat=True))
    return [match for match in present if found.issuperset(match.players)]


def forfeit_clubs() -> set[int]:
    return set(
        ClubRatingSettings.objects.filter(count_forfeits=True).values_list("club_id", flat=True)
    )


def fold(ledger: Ledger, recorded: FoldedEvent) -> Change:
    return ledger.fold(
        stream_id=recorded.stream_id,
        position=recorded.global_position,
        event=tournament_event(recorded),
    )


def tournament_events(*, upto: int) -> Iterator[FoldedEvent]:
    for recorded in iter_all_to_fold(stream_types=[STREAM]):
        if recorded.global_position > upto:
            return
        yield recorded


def in_force(*, upto: int) -> list[RatedMatch]:
    """Every result in force in the log up to `upto`, in log order."""
    ledger = Ledger(roster, seat)
    for recorded in tournament_events(upto=upto):
        fold(ledger, recorded)
    return rated_in_force(ledger)


def in_force_of(log: TournamentLog) -> list[RatedMatch]:
    """Every result in force in the log up to the fold's head, from the events it decoded."""
    ledger = Ledger(roster, seat)
    for logged in log.events:
        ledger.fold(stream_id=logged.stream_id, position=logged.position, event=logged.event)
    return rated_in_force(ledger)


def rated_in_force(ledger: Ledger) -> list[RatedMatch]:
    """The ledger's results in force, their players mapped to their people (the player rows
    are read only when there is a result to map)."""
    matches = ledger.in_force()
    if not matches:
        return []
    known = people()
    return rateable([as_people(match, known) for match in matches])


# Writing rows.


def scope_filter(scopes: Collection[Scope]) -> Q:
    clubs = [scope for scope in scopes if scope is not None]
    condition = Q(club_id__in=clubs)
    if None in scopes:
        condition |= Q(club__isnull=True)
    return condition


def rating_row(player: int, scope: Scope, standing: Standing) -> PlayerRating:
    return PlayerRating(
        player_id=player,
        club_id=scope,
        mu=standing.rating.mu,
        sigma=standing.rating.sigma,
        rating=standing.rating.ordinal,
        matches=standing.matches,
        position=standing.position,
    )


def change_row(step: Step) -> RatingChange:
    return RatingChange(
        player_id=step.player,
        club_id=step.scope,
        tournament_id=step.tournament,
        match_id=step.match_id,
        position=step.position,
        mu_before=step.before.mu,
        sigma_before=step.before.sigma,
        mu_after=step.after.mu,
        sigma_after=step.after.sigma,
        rating_before=step.before.ordinal,
        rating_after=step.after.ordinal,
    )


def write(scores: Scores) -> int:
    PlayerRating.objects.bulk_create(
        rating_row(player, scope, standing)
        for (player, scope), standing in scores.standings.items()
    )
    RatingChange.objects.bulk_create(change_row(step) for step in scores.steps)
    return len(scores.standings)


def recompute(scopes: Collection[Scope], *, upto: int) -> int:
    """Drop the rows of `scopes` and compute them again from the log up to `upto`."""
    PlayerRating.objects.filter(scope_filter(scopes)).delete()
    RatingChange.objects.filter(scope_filter(scopes)).delete()
    return write(scored(in_force(upto=upto), forfeit_clubs(), only=scopes))


def stored_scores(players: Iterable[int], scope: Scope) -> Scores:
    """The stored ratings of these players in one scope, to rate a new match on."""
    scores = Scores()
    rows = PlayerRating.objects.filter(scope_filter([scope]), player_id__in=list(players))
    for row in rows:
        scores.standings[row.player_id, scope] = Standing(
            Rating(row.mu, row.sigma), row.matches, row.position
        )
    return scores


def rate_new(match: RatedMatch, scope: Scope) -> None:
    """Rate a result that came into force after every one rated so far in the scope."""
    scores = stored_scores(match.players, scope)
    steps = scores.apply(match, scope)
    for player in match.players:
        standing = scores.standings[player, scope]
        row = rating_row(player, scope, standing)
        where: dict[str, Any] = {"player_id": player, "club_id": scope}
        PlayerRating.objects.update_or_create(
            **where,
            defaults={
                "mu": row.mu,
                "sigma": row.sigma,
                "rating": row.rating,
                "matches": row.matches,
                "position": row.position,
            },
        )
    RatingChange.objects.bulk_create(change_row(step) for step in steps)


# The consumer.


def changes_of(events: list[RecordedEvent], *, after: int) -> list[Change]:
    """What the batch's events did to the results in force, in log order: the tournaments
    they touch are folded from their streams up to the checkpoint first."""
    decoded = [
        (recorded, tournament_event(recorded))
        for recorded in events
        if recorded.stream_type == STREAM
    ]
    touched = {recorded.stream_id for recorded, event in decoded if isinstance(event, WITHDRAWING)}
    if not touched:
        return []
    ledger = Ledger(roster, seat)
    for stream_id in touched:
        for recorded in read_stream(stream_id=stream_id):
            if recorded.global_position <= after:
                fold(ledger, recorded)
    return [
        ledger.fold(stream_id=recorded.stream_id, position=recorded.global_position, event=event)
        for recorded, event in decoded
        if recorded.stream_id in touched and isinstance(event, FOLDED)
    ]


def take(events: list[RecordedEvent], *, after: int) -> None:
    changes = changes_of(events, after=after)
    if not changes:
        return  # no result came or went: nothing to rate, no need to read the people
    clubs, known = forfeit_clubs(), people()
    stale: set[Scope] = set()
    for change in changes:
        withdrawn = people_in(change.withdrawn, known)
        if withdrawn is not None:
            stale.update(scopes_of(withdrawn, clubs))
        for revealed in rateable([people_in(match, known) for match in change.revealed]):
            stale.update(scopes_of(revealed, clubs))  # in force from their own positions
    if stale:
        recompute(stale, upto=events[-1].global_position)
    for added in rateable([people_in(change.added, known) for change in changes]):
        for scope in scopes_of(added, clubs):
            if scope not in stale:
                rate_new(added, scope)


def consume(*, batch: int = BATCH) -> int:
    """Rate the results the log recorded after the checkpoint; returns the events read. Each
    batch and its checkpoint commit together, so a batch cut short is simply read again."""
    processed = 0
    while True:
        checkpoint, _ = Checkpoint.objects.get_or_create(name=CONSUMER)
        events = read_all(after=checkpoint.position, limit=batch, stream_types=[STREAM])
        if not events:
            return processed
        position = events[-1].global_position
        with transaction.atomic():
            take(events, after=checkpoint.position)
            Checkpoint.objects.filter(name=CONSUMER, position__lt=position).update(
                position=position
            )
        processed += len(events)


def recount_club(club_id: int) -> None:
    """After a club's rating settings changed: its ratings and the overall ones again, up to
    where the consumer has read."""
    checkpoint, _ = Checkpoint.objects.get_or_create(name=CONSUMER)
    with transaction.atomic():
        recompute([club_id, None], upto=checkpoint.position)


def recount_everyone() -> int:
    """After player rows were linked to an account (or unlinked by an erasure): every rating
    again, up to where the consumer has read."""
    checkpoint, _ = Checkpoint.objects.get_or_create(name=CONSUMER)
    with transaction.atomic():
        PlayerRating.objects.all().delete()
        RatingChange.objects.all().delete()
        return write(scored(in_force(upto=checkpoint.position), forfeit_clubs()))


# Rebuild and verify.


def rebuild_ratings(log: TournamentLog | None = None) -> int:
    """Drop every rating row and compute them from the log (`log`, the tournament streams
    folded once for the whole rebuild, or a fold made now); the checkpoint moves to the fold's
    head."""
    log = fold_tournament_log() if log is None else log
    with transaction.atomic():
        PlayerRating.objects.all().delete()
        RatingChange.objects.all().delete()
        written = write(scored(in_force_of(log), forfeit_clubs()))
        Checkpoint.objects.update_or_create(name=CONSUMER, defaults={"position": log.head})
    return written


def comparable_standings(scores: Scores) -> dict[tuple[int, Scope], tuple[Any, ...]]:
    return {
        key: (s.rating.mu, s.rating.sigma, s.rating.ordinal, s.matches, s.position)
        for key, s in scores.standings.items()
    }


def verify_ratings() -> list[str]:
    """Compute the ratings from the log up to the consumer's checkpoint and report every row
    that differs, is missing or should not be there."""
    checkpoint, _ = Checkpoint.objects.get_or_create(name=CONSUMER)
    scores = scored(in_force(upto=checkpoint.position), forfeit_clubs())
    differences = compare_standings(comparable_standings(scores))
    return differences + compare_history(scores.steps)


def compare_history(steps: list[Step]) -> list[str]:
    expected = {
        (s.player, s.scope, s.match_id): (s.position, s.before.mu, s.after.mu, s.after.sigma)
        for s in steps
    }
    stored = {
        (row.player_id, row.club_id, row.match_id): (
            row.position,
            row.mu_before,
            row.mu_after,
            row.sigma_after,
        )
        for row in RatingChange.objects.all()
    }
    wrong = {key for key in expected.keys() | stored.keys() if expected.get(key) != stored.get(key)}
    return [
        f"rating history of player {player} in match {match_id}: differs"
        for player, _, match_id in sorted(wrong, key=str)
    ]


def compare_standings(expected: dict[tuple[int, Scope], tuple[Any, ...]]) -> list[str]:
    stored = {
        (row.player_id, row.club_id): (row.mu, row.sigma, row.rating, row.matches, row.position)
        for row in PlayerRating.objects.all()
    }
    differences = []
    for key in sorted(expected.keys() | stored.keys(), key=str):
        player, scope = key
        where = "overall" if scope is None else f"club {scope}"
        if key not in stored:
            differences.append(f"rating of player {player} ({where}): missing")
        elif key not in expected:
            differences.append(f"rating of player {player} ({where}): not in the log")
        elif stored[key] != expected[key]:
            differences.append(f"rating of player {player} ({where}): differs")
    return differences
