"""The store: the database's schema and migrations, the writer that commits, the readers
that answer off the event loop, and every query the domains make (each domain's reads and
writes are functions of a module of its own here).

Imports nothing of the server but `shared`."""
