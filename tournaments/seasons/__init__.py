"""A club's seasons, a club-level feature of its own (decision records 0037 and 0062):
`services` (the season rows its organizers set) and `selectors` (a season's standings, computed
on read from its tournaments' events, with `tournaments/standings/seasons.py`'s pure points
table). Only the entry points import it; the tournament's commands, reads and projections know
nothing of it.
"""
