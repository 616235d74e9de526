"""Standings for a stage: match points, ordered tie-breaks and shared ranks.

A pure package (standard library only, no Django). The standings projection feeds it the stage's
entrants and match results and stores the rows it returns. See docs/decisions/0008.
"""
