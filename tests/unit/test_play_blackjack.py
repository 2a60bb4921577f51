"""``croupier play blackjack`` driven by scripted input through the real command."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from croupier.cli.main import app
from croupier.randomness import SeededRandomSource
from croupier.rules import load_profile
from croupier.shoe import Shoe

RUNNER = CliRunner()


def _replica_shoe(seed: str, rules: str = "peru-2016") -> list[str]:
    """The shoe the command shuffles from ``seed``: the same source, the same calls."""
    profile = load_profile(rules)
    shoe = Shoe.shuffled(
        profile.decks,
        SeededRandomSource(seed),
        cut_card_from_bottom=profile.shoe.cut_card_from_bottom,
    )
    return [str(card) for card in shoe.peek_order()]


def _dealer_rows(output: str) -> list[str]:
    return [" ".join(row.split()) for row in re.findall(r"│ Dealer │([^│]*)│", output)]


def test_a_seeded_round_shows_the_seat_view_and_offers_the_legal_actions():
    # Seed 7: after the burn, Qd to the player, Jd up, 3c to the player, Ts in the hole.
    cards = _replica_shoe("7")
    _burn, first, up, second, hole = cards[:5]
    result = RUNNER.invoke(
        app,
        ["play", "blackjack", "--rules", "peru-2016", "--seed", "7", "--balance", "100"],
        input="10\n0\nstand\n0\n",
    )
    assert result.exit_code == 0, result.output
    assert "New shoe: 6 decks, 1 card(s) burnt." in result.output
    # The hole card is hidden until the dealer plays, then shown.
    assert _dealer_rows(result.output)[0] == f"{up} ??"
    assert _dealer_rows(result.output)[-1].startswith(f"{up} {hole}")
    assert f"│ Hand 1 │ {first} {second} │" in result.output
    assert "Your move [hit / stand / double [1-10]]" in result.output
    assert "You leave the table with" in result.output


def test_an_illegal_or_unaffordable_choice_is_refused_and_asked_again():
    result = RUNNER.invoke(
        app,
        ["play", "blackjack", "--rules", "peru-2016", "--seed", "7", "--balance", "15"],
        input="20\n10\n0\nsplit\ndouble\nstand\n0\n",
    )
    assert result.exit_code == 0, result.output
    assert "Your balance is 15." in result.output
    assert "split is not one of: hit, stand, double [1-10]" in result.output
    assert "Your balance does not cover double." in result.output
    assert "main (hand 1): lose, staked 10, returned 0" in result.output
    assert "You leave the table with 5." in result.output


def test_a_new_shoe_with_its_burn_once_the_cut_card_is_out(tmp_path: Path):
    """A one-deck profile cut 20 cards from the bottom: the cut card comes out within a few
    rounds, that round is announced as the shoe's last, and a new shoe is burnt."""
    profile_text = (
        Path(__file__).parents[2] / "src/croupier/rules/profiles/peru-2016.toml"
    ).read_text(encoding="utf-8")
    profile_text = profile_text.replace("decks = 6", "decks = 1").replace(
        "cut_card_from_bottom = 78", "cut_card_from_bottom = 20"
    )
    path = tmp_path / "one-deck.toml"
    path.write_text(
        profile_text.replace('name = "peru-2016"', 'name = "one-deck"'), encoding="utf-8"
    )
    # Every prompt answered "2": bet 2, 21+3 of 2, then option 2 (stand, or no insurance).
    result = RUNNER.invoke(
        app, ["play", "blackjack", "--rules", str(path), "--seed", "3"], input="2\n" * 120
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("New shoe: 1 decks, 1 card(s) burnt.") >= 2
    assert "The cut card came out: that was the last round of this shoe." in result.output


def test_every_blackjack_profile_plays_through_scripted_input():
    """Spain (no hole card, no 21+3) and Veintiuno Real (face-down cards) at the terminal:
    every prompt answered '2' (bet 2, then option 2) until the input ends."""
    for rules in ("spain-1979", "veintiuno-real"):
        result = RUNNER.invoke(
            app, ["play", "blackjack", "--rules", rules, "--seed", "11"], input="2\n" * 60
        )
        assert result.exit_code == 0, result.output
        assert "21+3" not in result.output
        assert result.output.count("Net this round:") >= 5
        assert "You leave the table with" in result.output
