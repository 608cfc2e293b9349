"""The rooms: a room and its hub, its move path, bots, clocks, forfeits, presence, history
and hints.

May import `store` and `shared`; never `web`, `cluster`, `club`, `lobby` or `practice`.
"""
