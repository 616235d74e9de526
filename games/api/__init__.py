"""The scorer's REST API under /api/v1/: one thin view per operation.

Views validate the request's shape, call one service (writes) or selector (reads) and shape the
answer; errors become `{"code", "detail"}` in `common.exceptions`. See
docs/decisions/0005-scorer-api.md.
"""
