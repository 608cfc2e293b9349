"""The lobby: pools and seeks on a board (in memory or in a cluster's Redis), the matchmaker
that pairs them and opens their rooms, and the feed that tells the lobby's sockets
(`pairing/`: who plays whom). The web holds its sockets and wires it (`web/lobby_parts.py`).

May import `rooms`, `store` and `shared`; never `web`, `cluster`, `club` or `practice`.
"""
