"""Several workers serving the same rooms: Redis, the lease that names the leader, and the
buckets every worker shares. An adapter the app builds and hands to those who need it.

Imports the domains it relays (`rooms`, `lobby`), `store` and `shared`."""
