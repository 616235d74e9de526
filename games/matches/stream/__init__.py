"""The match stream: the commands a table sends to a match, the events they record, and the
state folded from those events.

Pure (standard library and `games.rules` only): the Django services load a stream, `decide` a
command against the folded state, append the events, and `evolve` the state with them. Everything
a reader sees (tricks, round points and results, ties and their replays, round wins, the winner)
is derived here from the recorded facts; none of it is ever typed in.
"""
