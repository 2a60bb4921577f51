"""Sanity print for the baccarat tableau: outcome frequencies of seeded engine rounds, and the
exact probabilities over a full 8-deck shoe from ``croupier.hands.baccarat.play_coup``, beside
published figures. A print for a human to read, not a test claim (the exact analysis proper
lives with the analysis code).

Published figures (8 decks, the standard tableau), from the Wizard of Odds baccarat page
(wizardofodds.com/games/baccarat/basics): Banker wins 0.458597, Player wins 0.446247, Tie
0.095156; the Banker's edge when a win with 6 pays 1:2 ("Super 6" rule) is 1.46%.

    uv run python tools/baccarat_frequencies.py [ROUNDS]
"""

from __future__ import annotations

import sys
from collections import Counter
from fractions import Fraction

from croupier.errors import ShoeError
from croupier.games.baccarat import BaccaratRound, new_shoe
from croupier.hands.baccarat import play_coup
from croupier.randomness import SeededRandomSource
from croupier.rules.baccarat import BaccaratRules
from croupier.rules.registry import load_profile_of

PUBLISHED = {"banker": 0.458597, "player": 0.446247, "tie": 0.095156}


def simulate(profile: BaccaratRules, rounds: int) -> tuple[Counter[str], int]:
    source = SeededRandomSource(b"baccarat-frequencies")
    shoe, _ = new_shoe(profile, source)
    outcomes: Counter[str] = Counter()
    banker_sixes = 0
    for _ in range(rounds):
        coup = BaccaratRound(profile, shoe)
        coup.deal()
        outcomes[coup.winner.value] += 1
        banker_sixes += coup.winner.value == "banker" and coup.banker_total == 6
        if coup.is_last_round_of_shoe:
            shoe, _ = new_shoe(profile, source)
    return outcomes, banker_sixes


def exact(decks: int) -> dict[str, Fraction]:
    """Every ordered draw of up to six point values from a full shoe, weighted exactly."""
    # Value 0 is T, J, Q and K (16 cards a deck); values 1-9 are one rank each (4 a deck).
    counts = [16 * decks] + [4 * decks] * 9
    size = 52 * decks
    totals: Counter[str] = Counter()

    def visit(prefix: list[int], weight: Fraction) -> None:
        if len(prefix) >= 4:
            try:
                outcome = play_coup(prefix)
            except ShoeError:
                pass
            else:
                totals[outcome.winner] += weight
                if outcome.winner == "banker" and outcome.banker_total == 6:
                    totals["banker_six"] += weight
                return
        left = size - len(prefix)
        for value in range(10):
            if counts[value]:
                chance = Fraction(counts[value], left)
                counts[value] -= 1
                prefix.append(value)
                visit(prefix, weight * chance)
                prefix.pop()
                counts[value] += 1

    visit([], Fraction(1))
    return dict(totals)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    profile = load_profile_of("baccarat", "dragon-six-peru-2016")
    assert isinstance(profile, BaccaratRules)
    outcomes, sixes = simulate(profile, rounds)
    print(f"{rounds} seeded rounds through BaccaratRound (8 decks, Art. 6 shoes):")
    for name, published in PUBLISHED.items():
        share = outcomes[name] / rounds
        sigma = (published * (1 - published) / rounds) ** 0.5
        print(
            f"  {name:<7} {share:.6f}  published {published:.6f}  ({(share - published) / sigma:+.2f} sd)"
        )
    print(f"  banker win with 6: {sixes / rounds:.6f}")
    probabilities = exact(profile.decks)
    print("exact over a full 8-deck shoe (play_coup, every ordered draw):")
    for name, published in PUBLISHED.items():
        print(f"  {name:<7} {float(probabilities[name]):.6f}  published {published:.6f}")
    six = probabilities["banker_six"]
    edge = -(probabilities["banker"] - six + six / 2 - probabilities["player"])
    print(f"  banker win with 6: {float(six):.6f}; Banker bet house edge {float(edge):.4%}")
    player_edge = -(probabilities["player"] - probabilities["banker"])
    tie_edge = -(9 * probabilities["tie"] - 1)
    print(f"  Player bet house edge {float(player_edge):.4%}; Tie 8:1 {float(tie_edge):.4%}")


if __name__ == "__main__":
    main()
