"""Messages as the socket and the API send them: JSON text, and one object's text made of two
serialised apart; each worded in its reader's language (`worded`, `dumps_in`), and kept
translatable across the cluster's channels (`wire_dumps`, `wire_loads`); and what a client
sends, read as JSON without NaN or Infinity."""

from __future__ import annotations

import json
import math
from typing import Any

from chuko.core.protocol import Json
from chuko.core.text import Plural, Text
from chuko.i18n import DEFAULT, words

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - the web extra installs it
    _orjson = None  # type: ignore[assignment]


def dumps(message: Json) -> str:
    """A message as the socket sends it: compact JSON (UTF-8 text, not escaped), by orjson
    where it is installed (the `web` extra: a tenth of the time, which is a few percent of
    what a move costs the server), else by `json`; `json` too for what orjson refuses
    (keys that are not text, integers past 64 bits)."""
    if _orjson is not None:
        try:
            return _orjson.dumps(message).decode()
        except TypeError:
            pass
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def worded(message: Any, lang: str) -> Any:
    """`message` (JSON-like) with every sentence (`Text`) in it said in `lang`: the one
    place where the server's answers and socket messages take their reader's language. In
    English it is `message` itself, whose Texts already are their English sentences."""
    return message if lang == DEFAULT else words(lang).localize(message)


def dumps_in(message: Json, lang: str) -> str:
    """A message as the socket sends it to a reader of `lang` (`worded`, then `dumps`)."""
    return dumps(worded(message, lang))


def sentence(error: BaseException) -> str:
    """An error's sentence: the `Text` it was raised with, which an edge can translate
    (`str(error)` is its English only), else its text."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, str) else str(error)


_TEXT = "$text"  # a Text's message id in a message that crosses a channel (`wire_dumps`)


def wire_dumps(message: Any) -> str:
    """A message as JSON text for another worker (a Redis channel), its Texts kept as
    {"$text": msgid, "params": …} (and "plural" for a counted one), so the worker that
    delivers it still words them in each reader's language (`wire_loads`)."""
    return json.dumps(_to_wire(message), ensure_ascii=False)


def wire_loads(text: str | bytes) -> Any:
    """A message from another worker (`wire_dumps`), its Texts rebuilt."""
    return json.loads(text, object_hook=_from_wire)


def _to_wire(value: Any) -> Any:
    if isinstance(value, Text):
        params = {name: _to_wire(param) for name, param in value.params.items()}
        if isinstance(value, Plural):
            return {_TEXT: value.msgid, "plural": value.plural, "params": params}
        return {_TEXT: value.msgid, "params": params}
    if isinstance(value, dict):
        return {key: _to_wire(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_wire(item) for item in value]
    return value


def _from_wire(found: dict[str, Any]) -> Any:
    msgid = found.get(_TEXT)
    if not isinstance(msgid, str):
        return found
    params = found.get("params") or {}
    if "plural" in found:
        return Plural(msgid, found["plural"], **params)
    return Text(msgid, **params)


def loads(text: str) -> Any:
    """JSON text read: by orjson where installed (a few times faster than `json`, which a
    lobby wave reading ten thousand entries feels), else by `json`."""
    if _orjson is not None:
        return _orjson.loads(text)
    return json.loads(text)


def merge_objects(first: str, second: str) -> str:
    """The JSON text of one object holding the members of two objects given as JSON text
    (`dumps`), which have no key in common. A state message is made this way from the part
    every reader shares and each reader's own, so each part is serialised once (per version,
    per seat), not once per socket."""
    if second == "{}":
        return first
    if first == "{}":
        return second
    return f"{first[:-1]},{second[1:]}"


NOT_FINITE = Text("NaN, Infinity and -Infinity are not numbers here: send finite numbers only.")


class NotFinite(ValueError):
    """A client's JSON holds a number that is not finite."""


def _refuse_constant(name: str) -> Any:
    raise NotFinite(name)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 reads as Infinity
        raise NotFinite(text)
    return value


# Python's json reads NaN, Infinity and -Infinity (and 1e999 as Infinity) by default; a
# client's number is refused rather than let through to a comparison that NaN passes, a
# `round` that Infinity breaks, or a database that stores them.
_CLIENT_JSON = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)


def client_json(text: str) -> Any:
    """A client's JSON text read; NotFinite for NaN, ±Infinity or a number too large to be
    finite, ValueError for text that is not JSON. Every request body and socket message is
    read by it."""
    return _CLIENT_JSON.decode(text)
