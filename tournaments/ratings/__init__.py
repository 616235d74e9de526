"""Club ratings derived from match results (issue 15 §1, decision record 0036).

`maths` rates one match (openskill's Plackett-Luce, no Django); `ledger` folds the tournament
events into the matches that count; `projection` keeps the rating rows and their history from
the log, in log order; `seeding` orders a tournament's entrants by their players' ratings.
"""
