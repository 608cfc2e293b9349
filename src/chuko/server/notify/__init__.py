"""Each player's own live channel, open on every page: who is online (a page of theirs open
on some worker), the notices told to a player on whichever worker holds their pages
(`channel.py`), and in which rooms it is their turn (`turns.py`). The web holds the sockets
(`web/me_socket.py`) and wires it (`web/people_parts.py`).

May import `rooms`, `store` and `shared`; never `web`, `cluster`, `lobby`, `club`,
`practice` or `challenge`.
"""
