"""The rules a table posts (``croupier.rules.posted``): every figure is its profile's, and
every line is worded in both catalogues (issue 13, item 3: "the profile's paytables, the
dealer's rule and the limits, in one panel")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from croupier.rules.posted import posted_rules
from croupier.rules.registry import load_profile, shipped_profile_names
from croupier.service.limits import with_limits
from croupier.web.language import LANGUAGES, Catalogue


def _keys(document: dict[str, Any]) -> set[str]:
    keys = {line["words"] for table in document["paytables"] for line in table["lines"]}
    keys |= {table["words"] for table in document["paytables"]}
    keys |= {note["words"] for table in document["paytables"] for note in table.get("notes", [])}
    keys |= {rule["words"] for rule in document["rules"]}
    keys |= {
        value
        for rule in document["rules"]
        for name, value in rule["params"].items()
        if name == "category"
    }
    return keys


@pytest.mark.parametrize("name", shipped_profile_names())
def test_every_line_of_every_profile_is_worded_in_both_languages(name: str) -> None:
    keys = _keys(posted_rules(load_profile(name)))
    for language in LANGUAGES:
        messages = Catalogue.load(language).messages
        assert not keys - set(messages), (language, sorted(keys - set(messages)))


def _pays(document: dict[str, Any], wager: str) -> dict[str, Any]:
    table = next(table for table in document["paytables"] if table["wager"] == wager)
    return {
        line["hand"]: line.get("pays", line.get("meter_share", line.get("units")))
        for line in table["lines"]
    }


def _rules(document: dict[str, Any]) -> list[str]:
    return [rule["words"] for rule in document["rules"]]


def test_peru_2016_posts_s17_a_hole_card_obo_and_its_21_plus_3_paytable() -> None:
    """Art. 13: blackjack 3 to 2, OBO; Art. 14: S17; docs/rules.md#D-BJ-4: the hole card
    dealt, turned after the players; docs/rules.md#D-BJ-5: insurance 2:1, Art. 10 up to half;
    the CUADRO DE PAGOS of Art. 20: 30/20/10/5."""
    document = posted_rules(load_profile("peru-2016"))
    assert _pays(document, "main") == {"blackjack": "3:2", "win": "1:1"}
    assert _pays(document, "insurance") == {"dealer-blackjack": "2:1"}
    assert _pays(document, "21+3") == {
        "straight_flush": "30:1",
        "three_of_a_kind": "20:1",
        "straight": "10:1",
        "flush": "5:1",
    }
    insurance = next(t for t in document["paytables"] if t["wager"] == "insurance")
    assert insurance["notes"] == [{"words": "rules.insurance_max", "params": {"share": "1/2"}}]
    assert _rules(document)[:4] == [
        "rules.decks",
        "rules.dealer_s17",
        "rules.hole_card_dealt",
        "rules.dealer_blackjack_obo",
    ]
    assert document["rules"][0]["params"] == {"decks": 6}
    assert "rules.even_money" in _rules(document)
    assert {"wager": "main", "minimum": 1, "maximum": 10000} in document["limits"]


def test_spain_1979_posts_no_hole_card_and_all_bets_lost() -> None:
    """Art. 03 V.1.a: no hole card, the dealer draws to 17; docs/rules.md#D-BJ-17: a dealer
    blackjack takes every bet of the box; Art. 03 V.1.d: doubles on 9-11 only; V.2.b: 1-200."""
    document = posted_rules(load_profile("spain-1979"))
    rules = _rules(document)
    assert {"rules.hole_card_none", "rules.dealer_blackjack_all_bets", "rules.dealer_s17"} <= set(
        rules
    )
    assert "rules.double_hard_9_11" in rules
    assert "rules.split_unlimited" in rules
    assert "rules.even_money" not in rules
    assert "21+3" not in {table["wager"] for table in document["paytables"]}
    assert document["limits"] == [{"wager": "main", "minimum": 1, "maximum": 200}]


def test_veintiuno_real_posts_its_5_to_1_line() -> None:
    """The casino sheet: a Veintiuno Real pays 5 to 1 (an unsplit hand)."""
    document = posted_rules(load_profile("veintiuno-real"))
    assert _pays(document, "main") == {"blackjack": "3:2", "veintiuno-real": "5:1", "win": "1:1"}


def test_dragon_six_posts_the_half_paid_banker_six_and_the_pairs() -> None:
    """Dragon Six Art. 8: Player 1:1, Banker 1:1 but a Banker win with 6 pays 1:2, Tie 8:1,
    pairs 11:1; docs/rules.md#D-BAC-7: Player and Banker push on a tie."""
    document = posted_rules(load_profile("dragon-six-peru-2016"))
    assert _pays(document, "coup") == {
        "player": "1:1",
        "banker": "1:1",
        "banker_win_with_six": "1:2",
        "tie": "8:1",
        "player_pair": "11:1",
        "banker_pair": "11:1",
    }
    assert {"rules.tie_pushes_player_banker", "rules.not_player_and_banker"} <= set(
        _rules(document)
    )
    assert [limit["wager"] for limit in document["limits"]] == [
        "player",
        "banker",
        "tie",
        "player_pair",
        "banker_pair",
    ]


def test_casino_holdem_posts_its_ante_paytable_and_the_progressive_by_meter_share() -> None:
    """Peru 2007 Art. 13 d: the Bet is twice the Ante; Art. 13 g: the dealer qualifies with 4s
    and, if not, the Ante pays 1:1; docs/rules.md#D-CH-7: the progressive's meter shares and
    fixed prizes, its seed and contribution; Art. 9: two players."""
    document = posted_rules(load_profile("casino-holdem-peru-2007"))
    assert _pays(document, "ante") == {
        "royal flush": "100:1",
        "straight flush": "20:1",
        "four of a kind": "10:1",
        "full house": "3:1",
        "flush": "2:1",
        "high card": "1:1",
    }
    assert _pays(document, "progressive") == {
        "royal flush": "1/1",
        "straight flush": "1/10",
        "four of a kind": 500,
        "full house": 100,
        "flush": 50,
    }
    progressive = next(t for t in document["paytables"] if t["wager"] == "progressive")
    assert progressive["notes"] == [
        {"words": "rules.progressive_stake", "params": {"amount": 1, "share": "1/2"}},
        {"words": "rules.progressive_seed", "params": {"amount": 5000}},
    ]
    assert document["rules"] == [
        {"words": "rules.min_players", "params": {"players": 2}},
        {"words": "rules.dealer_qualifies_pair", "params": {"rank": "4"}},
        {"words": "rules.no_qualify_even_money", "params": {}},
    ]
    standard = posted_rules(load_profile("casino-holdem-standard"))
    assert standard["rules"][-1]["words"] == "rules.no_qualify_paytable"


def test_the_limits_posted_are_the_tables_own() -> None:
    """docs/rules.md §6: the table's limits are the operator's; the panel shows them."""
    profile = with_limits(load_profile("peru-2016"), {"main": {"minimum": 5, "maximum": 50}})
    assert posted_rules(profile)["limits"][0] == {"wager": "main", "minimum": 5, "maximum": 50}


def test_a_late_surrender_profile_posts_it_in_both_languages() -> None:
    """docs/rules.md#D-BJ-32: a user's profile with late surrender says so on the posted
    rules; no shipped profile posts it."""
    path = Path(__file__).parents[1] / "oracles/six-deck-s17-das-peek-late-surrender.toml"
    document = posted_rules(load_profile(path))
    assert "rules.late_surrender" in _rules(document)
    for language in LANGUAGES:
        assert not _keys(document) - set(Catalogue.load(language).messages)
    for name in shipped_profile_names():
        assert "rules.late_surrender" not in _rules(posted_rules(load_profile(name)))
