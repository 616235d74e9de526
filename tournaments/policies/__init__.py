"""Policies: what the tournament does when something happens elsewhere in the log (`matches`:
a match of the tournament moved). The log's consumer runs them; the commands never import them.
"""
