"""Challenges (lila's `challenge`): one player asks another, by name, for a game with its
options, clock and rated or casual; the other accepts (a room is made for both), declines
with a reason, or lets it expire. The rules and their refusals are `challenges.py`'s; the
web answers the requests and tells the players (`web/challenges_api.py`).

May import `rooms`, `store` and `shared`; never `web`, `cluster`, `lobby`, `club`,
`practice` or `notify` (who follows and blocks whom is read through `store/people_rows.py`,
and notices go out through the `tell` the web gives).
"""
