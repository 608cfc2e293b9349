"""The club: players' sessions and accounts, passwords and usernames, log-in limits, ratings,
a profile's results and the sockets closed at a sign-out (without HTTP: the web reads the
cookies and serves the pages).

May import `rooms`, `store` and `shared`; never `web`, `cluster`, `lobby` or `practice`.
"""
