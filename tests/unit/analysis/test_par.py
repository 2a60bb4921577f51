"""PAR sheets (``croupier analyze PROFILE --par DIR``): the Markdown's figures are the exact
figures, counted here independently where a hand count is short; the PDF has a summary page
and one page per wager, with the same numbers in its text."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pypdf
from typer.testing import CliRunner

from croupier.analysis.par import CONFIDENCE, markdown, profile_par
from croupier.analysis.profile_analysis import analyse_profile
from croupier.cli.main import app
from croupier.rules import load_profile

PROFILES = Path(__file__).parents[3] / "src/croupier/rules/profiles"
runner = CliRunner()


def _section(page: str, title: str) -> str:
    start = page.index(f"\n## {title}\n")
    end = page.find("\n## ", start + 1)
    return page[start : end if end != -1 else len(page)]


def _exact(section: str, outcome: str) -> Fraction:
    """The exact probability printed for ``outcome`` in a section's exact table."""
    match = re.search(rf"^\| {re.escape(outcome)} \| (\d+/\d+|\d+) \|$", section, re.MULTILINE)
    assert match is not None, f"no exact line for {outcome!r}"
    return Fraction(match.group(1))


def _figure(section: str, name: str) -> str:
    match = re.search(rf"^\| {re.escape(name)} \| ([^|]+) \|$", section, re.MULTILINE)
    assert match is not None, f"no figure {name!r}"
    return match.group(1).strip()


def test_blackjack_sheet_has_main_insurance_and_21_plus_3_exactly() -> None:
    """peru-2016 (6 decks; Arts. 18-20 paytable 30/20/10/5). Counted by hand over ordered
    draws of three of the 312 cards: a straight flush is one of 4 suits x 12 runs (A-2-3 to
    Q-K-A), in 3! orders, 6 copies of each card; three of a kind is 13 ranks x 24 x 23 x 22
    (suited trips pay as trips). Insurance: 96 tens among the 311 unseen cards."""
    page = markdown(profile_par(analyse_profile(load_profile("peru-2016"))))
    ordered = 312 * 311 * 310
    side = _section(page, "21+3")
    assert _exact(side, "straight flush") == Fraction(48 * 6 * 6**3, ordered)
    assert _exact(side, "three of a kind") == Fraction(13 * 24 * 23 * 22, ordered)
    insurance = _section(page, "Insurance (dealer shows an Ace)")
    assert _exact(insurance, "dealer has blackjack") == Fraction(96, 311)
    assert _figure(insurance, "hold, exactly") == "23/311"  # 1 - 3 x 96/311
    assert _figure(insurance, "cycle") == "311"
    main = _section(page, "Blackjack: main wager (basic strategy)")
    # Split rounds exact since exact-splits (0.413303% when they were approximated).
    assert _figure(main, "hold (house edge)") == "0.412517%"
    assert _figure(main, "cycle") == "not exact"  # split hands are approximated today


def test_a_users_tie_paytable_gives_the_published_tie_count(tmp_path: Path) -> None:
    """A user's file: tie 9:1 (Art. 8 says 8:1). The 8-deck tie count, 475,627,426,473,216 of
    4,998,398,275,503,360 ordered six-card deals (Wizard of Odds, Baccarat), fixes the tie's
    probability, its exact hold 1 - 10 p and its largest win."""
    text = (PROFILES / "dragon-six-peru-2016.toml").read_text(encoding="utf-8")
    path = tmp_path / "tie-nine.toml"
    path.write_text(
        text.replace('name = "dragon-six-peru-2016"', 'name = "tie-nine"').replace(
            'tie = "8:1"', 'tie = "9:1"'
        ),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["analyze", str(path), "--par", str(tmp_path / "par")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "par" / "tie-nine.md").read_text(encoding="utf-8")
    tie = _section(page, "Tie")
    probability = Fraction(475_627_426_473_216, 4_998_398_275_503_360)
    assert _exact(tie, "tie") == probability
    assert Fraction(_figure(tie, "hold, exactly")) == 1 - 10 * probability
    assert _figure(tie, "largest win") == "+9 per unit staked"
    # The cycle (lowest common denominator of the lines: tie, Banker wins, Player wins) is a
    # multiple of the tie's denominator and divides the number of ordered deals.
    cycle = int(_figure(tie, "cycle").replace(",", ""))
    assert cycle % probability.denominator == 0
    assert 4_998_398_275_503_360 % cycle == 0


def test_volatility_and_ranges_follow_the_standard_deviation() -> None:
    """VI = z sd; the range after n rounds is E n +- z sd sqrt(n), as the sheet states."""
    sheet = profile_par(analyse_profile(load_profile("dragon-six-peru-2016")))
    banker = sheet.wager("banker")
    for (level, vi), (_, z) in zip(banker.volatility, CONFIDENCE, strict=True):
        assert vi == z * banker.std_dev, level
    last = banker.ranges[-1]
    assert last.rounds == 1_000_000
    _, low, high = last.low_high[1]
    assert math.isclose(low, -0.014581044639718807e6 - 1.959963984540054 * banker.std_dev * 1e3)
    assert math.isclose(high - low, 2 * 1.959963984540054 * banker.std_dev * 1e3)
    # The Banker's outcomes: a win with 6 pays 1:2 on its own line (Art. 8).
    assert [line.label for line in banker.lines][:2] == [
        "Banker wins, not with 6",
        "Banker wins with 6",
    ]
    assert banker.lines[1].net == Fraction(1, 2)


def test_pdf_has_a_summary_and_a_page_per_wager(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["analyze", "dragon-six-peru-2016", "--par", str(tmp_path), "--json"]
    )
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "dragon-six-peru-2016.pdf")
    assert len(reader.pages) == 1 + 5  # player, banker, tie, player pair, banker pair
    summary = reader.pages[0].extract_text()
    assert "PAR sheet: Dragon Six" in summary
    assert "14.3596%" in summary  # the tie's hold
    tie = reader.pages[3].extract_text()
    assert "page 4\nTie\nHow:" in tie
    assert "14.359629%" in tie
    assert "1,000,000" in tie  # the ranges table
