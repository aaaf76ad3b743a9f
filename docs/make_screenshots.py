"""``make screenshots``: each view of the card-table page (``loba serve``'s ``/``) at phone (360 px) and laptop
(1280 px) width, saved as docs/screenshots/VIEW-WIDTH.png (the README shows them).

It starts the real service on a free loopback port and drives Debian's Chromium with Playwright, drawing each
view as a person would mid-use (tests/page_views.py): a verdict with its reasons, a match with an elimination
and a re-entry offer, house rules with their diff, an arrangement, a new live table's links, a seat mid-round
and at the round's end; and the checker, a seat and house rules with a YAML slip in Spanish.
Run: ``.venv/bin/python docs/make_screenshots.py [--out docs/screenshots]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import page_browser  # noqa: E402
import page_views  # noqa: E402

SHOTS: dict[str, page_views.Prepare] = {
    "check": page_views.check_view,
    "sheet": page_views.sheet_view,
    "house": page_views.house_diff,
    "arrange": page_views.arrange_view,
    "play-links": page_views.play_links,
    "play": page_views.play_seat,
    "play-over": page_views.play_over,
}


def spanish_check(page: Any, base: str) -> None:
    page_views.go(page, base, "check")
    page.get_by_role("textbox", name="Cartas").fill("A♣ 2♣ JOKER")
    page.get_by_role("status").first.filter(has_text="legal").wait_for()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    why = page_browser.missing()
    if why is not None:
        print(f"make screenshots: {why}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with page_browser.serve() as base, page_browser.chromium() as browser:
        jobs: list[tuple[str, page_views.Prepare, str]] = [(n, p, "en-US") for n, p in SHOTS.items()]
        jobs.append(("check-es", spanish_check, "es-AR"))
        jobs.append(("play-es", page_views.play_seat, "es-AR"))
        jobs.append(("house-es", page_views.house_errors_es, "es-AR"))
        for name, prepare, locale in jobs:
            for width, viewport in (("phone", page_browser.PHONE), ("laptop", page_browser.LAPTOP)):
                context = browser.new_context(viewport=viewport, locale=locale, device_scale_factor=1)
                page = context.new_page()
                prepare(page, base)
                page.mouse.move(0, 0)  # no hover state in the picture
                page.evaluate("() => document.activeElement && document.activeElement.blur()")
                path = args.out / f"{name}-{width}.png"
                page.screenshot(path=str(path), full_page=True)
                print(path.relative_to(ROOT))
                context.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
