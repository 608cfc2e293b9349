"""Secrets kept out of logs: seat tokens and invite codes in request paths (`redact`), for
the loggers that write them (`hide_secrets_in_logs`)."""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote, unquote_plus

_QUERY = re.compile(r"\?([^\s\"#]*)")
_SEGMENTS = re.compile(r"/(?=([^/?\s\"]+)/[^/?\s\"]+/([^/?\s\"#]+))")


def _secret_key(key: str) -> bool:
    """Whether a query parameter's name names a token or an invite, however it is spelled:
    any casing, percent-encoded (even twice), with spaces."""
    for _ in range(3):
        key = unquote_plus(key)
    folded = "".join(key.split()).casefold()
    return "token" in folded or "invite" in folded


def _redact_query(match: re.Match[str]) -> str:
    parts = re.split(r"([&;])", match.group(1))
    for i, part in enumerate(parts):
        key, equals, _ = part.partition("=")
        if equals and _secret_key(key):
            parts[i] = key + "=…"
    return "?" + "".join(parts)


def redact(text: str) -> str:
    """A log line with seat tokens and invite codes replaced by '…': the values of query
    parameters named like `token` or `invite` (parsed, not matched as text, so `?TOKEN=` and
    `?tok%65n=` are hidden too) and the code of an invite path `/join/{room}/{code}`."""
    if "?" not in text and text.count("/") < 3:  # neither a query nor an invite path
        return text
    codes = [m.span(2) for m in _SEGMENTS.finditer(text)
             if unquote(m.group(1)).casefold() == "join"]
    for start, end in reversed(codes):
        text = text[:start] + "…" + text[end:]
    return _QUERY.sub(_redact_query, text)


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        record.msg = redact(str(record.msg))
        return True


def hide_secrets_in_logs() -> None:
    """Redact the loggers that write request paths: uvicorn's access log and the one that
    reports WebSocket connections. The app does it itself, so any way of serving it is
    covered."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
