"""The transport: the ASGI app and its router, the HTTP API and pages, sockets, connection
limits, headers, cookies and origin checks.

Imports the domains; no domain imports it."""
