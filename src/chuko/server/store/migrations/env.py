"""Alembic's entry point: migrations run on the connection `upgrade` hands over (the server
never runs them from a command line of Alembic's)."""

from alembic import context

context.configure(connection=context.config.attributes["connection"], render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
