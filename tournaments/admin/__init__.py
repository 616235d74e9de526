"""The organizer's console: tournaments, entrants and fixtures.

The rows here are names and projections of the tournament streams, so the admin never writes
them. Creating a tournament, registering, importing, seeding, starting, pairing a Swiss round,
checking in, withdrawing, moving tables, forfeiting and voiding all call services, which append
events with the organizer as their actor; a refusal is shown as an error message. The event log
itself is read-only (`games.eventstore.admin`); every page links to its stream's events.
"""
