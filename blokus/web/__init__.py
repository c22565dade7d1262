"""Play Blokus in the browser: a small Starlette app and a static page.

``blokus serve`` runs :func:`run`; :func:`create_app` gives the ASGI app (for
tests, or to mount it elsewhere).  The server owns every game and checks every
move with the rules engine; the page (plain HTML, CSS and JavaScript in
``static/``, no build step) draws the board and talks JSON over a WebSocket.
See :mod:`blokus.web.server` for the message protocol.
"""

from blokus.web.server import ServeError, create_app, run

__all__ = ["ServeError", "create_app", "run"]
