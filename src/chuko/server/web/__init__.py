"""The transport: the ASGI router and the app it builds (`app.py`), the HTTP API and pages,
the room's and the lobby's sockets, connection limits, headers, cookies and origin checks.
Each `*_api.py` reads requests and answers them with what a domain says.

May import every other package of the server: it is the top of the server's layers, and
nothing below imports it.
"""
