"""Storage: the schema, its migrations, the writer and the reader, and every query of the
server (`database.py`, the store's face; `*_rows.py`, each domain's reads and writes). The
only package of the server that imports SQLAlchemy.

May import `shared`; nothing else of the server.
"""
