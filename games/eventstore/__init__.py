"""The append-only event store: one PostgreSQL table of events, read and written via `api`."""
