"""Public tournament pages: the list, a tournament's standings, bracket and fixtures, the
projector screen, and a player's matches."""
