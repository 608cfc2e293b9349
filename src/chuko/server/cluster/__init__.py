"""A cluster of workers over Redis: the lease that says which worker runs the bots and the
timers, the rooms and the sign-outs relayed between workers, and the rate buckets they
share. An adapter the app builds and injects when it is given a Redis address.

May import `rooms`, `store` and `shared`; never `web`, `club`, `lobby` or `practice`.
"""
