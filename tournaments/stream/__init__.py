"""The tournament stream: the facts a tournament records (`events`, `fixture_events`), the
commands that record them (`commands`), and the state folded from them (`evolve`).

Pure (the rules core's errors and the standard library only), shaped like the match stream:
`decide.decide(state, command) -> events` refuses a command with a `TournamentError` or answers
the events it records (none when there is nothing to do; `entrants`, `progress` and `tables`
decide by concern), and `evolve.evolve(state, event)` folds one event. Events carry ids, never
names (decision 0018), and meet the store only through `events.encode` and `events.decode`.
The services load, decide, append and project through the one command pipeline
(`games.eventstore.pipeline`); the policies (`tournaments.policies`) react to what was recorded
(a created fixture gets its match; a withdrawn entrant forfeits).
"""
