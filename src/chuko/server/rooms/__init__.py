"""The rooms: a room and its game, opening rooms and taking seats, the move path, bots,
clocks, forfeits, presence, history and hints.

Imports `store` and `shared`; tells the other domains what happened through events."""
