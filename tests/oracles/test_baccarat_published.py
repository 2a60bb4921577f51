"""Baccarat house edges reproduce published exact figures (docs/rules.md §4, Arts. 8, 10, 11).

Sources of the figures:
- 8-deck punto banco, Player 1.2351%, Banker with 5% commission 1.0579%, Tie at 8:1
  14.3596%, and the ordered-deal counts 2,230,518,282,592,256 (Player wins) /
  2,292,252,566,437,888 (Banker wins) / 475,627,426,473,216 (ties) of 4,998,398,275,503,360:
  Wizard of Odds, "Baccarat" (wizardofodds.com/games/baccarat/basics/), and the same counts
  reproduced at casinoexploit.com/baccarat.html.
- Banker paid 1:2 on a win with six, no commission ("Nepal Baccarat", the Dragon Six Banker),
  8 decks, house edge 1.4581% (-0.014581): Wizard of Odds, Baccarat Appendix 6,
  wizardofodds.com/games/baccarat/appendix/6/.
- Player/Banker pair paying 11:1 by rank, 8 decks: 10.3614% (Wizard of Odds, baccarat side
  bets, "Player Pair / Banker Pair").
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from croupier.analysis.baccarat import analyse_baccarat, deal_counts
from croupier.rules import load_profile
from croupier.rules.baccarat import BaccaratRules, PairBy

SHIPPED = Path(__file__).parents[2] / "src/croupier/rules/profiles/dragon-six-peru-2016.toml"


@pytest.fixture
def punto_banco(tmp_path: Path) -> BaccaratRules:
    """The classic paytable, written as a user's profile file: Banker 19:20 (5% commission)."""
    text = SHIPPED.read_text(encoding="utf-8")
    text = text.replace('name = "dragon-six-peru-2016"', 'name = "punto-banco-standard"')
    text = text.replace('banker = "1:1"', 'banker = "19:20"')
    text = text.replace('banker_win_with_six = "1:2"', 'banker_win_with_six = "19:20"')
    path = tmp_path / "punto-banco-standard.toml"
    path.write_text(text, encoding="utf-8")
    profile = load_profile(path)
    assert isinstance(profile, BaccaratRules)
    return profile


def test_eight_deck_ordered_deal_counts_match_the_published_combinations() -> None:
    counts, denominator = deal_counts(8, PairBy.RANK)
    player = banker = tie = 0
    for p in range(10):
        for b in range(10):
            cell = int(counts[p, b].sum())
            if p > b:
                player += cell
            elif b > p:
                banker += cell
            else:
                tie += cell
    assert denominator == 4_998_398_275_503_360
    assert (player, banker, tie) == (
        2_230_518_282_592_256,
        2_292_252_566_437_888,
        475_627_426_473_216,
    )


def test_punto_banco_eight_decks_player_banker_tie(punto_banco: BaccaratRules) -> None:
    figures = analyse_baccarat(punto_banco)
    assert round(figures["player"].house_edge * 100, 4) == 1.2351
    assert round(figures["banker"].house_edge * 100, 4) == 1.0579
    assert round(figures["tie"].house_edge * 100, 4) == 14.3596


def test_art_8_dragon_six_banker_win_with_six_pays_half_eight_decks() -> None:
    """Art. 8: 'una apuesta ganadora a la Banca con un total de 6 paga la mitad'."""
    figures = analyse_baccarat(load_profile("dragon-six-peru-2016"))  # type: ignore[arg-type]
    assert round(figures["banker"].house_edge * 100, 4) == 1.4581
    assert figures["banker"].exact_distribution is not None
    assert figures["banker"].exact_distribution[Fraction(1, 2)] == Fraction(
        269_232_304_455_680, 4_998_398_275_503_360
    )


def test_art_8_pairs_pay_eleven_to_one_eight_decks() -> None:
    """Art. 8: pairs 11:1; decision (docs/rules.md §4): a pair is two cards of the same rank."""
    figures = analyse_baccarat(load_profile("dragon-six-peru-2016"))  # type: ignore[arg-type]
    # P(pair) = (32 - 1) / (416 - 1) = 31/415 exactly, so the edge is 1 - 12 * 31/415.
    assert figures["player_pair"].exact_house_edge == 1 - Fraction(12 * 31, 415)
    assert round(figures["banker_pair"].house_edge * 100, 4) == 10.3614
