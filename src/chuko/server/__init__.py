"""The browser app's server: rooms, live play over WebSockets, storage (docs/web-protocol.md).

    from chuko.server import create_app
    app = create_app("sqlite:///var/chuko.db")
"""

from chuko.server.web.app import create_app

__all__ = ["create_app"]
