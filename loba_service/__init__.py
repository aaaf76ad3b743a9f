"""loba-dsl's HTTP validation service: an ASGI app (Starlette, msgspec bodies) over the public library.

Started by ``loba serve`` (uvicorn); installed with ``pip install 'loba-dsl[service]'``.  Nothing in the
library or in ``loba check`` imports it.  Names are imported on first use, so a solver process
(``python -m loba_service.jobs``) does not load the web stack.

>>> from loba_service import create_app
>>> create_app().state.service.limits.max_body
1048576
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = ["Limits", "Service", "create_app"]

_EXPORTS = {"Limits": "loba_service.limits", "Service": "loba_service.app", "create_app": "loba_service.app"}

if TYPE_CHECKING:
    from loba_service.app import Service as Service
    from loba_service.app import create_app as create_app
    from loba_service.limits import Limits as Limits
else:

    def __getattr__(name: str) -> Any:
        module = _EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module 'loba_service' has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value
