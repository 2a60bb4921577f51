"""Every page against its approved picture (issue 13, "Done when": "compare screenshots of
every page at 1366 and 390 px against approved images kept in the repository").

The pages are those of ``tools/page_scenes.py``: one live server of their own with a stopped
clock and chosen shoe seeds, the same people doing the same things, so each picture is the
same on every run (the browser's clock is stopped at the server's time too). Each is
taken full page in Chromium (no motion, UTC, English) at 1366 and 390 px and compared with
``tests/e2e/approved/<page>-<width>.png``:

- the sizes must match (a page grown or shrunk by a moved or missing element fails);
- a pixel differs when one of its channels differs by more than ``CHANNEL_TOLERANCE``
  (antialiasing moves edges by a shade, not by this much);
- the picture fails when more than ``MOST_PIXELS_DIFFERING`` pixels differ: about a 14 x 14
  px patch, less than a chip, a card's corner or a button (so a missing element is caught)
  and more than the scattered edge pixels a font's antialiasing changes.

A failure writes the picture taken and a map of the differing pixels (red) to
``artifacts/approved/``. After a deliberate change of the pages, write them anew with
``uv run pytest -m browser tests/e2e/test_approved_screenshots.py --approve`` and commit
the images with the change.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import page_scenes

from .test_pages_in_the_players_language import english_left_on

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

APPROVED = Path(__file__).resolve().parent / "approved"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "approved"
WIDTHS = (1366, 390)
CHANNEL_TOLERANCE = 48
MOST_PIXELS_DIFFERING = 200


@pytest.fixture(scope="module")
def scenes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[page_scenes.Scenes]:
    with page_scenes.serving(tmp_path_factory.mktemp("approved")) as live:
        yield page_scenes.build(live)


def differing_pixels(taken: np.ndarray, approved: np.ndarray) -> np.ndarray:
    """Where the two pictures differ by more than antialiasing does (a boolean map)."""
    difference = np.abs(taken.astype(np.int16) - approved.astype(np.int16))
    mask: np.ndarray = difference.max(axis=2) > CHANNEL_TOLERANCE
    return mask


def _rgb(path: Path) -> np.ndarray:
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


def test_the_tolerance_passes_antialiasing_and_catches_a_missing_chip() -> None:
    page = np.full((200, 300, 3), 250, dtype=np.uint8)
    shaded = page.copy()
    shaded[::7, ::5] -= 30  # a shade on scattered edge pixels
    assert differing_pixels(shaded, page).sum() == 0
    without_chip = page.copy()
    page[50:70, 50:70] = (200, 30, 30)  # a 20 px chip
    assert differing_pixels(without_chip, page).sum() > MOST_PIXELS_DIFFERING


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", page_scenes.SHOT_NAMES)
def test_each_page_looks_as_approved(
    browser: Any, scenes: page_scenes.Scenes, name: str, width: int, request: pytest.FixtureRequest
) -> None:
    shot = {shot.name: shot for shot in page_scenes.shots(scenes)}[name]
    page = page_scenes.open_page(browser, scenes, shot, width)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    approved = APPROVED / f"{name}-{width}.png"
    taken = ARTIFACTS / f"{name}-{width}.png"
    try:
        page_scenes.screenshot(page, taken)
    finally:
        page.context.close()
    assert not [e for e in errors if "Failed to load resource" not in e], errors
    if request.config.getoption("--approve"):
        APPROVED.mkdir(parents=True, exist_ok=True)
        with Image.open(taken) as image:  # the same pixels, packed tighter for the repository
            image.save(approved, optimize=True)
        return
    assert approved.exists(), (
        f"no approved picture {approved.name}: take it with "
        "`uv run pytest -m browser tests/e2e/test_approved_screenshots.py --approve`"
    )
    now, then = _rgb(taken), _rgb(approved)
    assert now.shape == then.shape, (
        f"{name} at {width} px is {now.shape[1]}x{now.shape[0]}, approved "
        f"{then.shape[1]}x{then.shape[0]} (see {taken})"
    )
    differing = differing_pixels(now, then)
    count = int(differing.sum())
    if count > MOST_PIXELS_DIFFERING:
        marked = now.copy()
        marked[differing] = (255, 0, 0)
        Image.fromarray(marked).save(ARTIFACTS / f"{name}-{width}-differs.png")
    assert count <= MOST_PIXELS_DIFFERING, (
        f"{name} at {width} px: {count} pixels differ from {approved.name} "
        f"(at most {MOST_PIXELS_DIFFERING}); see {ARTIFACTS}/{name}-{width}-differs.png, "
        "or approve a deliberate change with --approve"
    )


@pytest.mark.parametrize("game", ["blackjack", "baccarat", "casino-holdem"])
def test_the_rules_roads_and_shoe_read_in_spanish_and_fit_a_phone(
    browser: Any, scenes: page_scenes.Scenes, game: str
) -> None:
    """Issue 13, items 3, 4 and 6: the rules panel, the roads and the shoe's count in Spanish
    (no English catalogue text left), grouped as Spanish writes numbers, at 390 px."""
    shot = {shot.name: shot for shot in page_scenes.shots(scenes)}[f"table-{game}"]
    page = page_scenes.open_page(browser, scenes, shot, 390, locale="es-ES")
    try:
        text = page.locator("body").inner_text()
        assert english_left_on(text) == []
        assert "Reglas de esta mesa" in text
        if game == "blackjack":
            assert "2 a 1" in text and "(S17)" in text and "10.000" in text
            assert "Zapato: 14 de 312 cartas repartidas" in text
        if game == "casino-holdem":
            assert "Pozo acumulado ahora: 5.000,50" in text
        if game == "baccarat":
            assert "Gana la Banca con 6" in text and "Camino grande" in text
            assert "3 manos" in text  # the three coups dealt before the scene's bets
            assert page.locator("#roads .bead-plate .bead").count() == 3
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{game} scrolls sideways by {overflow} px"
        page_scenes.screenshot(page, ARTIFACTS / f"table-{game}-es-390.png")
    finally:
        page.context.close()


# Each seat's bottom corners (inset by the seat's own rounding, about 4 px) against the felt's
# curved bottom edge: the ellipse of its bottom corners' border radius, less its border.
SEATS_OUTSIDE_THE_CURVE = """() => {
  const felt = document.querySelector('.felt');
  const box = felt.getBoundingClientRect();
  const style = getComputedStyle(felt);
  const border = parseFloat(style.borderLeftWidth);
  const length = (value, whole) =>
    value.endsWith('%') ? parseFloat(value) * whole / 100 : parseFloat(value);
  const [x, y = x] = style.borderBottomLeftRadius.split(' ');
  const rx = length(x, box.width), ry = length(y, box.height);
  const cy = box.bottom - ry;
  const inside = (px, py, cx) => py <= cy || ((px - cx) / (rx - border)) ** 2
    + ((py - cy) / (ry - border)) ** 2 <= 1;
  const outside = [];
  for (const seat of felt.querySelectorAll('.seat')) {
    const s = seat.getBoundingClientRect();
    const left = s.left + 4, right = s.right - 4, bottom = s.bottom - 4;
    const ok = (left >= box.left + rx || inside(left, bottom, box.left + rx))
      && (right <= box.right - rx || inside(right, bottom, box.right - rx));
    if (!ok) outside.push(seat.querySelector('.seat-head')?.innerText.split('\\n')[0]);
  }
  return outside;
}"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", ["blackjack", "baccarat", "casino-holdem"])
def test_every_seat_lies_inside_the_felts_curved_edge(
    browser: Any, scenes: page_scenes.Scenes, game: str, width: int
) -> None:
    """Issue 13 ("a table a player trusts at a glance"): the felt's rounded bottom edge once
    curved in by 18% of the felt's height, which on a tall felt (a phone, or seven baccarat
    zones) put the last row's seats, and a player's result in them, past the table's edge,
    drawn white on the page's background."""
    shot = {shot.name: shot for shot in page_scenes.shots(scenes)}[f"table-{game}"]
    page = page_scenes.open_page(browser, scenes, shot, width)
    try:
        assert page.locator(".felt .seat").count() > 0
        assert page.evaluate(SEATS_OUTSIDE_THE_CURVE) == []
    finally:
        page.context.close()
