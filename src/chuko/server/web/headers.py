"""The security headers every response of the server carries: the app's own (`guard.py`,
`router.py`) and those the connections answer without it (`connections.py`: a request that is
not valid HTTP, a connection over a cap). Apart from them so that none imports another."""

from __future__ import annotations

# Images may also be data: URLs, which the pages use for their empty favicon.
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
