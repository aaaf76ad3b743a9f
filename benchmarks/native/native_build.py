"""Build the C twin of the solver's packing kernels (``native_packing.c``) and put it in the solver's place.

Issue 11, item 6: a compiled core measured side by side.  The C kernels answer
exactly as :mod:`loba_dsl.solver.packing` (tests/test_packing_native.py), but the
searches they replace are about a tenth of the solver's time, so end to end they
buy 1.0-1.2x (``benchmarks/bench_native.py``): the package stays pure Python, and
this module builds the twin for the benchmark and the tests only.

    python benchmarks/native/native_build.py [OUT_DIR]   # builds, prints the module's path

It needs a C compiler (``cc``, or ``$CC``) and the Python headers, as any source
build of an extension does.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from loba_dsl.budget import Clock
from loba_dsl.solver import packing

SOURCE = Path(__file__).resolve().with_name("native_packing.c")
NAME = "native_packing"


def compiler() -> list[str] | None:
    """The C compiler command (``$CC``, else ``cc`` or ``gcc`` on the path), or ``None``."""
    given = os.environ.get("CC")
    if given:
        return shlex.split(given)
    found = shutil.which("cc") or shutil.which("gcc")
    return [found] if found else None


def build(out_dir: Path) -> ModuleType:
    """Compile ``native_packing.c`` into ``out_dir`` (a shared object for this Python) and import it."""
    cc = compiler()
    if cc is None:
        raise RuntimeError("no C compiler (cc, gcc or $CC) to build the C packing kernels")
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").exists():
        raise RuntimeError(f"no Python headers in {include} to build the C packing kernels")
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / (NAME + str(sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    command = [*cc, "-O2", "-shared", "-fPIC", "-I", include, str(SOURCE), "-o", str(target)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"building {SOURCE.name} failed:\n{done.stderr}")
    spec = importlib.util.spec_from_file_location(NAME, target)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kernels(native: Any) -> tuple[Callable[..., tuple[int, list[int]]], Callable[..., Callable[[int], int]]]:
    """``plain_search`` and ``bitmask_search`` by the C kernels, falling back to the Python ones where
    the C ones give ``None`` (keys of more than 127 bits, very large gains)."""
    pure_plain, pure_bitmask = packing.plain_search, packing.bitmask_search

    def plain_search(key: int, bits: int, by_first: packing.PlainOptions,
                     clock: Clock | None = None) -> tuple[int, list[int]]:
        found = native.plain_search(key, bits, by_first, None if clock is None else clock.tick)
        return pure_plain(key, bits, by_first, clock) if found is None else found

    def bitmask_search(n: int, by_low: packing.BitmaskOptions, clock: Clock | None = None) -> Callable[[int], int]:
        solver = native.bitmask_search(n, by_low, None if clock is None else clock.tick)
        return pure_bitmask(n, by_low, clock) if solver is None else solver

    return plain_search, bitmask_search


@contextmanager
def in_use(native: Any | None) -> Iterator[None]:
    """The solver searches with the C kernels (``native``) or the Python ones (``None``) inside."""
    saved = packing.plain_search, packing.bitmask_search
    if native is not None:
        packing.plain_search, packing.bitmask_search = kernels(native)
    try:
        yield
    finally:
        packing.plain_search, packing.bitmask_search = saved


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "build"
    print(build(out).__file__)
