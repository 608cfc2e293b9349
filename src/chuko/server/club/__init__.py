"""The club: players, accounts and sessions, ratings, standings and profiles.

Imports `rooms`, `store` and `shared`; never the lobby or practice."""
