"""The rules as a table posts them for its players: paytables, the dealer's rule, the limits.

One source: a profile (with the operator's limits already applied, docs/rules.md §6). The
pages render this document and write no rule of their own. Every line names its words by a
catalogue key (``words``: ``result.blackjack``, ``poker.flush``, ``rules.dealer_s17``...) and
gives the figures as ``params``; ``tests/unit/test_posted_rules.py`` checks each key is worded in
both catalogues and each figure against the profile it comes from.

>>> from croupier.rules import load_profile
>>> document = posted_rules(load_profile("peru-2016"))
>>> document["paytables"][0]["lines"][0]
{'hand': 'blackjack', 'words': 'result.blackjack', 'pays': '3:2'}
>>> [rule["words"] for rule in document["rules"]][:3]
['rules.decks', 'rules.dealer_s17', 'rules.hole_card_dealt']
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from croupier.money import Ratio
from croupier.rules.baccarat import BaccaratRules, BaccaratWager
from croupier.rules.base import Profile
from croupier.rules.blackjack import (
    BlackjackRules,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    Surrender,
)
from croupier.rules.casino_holdem import (
    AnteWhenDealerDoesNotQualify,
    CasinoHoldemRules,
    PokerCategory,
)

EVEN = Ratio(1, 1)


def _line(hand: str, words: str, pays: Ratio) -> dict[str, Any]:
    return {"hand": hand, "words": words, "pays": str(pays)}


def _rule(words: str, **params: Any) -> dict[str, Any]:
    return {"words": words, "params": params}


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _blackjack(profile: BlackjackRules) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    main = [_line("blackjack", "result.blackjack", profile.blackjack_pays)]
    if profile.veintiuno_real is not None:
        main.append(_line("veintiuno-real", "result.veintiuno-real", profile.veintiuno_real.pays))
    main.append(_line("win", "rules.hand.win", EVEN))
    paytables: list[dict[str, Any]] = [{"wager": "main", "words": "wager.main", "lines": main}]
    if profile.insurance:
        paytables.append(
            {
                "wager": "insurance",
                "words": "wager.insurance",
                "lines": [
                    _line("dealer-blackjack", "rules.hand.dealer_blackjack", profile.insurance_pays)
                ],
                "notes": [_rule("rules.insurance_max", share=_fraction(profile.insurance_max))],
            }
        )
    side = profile.twenty_one_plus_three
    if side is not None:
        paytables.append(
            {
                "wager": "21+3",
                "words": "wager.21+3",
                "lines": [
                    _line(hand.value, f"result.{hand.value}", ratio)
                    for hand, ratio in side.paytable.items()
                ],
            }
        )
    rules = [
        _rule("rules.decks", decks=profile.decks),
        # Art. 14 (Peru), Art. 03 V.1.a (Spain): S17 or H17.
        _rule("rules.dealer_h17" if profile.dealer_hits_soft_17 else "rules.dealer_s17"),
        _rule(
            {
                HoleCard.NONE: "rules.hole_card_none",
                HoleCard.DEALT: "rules.hole_card_dealt",
                HoleCard.PEEK: "rules.hole_card_peek",
            }[profile.hole_card]
        ),
        _rule(
            "rules.dealer_blackjack_obo"
            if profile.dealer_blackjack_takes is DealerBlackjackTakes.ORIGINAL_BET_ONLY
            else "rules.dealer_blackjack_all_bets"
        ),
        _rule(
            "rules.double_any_two"
            if profile.double_on is DoubleOn.ANY_TWO
            else "rules.double_hard_9_11"
        ),
        _rule("rules.double_after_split" if profile.double_after_split else "rules.no_das"),
        _rule("rules.split_unlimited")
        if profile.max_hands == "unlimited"
        else _rule("rules.split_hands", hands=profile.max_hands),
    ]
    if profile.even_money:
        rules.append(_rule("rules.even_money"))
    if profile.surrender is Surrender.LATE:
        rules.append(_rule("rules.late_surrender"))  # docs/rules.md#D-BJ-32
    return paytables, rules


BACCARAT_LINES = (
    ("player", "wager.player"),
    ("banker", "wager.banker"),
    ("banker_win_with_six", "rules.hand.banker_win_with_six"),
    ("tie", "wager.tie"),
    ("player_pair", "wager.player_pair"),
    ("banker_pair", "wager.banker_pair"),
)


def _baccarat(profile: BaccaratRules) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    paytable = profile.paytable
    lines = [_line(hand, words, getattr(paytable, hand)) for hand, words in BACCARAT_LINES]
    rules = [_rule("rules.decks", decks=profile.decks)]
    if profile.player_and_banker_push_on_tie:
        rules.append(_rule("rules.tie_pushes_player_banker"))
    rules.append(
        _rule("rules.pair_by_rank" if profile.pair_by == "rank" else "rules.pair_by_value")
    )
    if [BaccaratWager.PLAYER, BaccaratWager.BANKER] in [
        sorted(pair, key=list(BaccaratWager).index) for pair in profile.forbidden_combinations
    ]:
        rules.append(_rule("rules.not_player_and_banker"))
    rules.append(_rule("rules.third_card_by_rule"))
    return [{"wager": "coup", "words": "rules.coup_bets", "lines": lines}], rules


def _casino_holdem(
    profile: CasinoHoldemRules,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    ante = [
        _line(category.value, f"poker.{category.value}", ratio)
        for category, ratio in sorted(
            profile.ante_paytable.items(), key=lambda item: list(PokerCategory).index(item[0])
        )
    ]
    prizes = []
    for category, prize in sorted(
        profile.progressive.paytable.items(), key=lambda item: list(PokerCategory).index(item[0])
    ):
        line: dict[str, Any] = {"hand": category.value, "words": f"poker.{category.value}"}
        if prize.meter_share is not None:
            line["meter_share"] = _fraction(prize.meter_share)
        else:
            line["units"] = prize.units
        prizes.append(line)
    paytables = [
        {
            "wager": "ante",
            "words": "wager.ante",
            "lines": ante,
            "notes": [
                _rule("rules.call", times=profile.call_multiple, pays=str(profile.call_pays))
            ],
        },
        {
            "wager": "progressive",
            "words": "wager.progressive",
            "lines": prizes,
            "notes": [
                _rule(
                    "rules.progressive_stake",
                    amount=profile.progressive.bet,
                    share=_fraction(profile.progressive.meter_contribution),
                ),
                _rule("rules.progressive_seed", amount=profile.progressive.meter_seed),
            ],
        },
    ]
    rules = [
        _rule("rules.min_players", players=profile.min_players),
        _rule(
            "rules.dealer_qualifies_pair",
            rank=profile.dealer_qualifier.pair_rank_at_least,
        )
        if profile.dealer_qualifier.category is PokerCategory.PAIR
        else _rule(
            "rules.dealer_qualifies_category",
            category=f"poker.{profile.dealer_qualifier.category.value}",
        ),
        _rule(
            "rules.no_qualify_even_money"
            if profile.ante_when_dealer_does_not_qualify is AnteWhenDealerDoesNotQualify.EVEN_MONEY
            else "rules.no_qualify_paytable"
        ),
    ]
    return paytables, rules


def posted_rules(profile: Profile) -> dict[str, Any]:
    """The rules ``profile`` deals by, as the table's rules panel shows them: ``paytables``
    (each wager's lines: a ratio ``pays``, or for the progressive a ``meter_share`` or fixed
    ``units``; ``notes`` beside them), ``rules`` (the dealer's and the table's), ``limits``
    (each wager's, whole units, as the table's round under way is dealt)."""
    if isinstance(profile, BlackjackRules):
        paytables, rules = _blackjack(profile)
    elif isinstance(profile, BaccaratRules):
        paytables, rules = _baccarat(profile)
    elif isinstance(profile, CasinoHoldemRules):
        paytables, rules = _casino_holdem(profile)
    else:
        raise LookupError(f"no posted rules for a {profile.game} profile")
    return {
        "profile": profile.name,
        "game": profile.game,
        "paytables": paytables,
        "rules": rules,
        "limits": [
            {"wager": wager, "minimum": limits.minimum, "maximum": limits.maximum}
            for wager, limits in profile.table.wagers.items()
        ],
    }
