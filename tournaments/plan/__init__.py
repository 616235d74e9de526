"""What a tournament should do next, derived from its folded stream. Pure.

One idea for every format: the format knows the fixtures (pairings or bracket slots) whose two
entrants are known; a known fixture without a match gets one; a tournament is finished when the
format says so. Brackets and standings are computed here, so the projections, the services and
the tests share one definition: `fixture_specs` (fixtures and stages), `rankings` (standings as
the plan reads them), `drawing` (the stages by format, the fixtures to create, the end),
`cut_ties` (ties at a group's qualification cut) and `knockouts` (resets after a changed result,
level knockout matches).
"""
