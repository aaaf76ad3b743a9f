"""Fixtures of the page's browser tests (tests/page), a pytest plugin that tests/conftest.py loads: one real
``loba serve`` and one headless Chromium for the whole run, a fresh browser context (empty storage) for
each test.  Without Playwright or Chromium the tests skip, unless ``LOBA_DSL_REQUIRE_BROWSER=1`` (CI).

Every test's page is watched: a response of 500 or more, a script error, or a request to another host fails
the test that caused it (the issue's contract: no request gets a 5xx; nothing is fetched from elsewhere).  A
failing test saves a screenshot of its page to ``build/page-failures/`` (or ``$LOBA_PAGE_FAILURES``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import page_browser

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize
import pytest

WHY = page_browser.missing()
if WHY is not None and os.environ.get("LOBA_DSL_REQUIRE_BROWSER") == "1":
    raise RuntimeError(f"the browser tests must run here (LOBA_DSL_REQUIRE_BROWSER=1), but {WHY}")
if not page_browser.playwright_missing():
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)  # a loaded machine (CI, 2 cores) answers the solver's calls slowly

AXE = Path(__file__).parent / "page" / "vendor" / "axe-core-4.14.1" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
FAILURES = Path(os.environ.get("LOBA_PAGE_FAILURES", page_browser.ROOT / "build" / "page-failures"))


_FAILED = pytest.StashKey[bool]()
"""Whether the test's own body failed (its screenshot is then saved)."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash[_FAILED] = report.failed
    return report


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """``loba serve`` on a free loopback port, for the whole run."""
    if WHY is not None:
        pytest.skip(WHY)
    with page_browser.serve() as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium, for the whole run."""
    if WHY is not None:
        pytest.skip(WHY)
    with page_browser.chromium() as b:
        yield b


class Watch:
    """What a page did that it must not: 5xx answers, script errors, requests to other hosts."""

    def __init__(self, base: str) -> None:
        self.host = urlsplit(base).netloc
        self.server_errors: list[str] = []
        self.script_errors: list[str] = []
        self.elsewhere: list[str] = []
        self.requests: list[str] = []

    def attach(self, page: Any) -> None:
        page.on("response", self.response)
        page.on("request", self.request)
        page.on("pageerror", lambda e: self.script_errors.append(str(e)))

    def response(self, r: Any) -> None:
        if r.status >= 500:
            self.server_errors.append(f"{r.status} {r.request.method} {r.url}")

    def request(self, r: Any) -> None:
        self.requests.append(r.url)
        parts = urlsplit(r.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != self.host:
            self.elsewhere.append(r.url)

    def check(self) -> None:
        assert not self.server_errors, f"requests answered with a server error: {self.server_errors}"
        assert not self.script_errors, f"script errors on the page: {self.script_errors}"
        assert not self.elsewhere, f"requests to another host: {self.elsewhere}"


def open_page(browser: Any, server: str, request: pytest.FixtureRequest, *, viewport: ViewportSize | None = None,
              locale: str = "en-US") -> Iterator[Any]:
    context = browser.new_context(viewport=viewport or page_browser.LAPTOP, locale=locale, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    watch = Watch(server)
    watch.attach(page)
    page.watch = watch
    broken = False
    try:
        yield page
        try:
            watch.check()
        except AssertionError:
            broken = True
            raise
    finally:
        if broken or request.node.stash.get(_FAILED, False):
            FAILURES.mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid.split("::")[-1])
            with contextlib.suppress(Exception):  # the page may be gone with the failure
                page.screenshot(path=str(FAILURES / f"{name}.png"), full_page=True)
        context.close()


@pytest.fixture
def page(browser: Any, server: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A laptop-sized page of the service in English, with empty browser storage."""
    yield from open_page(browser, server, request)


@pytest.fixture
def phone(browser: Any, server: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A phone-sized (360 px) page of the service in English."""
    yield from open_page(browser, server, request, viewport=page_browser.PHONE)


@pytest.fixture
def spanish(browser: Any, server: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page whose browser asks for Spanish (es-AR)."""
    yield from open_page(browser, server, request, locale="es-AR")


@pytest.fixture(scope="session")
def axe_source() -> str:
    data = AXE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == AXE_SHA256, "the vendored axe-core is not the recorded file"
    return data.decode("utf-8")
