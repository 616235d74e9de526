"""The tournament's projections, folds of the log that any rebuild can drop and refill: `rows`
(the tournament, entrant, table and fixture rows, projected inline by the command pipeline),
`rebuild` (every row refilled or compared from a fresh fold) and `consumer` (the log's consumer:
the views readers see, and the policies run for each match event)."""
