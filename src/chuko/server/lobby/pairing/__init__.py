"""Quick pairing: who plays whom among the players waiting in one pool (`waves.py`), by the
neighbour pairing on the line sorted by rating, an exact sweep, or Edmonds' blossom. Pure:
nothing here keeps state.

Imports nothing else of the server.
"""
