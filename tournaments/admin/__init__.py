"""The organizer's console: tournaments, entrants and fixtures.

The rows here are names and projections of the tournament streams, so the admin never writes
them. Creating a tournament, registering, importing, seeding, starting, pairing a Swiss round,
checking in, withdrawing, moving tables, forfeiting and voiding all call services, which append
events with the organizer as their actor; a refusal is shown as an error message. The event log
itself is read-only (`games.eventstore.admin`); every page links to its stream's events.
"""

# Django's autodiscovery imports this package only: importing the modules registers their model
# admins with the site. Nothing is re-exported; callers import the module that defines a name.
import tournaments.admin.entrants
import tournaments.admin.fixtures
import tournaments.admin.players
import tournaments.admin.ratings
import tournaments.admin.seasons
import tournaments.admin.tournaments
import tournaments.admin.webhooks  # noqa: F401 - imported for its registrations
