"""Pure Briscola rules: cards (`cards`), variants (`variants`), tables (`tables`), rounds as
decide/evolve (`round`, `round_state`, `tricks`, `replay`) and matches (`match`).

Standard library only; the Django services in `games` import the module that defines each name
(this package re-exports none: decision 0065).
"""
