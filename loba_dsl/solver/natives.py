"""The switch of the solver's optional C twins.

The package is pure Python; where a C compiler was present at install, some kernels also have
a C twin (an extension module of this package, built by ``setup.py``, e.g.
:mod:`loba_dsl.solver.native_packing`) that gives identical answers.  A module with a twin
imports it beside its Python code and uses it unless :data:`PURE`.
"""

from __future__ import annotations

import os

__all__ = ["PURE"]

PURE: bool = os.environ.get("LOBA_DSL_PURE") == "1"
"""Whether the C twins are switched off for this process (environment variable ``LOBA_DSL_PURE=1``), so
the Python kernels can be measured or checked alone."""
