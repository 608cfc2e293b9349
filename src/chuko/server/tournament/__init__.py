"""Tournaments: arenas, Swiss events and rounds of tables for multiplayer games, made by
players or from the server's schedule.

The pure core says how a result scores (`scoring.py`), who meets whom in a Swiss round
(`swiss.py`) or an arena's wave and at which table (`arena.py`), and how the standings rank
(`tiebreaks.py`); nothing in those keeps state or does I/O. `rounds.py` is the service's
seam to it.

`settings.py` reads a tournament's settings from a hostile client and words its rules;
`director.py` answers what a player asks (make, join, withdraw, pause, resume) and what a
page reads; `leader.py` is the loop the worker holding the cluster's lease runs (starting
tournaments, pairing arena waves and Swiss rounds, ending them), recording each pairing
before its room is made (`opener.py`); `results.py` reads each game's end from its room;
`schedule.py` is the operator's schedule of recurring tournaments.

May import `rooms`, `store` and `shared`; never `web`, `cluster`, `lobby`, `club`,
`challenge`, `notify` or `practice`.
"""
