"""Outgoing webhooks, a club-level feature of its own (decision records 0039 and 0062):
`services` (organizers register, deactivate and redeliver endpoints), `addresses` (which
addresses may receive), `fanout` (the log's consumer that adds a delivery per endpoint and
event), `delivery` (one attempt, its backoff), `tasks` (the Celery tasks, under their names
`tournaments.webhooks.*`) and `selectors` (a tournament's endpoints). Only the entry points
import it; the tournament's commands, reads and projections know nothing of it.
"""
