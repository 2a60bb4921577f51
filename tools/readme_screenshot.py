"""Retake the README's picture, ``docs/blackjack-table.png``: a Peru 2016 blackjack table
mid-round at 1366 px, ana's main bet and 21+3 on the felt beside ben's, her decision waiting.

    uv run python tools/readme_screenshot.py            # writes docs/blackjack-table.png
    uv run python tools/readme_screenshot.py --out x.png

The table is one of ``tools/page_scenes.py``'s scenes (a live server of its own with a
stopped clock and chosen seeds), so the picture is the same on every run until the page
changes. Needs Debian's Chromium (``tools/install_packages.py``).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import page_scenes

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 1366, 860


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "blackjack-table.png")
    arguments = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, page_scenes.serving(Path(folder)) as live:
        scenes = page_scenes.build(live)
        shot = next(s for s in page_scenes.shots(scenes) if s.name == "table-blackjack")
        shot = dataclasses.replace(shot, opens=None)  # the felt, not the rules panel
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(page_scenes.CHROMIUM), args=page_scenes.CHROMIUM_ARGS
            )
            page = page_scenes.open_page(browser, scenes, shot, WIDTH, height=HEIGHT)
            page_scenes.screenshot(page, arguments.out, full_page=False)
            browser.close()
    print(f"wrote {arguments.out} ({WIDTH}x{HEIGHT})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
