"""The real service and a real browser, for the page's tests (tests/page), ``make screenshots``
(docs/make_screenshots.py) and the page benchmark (benchmarks/bench_page.py).

- :func:`serve`: ``loba serve`` in its own process on a free loopback port, until the block ends (SIGTERM).
- :func:`chromium`: Debian's Chromium (the ``chromium`` package; Playwright's own browser download does not
  work here), headless, driven by Playwright for Python.

Neither is found on every machine: :func:`missing` says what is absent, and the tests skip on it unless
``LOBA_DSL_REQUIRE_BROWSER=1`` (CI sets it), where a missing browser fails them.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ViewportSize

ROOT = Path(__file__).resolve().parent.parent

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
"""Debian's Chromium, headless, as root in a container, with no traffic of its own beyond the page's."""

PHONE: ViewportSize = {"width": 360, "height": 780}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def playwright_missing() -> bool:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return True
    return False


def missing() -> str | None:
    """Why the browser tests cannot run here (``None``: they can)."""
    if playwright_missing():
        return "playwright is not installed (pip install -e '.[dev,service]')"
    if chromium_path() is None:
        return "Debian's chromium is not installed (apt-get install -y chromium)"
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def get_json(url: str, timeout: float = 5) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read())


@contextlib.contextmanager
def serve(env: dict[str, str] | None = None, solvers: int = 2) -> Iterator[str]:
    """``loba serve`` on 127.0.0.1 (a free port): yields its base URL, stops it with SIGTERM at the end."""
    port = free_port()
    full = {**os.environ, "PYTHONPATH": str(ROOT), "LOBA_SERVICE_SOLVERS": str(solvers), **(env or {})}
    proc = subprocess.Popen([sys.executable, "-c", "from loba_cli.main import main; main()", "serve",
                             "--host", "127.0.0.1", "--port", str(port)],
                            env=full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
                raise RuntimeError(f"loba serve exited with {proc.returncode}: {err[-2000:]}")
            try:
                if get_json(base + "/healthz", timeout=2).get("status") == "ok":
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("loba serve did not answer /healthz within 60 s")
            time.sleep(0.1)
        yield base
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """Headless Debian Chromium under Playwright."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    assert path is not None, missing()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
