"""The lobby: pools, seeks and the waves that pair their players into rooms.

Imports `rooms`, `store` and `shared`; never the club or practice."""
