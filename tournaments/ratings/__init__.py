"""Club ratings derived from match results (issue 15 §1, decision records 0036 and 0062), a
club-level feature of its own.

`maths` rates one match (openskill's Plackett-Luce, no Django); `ledger` folds the tournament
events into the matches that count; `projection` keeps the rating rows and their history from
the log, in log order; `seeding` orders a tournament's entrants by their players' ratings;
`services` sets a club's rating settings; `selectors` reads the leaderboard, a player's ratings
and what one match changed.
"""
