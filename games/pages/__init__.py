"""The people's pages of a match: the table page for scorers, match pages and replays."""
