"""Tournaments: arenas and Swiss events, made by players or from the server's schedule.

`settings.py` reads a tournament's settings from a hostile client and words its rules;
`director.py` answers what a player asks (make, join, withdraw, pause, resume) and what a
page reads; `leader.py` is the loop the worker holding the cluster's lease runs (starting
tournaments, pairing arena waves and Swiss rounds, ending them), recording each pairing
before its room is made (`opener.py`); `results.py` reads each game's end from its room;
`rounds.py` is the seam to the pure pairing and scoring; `schedule.py` the operator's
schedule of recurring tournaments.

May import `rooms`, `store` and `shared`; never `web`, `cluster`, `lobby`, `club` or
`practice`.
"""
