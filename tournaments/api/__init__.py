"""The tournament API under /api/v1/tournaments/: one thin view per operation.

Views validate the request's shape, call one service (writes) or selector (reads) and shape the
answer; errors become `{"code", "detail"}` in `common.exceptions`. The scorer API's helpers
(`games.api`) are reused for what every write does. See docs/decisions/0010-tournament-api.md.
"""
