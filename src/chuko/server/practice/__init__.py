"""Practice as served: the daily Caravan, lessons and puzzles, and the Lab's facts.

Imports `rooms`, `store` and `shared`; never the club or the lobby."""
