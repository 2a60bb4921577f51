"""``benchmarks/farmer_side_by_side.py`` (issue 12, item 2), without Farmer's engine: the
answers it types into his program are the profile's rules wherever it calls the two the same
game, and differ from them wherever it does not; without the engine it says how to build it;
it drives both his versions' ways of ending (stand-ins for his program, not his program).

Farmer's program asks, in order (github.com/possibly-wrong/blackjack, src/strategy.cpp,
versions 6.5 and 7.5 alike): decks; dealer hits soft 17; double on any total (if not: on 9); double on soft
hands; double on any number of cards; double after splitting; re-split pairs (if so: re-split
Aces, up to 4 hands; else 2); CDZ- post-split strategy; late surrender; blackjack payoff. His
game is the US dealer peek, a split Ace and ten a plain 21.
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from croupier.money import Ratio
from croupier.rules import load_profile
from croupier.rules.blackjack import BlackjackRules, DoubleOn, HoleCard

_PATH = Path(__file__).parents[2] / "benchmarks/farmer_side_by_side.py"
_SPEC = importlib.util.spec_from_file_location("farmer_side_by_side", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
bench = importlib.util.module_from_spec(_SPEC)
sys.modules["farmer_side_by_side"] = bench  # dataclasses look their module up
_SPEC.loader.exec_module(bench)


def farmers_game(answers: tuple[str, ...]) -> dict[str, Any]:
    """The rules Farmer's program plays for ``answers``, in the profile's terms."""
    yes = iter(answer == "y" for answer in answers[1:-1])
    decks = int(answers[0])
    hits_soft_17 = next(yes)
    any_total = next(yes)
    on_nine = True if any_total else next(yes)
    on_soft, on_more_cards, after_split, resplit = next(yes), next(yes), next(yes), next(yes)
    resplit_aces = next(yes) if resplit else False
    cdz, surrender = next(yes), next(yes)
    assert cdz and not surrender and not on_more_cards
    double_on = (
        DoubleOn.ANY_TWO
        if any_total and on_soft
        else DoubleOn.HARD_9_TO_11
        if on_nine and not on_soft
        else None
    )
    return {
        "decks": decks,
        "hole_card": HoleCard.PEEK,
        "dealer_hits_soft_17": hits_soft_17,
        "double_on": double_on,
        "double_after_split": after_split,
        "max_hands": 4 if resplit else 2,
        "resplit_aces": resplit_aces,
        "blackjack_pays": Ratio(3, 2) if answers[-1] == "1.5" else answers[-1],
        "split_ace_ten_is_blackjack": False,
        "surrender": None,
    }


def profile_game(rules: BlackjackRules) -> dict[str, Any]:
    return {key: getattr(rules, key) for key in farmers_game(bench.PERU)}


@pytest.mark.parametrize("variant", bench.VARIANTS, ids=lambda variant: variant.label)
def test_same_game_means_the_profiles_rules(tmp_path: Path, variant: Any) -> None:
    target = bench.peeked_profile(variant.profile, tmp_path) if variant.peeked else variant.profile
    rules = load_profile(target)
    assert isinstance(rules, BlackjackRules)
    same = profile_game(rules) == farmers_game(variant.farmer_answers)
    assert same == variant.same_game


def test_peeked_profile_changes_the_hole_card_only(tmp_path: Path) -> None:
    shipped = load_profile("peru-2016")
    peeked = load_profile(bench.peeked_profile("peru-2016", tmp_path))
    assert isinstance(shipped, BlackjackRules) and isinstance(peeked, BlackjackRules)
    assert peeked.hole_card is HoleCard.PEEK
    changed = {
        key for key in type(shipped).model_fields if getattr(shipped, key) != getattr(peeked, key)
    }
    assert changed == {"name", "hole_card"}


def test_without_the_engine_it_says_how_to_build_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["farmer_side_by_side.py"])
    assert bench.main() == 2
    said = capsys.readouterr().err
    assert "https://github.com/possibly-wrong/blackjack" in said
    assert "g++ -O2" in said


_STAND_IN = """\
import sys, time
print("Blackjack Basic Strategy Calculator version {version}")
answers = sys.stdin.read().split("\\n")
with open(answers[{table}], "w") as table:
    table.write("  Total |   -0.402870236\\n")
if answers[{table} + 1] != "0 0":
    sys.exit(139)  # 7.5 at the end of its input: a crash, its prompt never flushed
print("Enter dealer up card and player hand (Ctrl-C to exit): ", flush=True)
while not {ends}:  # 6.5 asks again, and again
    print("Enter dealer up card and player hand (Ctrl-C to exit): ", flush=True)
    time.sleep(0.01)
"""


@pytest.mark.parametrize(("version", "ends"), [("7.5", True), ("6.5", False)])
def test_it_drives_his_program_to_its_last_prompt_and_names_the_version(
    tmp_path: Path, version: str, ends: bool
) -> None:
    """His 7.5 crashes, its prompt unprinted, if its input ends at the last prompt (the driver
    once closed it there); it ends at "0 0". His 6.5 asks again after "0 0" and is stopped."""
    program = tmp_path / "strategy"
    code = _STAND_IN.format(version=version, table=len(bench.PERU), ends=ends)
    program.write_text(f"#!{sys.executable}\n" + textwrap.dedent(code))
    program.chmod(0o755)
    table = tmp_path / "table.txt"
    wall, _cpu, announced = bench.run_farmer(program, bench.PERU, table)
    assert announced == version
    assert wall < 30
    assert bench.farmer_house_edge(table) == 0.00402870236
