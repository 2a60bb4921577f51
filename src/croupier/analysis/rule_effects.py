"""The house edge of each blackjack rule taken alone, against one common base game.

The base is the American six-deck game most published rule tables start from: dealer stands
on soft 17 and peeks for blackjack, blackjack pays 3:2, double any two cards and after a
split, split to four hands, no re-split of Aces. Each row changes one rule (as the shipped
profiles do) and reports the change in house edge, computed by the same analysis.
Doubling for less and even money are listed with an effect of zero for the basic-strategy
player, with the reason (analysis.blackjack: a double's value is linear in its amount; even
money is worth less than a blackjack's 3:2 unless the dealer holds a ten more than a third of
the time, which no full shoe does). Late surrender, which no shipped profile offers, is the
last row: it needs the dealer's peek, which the base has (docs/rules.md#D-BJ-32).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from croupier.analysis.blackjack import analyse_blackjack
from croupier.money import Ratio
from croupier.rules import BlackjackRules, load_profile
from croupier.rules.blackjack import (
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    Surrender,
    VeintiunoReal,
)


@dataclass(frozen=True)
class RuleEffect:
    rule: str
    house_edge: float
    effect: float
    """House edge of the changed game minus the base's (positive: worse for the player)."""
    profiles: str
    """Which shipped profiles have this rule."""


def base_rules() -> BlackjackRules:
    peru = load_profile("peru-2016")
    assert isinstance(peru, BlackjackRules)
    return peru.model_copy(
        update={
            "name": "base-6d-s17-das-peek",
            "hole_card": HoleCard.PEEK,
            "twenty_one_plus_three": None,
            "veintiuno_real": None,
        }
    )


VARIANTS: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("Dealer hits soft 17", {"dealer_hits_soft_17": True}, ""),
    (
        "Hole card dealt, never checked; OBO, a bust final",
        {"hole_card": HoleCard.DEALT},
        "peru-2016, veintiuno-real",
    ),
    (
        "No hole card; every bet lost to a dealer blackjack",
        {"hole_card": HoleCard.NONE, "dealer_blackjack_takes": DealerBlackjackTakes.ALL_BETS},
        "spain-1979",
    ),
    (
        "Double on hard 9-11 only",
        {"double_on": DoubleOn.HARD_9_TO_11},
        "spain-1979, veintiuno-real",
    ),
    ("No double after a split", {"double_after_split": False}, ""),
    ("Split to two hands only", {"max_hands": 2}, ""),
    ("Unlimited re-splits", {"max_hands": "unlimited"}, "spain-1979"),
    ("Re-split Aces", {"resplit_aces": True}, "spain-1979"),
    ("Split Ace + ten counts as blackjack", {"split_ace_ten_is_blackjack": True}, "veintiuno-real"),
    (
        "Veintiuno Real: three 7s pay 5:1",
        {"veintiuno_real": VeintiunoReal(pays=Ratio(5, 1), unsplit_hand_only=True)},
        "veintiuno-real",
    ),
    ("Blackjack pays 6:5", {"blackjack_pays": Ratio(6, 5)}, ""),
    ("One deck", {"decks": 1}, ""),
    ("Eight decks", {"decks": 8}, ""),
)


LATE_SURRENDER: tuple[str, dict[str, Any], str] = (
    "Late surrender (after the dealer's peek)",
    {"surrender": Surrender.LATE},
    "",
)
"""Late surrender is allowed only where the dealer peeks (docs/rules.md#D-BJ-32): the base
does, so this row is the base with and without it (Krigman 2003: "about 0.08 percent" at
eight decks, S17). It comes last, so that every earlier row keeps its place in ``--json``."""

ANALYSED = len(VARIANTS) + 1
"""The analyses besides the base's, one per progress step."""


def rule_effects(progress: Callable[[str], None] | None = None) -> tuple[float, list[RuleEffect]]:
    """(base house edge, one row per rule)."""
    base = base_rules()
    base_edge = analyse_blackjack(base, joint=False).main.house_edge  # the edge only

    def row(label: str, update: dict[str, Any], profiles: str) -> RuleEffect:
        if progress is not None:
            progress(label)
        edge = analyse_blackjack(base.model_copy(update=update), joint=False).main.house_edge
        return RuleEffect(label, edge, edge - base_edge, profiles)

    rows = [row(*variant) for variant in VARIANTS]
    rows.append(RuleEffect("Double for less allowed", base_edge, 0.0, "peru-2016"))
    rows.append(RuleEffect("Even money offered", base_edge, 0.0, "peru-2016"))
    rows.append(row(*LATE_SURRENDER))
    return base_edge, rows
