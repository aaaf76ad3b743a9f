"""Finding a request's route: a fixed path by one dict lookup, not by trying every route's pattern in turn.

Starlette's router tries each route's regular expression in order; ``/v1/games/play`` is the 14th route, and
trying the 13 before it cost ~10-16 µs a request on this machine (the bare Starlette app, a single route, pays
none of it).  :class:`ExactRouter` is Starlette's router with an index of the routes whose path is fixed (no
``{parameter}``) and that no earlier route matches: a request to one of them with one of its methods is handed to
it at once, with the same scope Starlette's router would give it.  Everything else (another method: the 405;
a path with parameters; a WebSocket; a ``root_path``; a redirect of a trailing slash; a 404) goes through
Starlette's own loop, unchanged.

>>> from starlette.responses import PlainTextResponse
>>> async def hello(request): return PlainTextResponse("hello")
>>> router = ExactRouter([Route("/a/{x}", hello, methods=["GET"]), Route("/a/b", hello, methods=["POST"]),
...                       Route("/c", hello, methods=["POST"])])
>>> sorted(router.exact)  # /a/b is matched by /a/{x} before it: left to the loop
['/c']
"""

from __future__ import annotations

from typing import Any

from starlette.routing import BaseRoute, Match, Route, Router
from starlette.types import Receive, Scope, Send

__all__ = ["ExactRouter"]

_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


class ExactRouter(Router):
    """Starlette's :class:`~starlette.routing.Router` with the fixed paths found by a dict lookup."""

    def __init__(self, routes: list[BaseRoute], **kwargs: Any) -> None:
        super().__init__(routes, **kwargs)
        self.exact: dict[str, Route] = {}
        for i, route in enumerate(self.routes):
            if (type(route) is Route and not route.param_convertors and route.methods
                    and route.path not in self.exact and not _matched_before(self.routes[:i], route.path)):
                self.exact[route.path] = route

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("root_path"):
            route = self.exact.get(scope["path"])
            if route is not None and scope["method"] in route.methods:  # type: ignore[operator]
                # the scope as Router.app and Route.matches make it for a full match of a path without parameters
                if "router" not in scope:
                    scope["router"] = self
                scope["route"] = route
                scope["endpoint"] = route.endpoint
                scope["path_params"] = dict(scope.get("path_params", {}))
                await route.handle(scope, receive, send)
                return
        await super().app(scope, receive, send)


def _matched_before(earlier: list[BaseRoute], path: str) -> bool:
    """Whether a route of ``earlier`` matches ``path`` (fully or by its path alone) for any method."""
    for method in _METHODS:
        scope = {"type": "http", "path": path, "root_path": "", "method": method}
        if any(route.matches(scope)[0] is not Match.NONE for route in earlier):
            return True
    return False
