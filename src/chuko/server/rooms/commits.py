"""Whether a write the store was given is committed (`stored`), for the waiter that makes
memory follow the database."""

from __future__ import annotations

import asyncio


def stored(write: asyncio.Future) -> bool:
    """Whether a write the store was given is committed. Its waiter then makes memory
    follow even when it was cancelled meanwhile (the store's futures cannot be, so they
    are done when the waiter goes on): memory and database never disagree."""
    return write.done() and write.exception() is None
