"""Practice as the server serves it: the daily Caravan, the lessons, the rated Crossroads
puzzles and the Lab's facts, each with its reads and writes through `store` (the web answers
their requests).

May import `rooms`, `store` and `shared`; never `web`, `cluster`, `club` or `lobby`.
"""
