"""Tournaments: arenas, Swiss events and rounds of tables for multiplayer games. The pure
core says how a result scores (`scoring.py`), who meets whom in a Swiss round (`swiss.py`)
or an arena's wave and at which table (`arena.py`), and how the standings rank
(`tiebreaks.py`); nothing in those keeps state or does I/O.

May import `rooms`, `store` and `shared`; never `web`, `cluster`, `club`, `lobby` or
`practice`.
"""
