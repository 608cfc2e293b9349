"""What every part of the server does the same way: JSON messages read and written, a
client's limits (token buckets, caps), the pool for costly work, and the event bus.

Imports nothing of the server."""
