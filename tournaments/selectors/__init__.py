"""Reads of tournaments, their entrants, matches, standings and bracket: plain functions,
keyword-only, one module per concern. Callers import the concrete module.
"""
