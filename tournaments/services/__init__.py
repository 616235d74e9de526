"""Tournament services: plain functions with keyword-only arguments, named `<entity>_<action>`,
one module per concern. Every write is a command run through `pipeline.run`. They raise
`TournamentError`s (`tournaments.errors`, codes for the API) and let the match services' errors
through. Callers import the concrete module.
"""
