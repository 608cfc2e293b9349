"""The API's answers in their reader's language: every JSON answer, FastAPI's routes'
(`Answer`, their response class, and the refusals of `http_errors.py`) and the bare ones of
`router.py` alike, has its sentences said in the request's language (`language.py`) by
`said_to`, as it is sent."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send

from chuko.i18n import DEFAULT
from chuko.server.shared.messages import worded
from chuko.server.web.language import request_language


def said_to(scope: Scope, payload: Any) -> Any:
    """`payload` with its sentences in the language of the request of `scope`."""
    lang = request_language(HTTPConnection(scope))
    return payload if lang == DEFAULT else worded(payload, lang)


class Answer(JSONResponse):
    """A JSON answer that keeps what it says (`content`, with its Texts) until it is sent,
    when its request, and so its reader's language, is known; in English it is sent as
    made."""

    def __init__(self, content: Any, *args: Any, **kwargs: Any) -> None:
        self.content = content
        super().__init__(content, *args, **kwargs)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        content = said_to(scope, self.content)
        if content is not self.content:
            self.body = self.render(content)
            self.headers["content-length"] = str(len(self.body))
        await super().__call__(scope, receive, send)


class SaidRoute(APIRoute):
    """A route whose answer reaches `Answer` with its Texts: no response model is taken from
    the endpoint's return annotation, since validating against one would turn every Text
    into a plain string, English whatever the reader's language."""

    def __init__(self, path: str, endpoint: Any, **options: Any) -> None:
        options["response_model"] = None
        super().__init__(path, endpoint, **options)
