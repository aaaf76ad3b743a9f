"""Live tables: a round (or a match) played from several phones, refereed by the server.

:mod:`.live` plays one table (the library's ``Table``), :mod:`.store` keeps every accepted action in SQLite
before anybody hears of it, :mod:`.hub` sends each WebSocket its own view, :mod:`.service` ties them
together, :mod:`.routes` is the HTTP API and the WebSocket, :mod:`.schema` their bodies.
"""

from __future__ import annotations

from loba_service.tables.config import TablesConfig
from loba_service.tables.routes import PROTOCOL, routes, socket_routes
from loba_service.tables.service import Tables

__all__ = ["PROTOCOL", "Tables", "TablesConfig", "routes", "socket_routes"]
