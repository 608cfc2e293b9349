"""What every part of the server shares: the player (`players.py`), the messages' JSON, the
limits of what a client may ask, the pool of costly work and the event bus (`bus.py`).

Imports nothing else of the server.
"""
