"""Where the exact Casino Hold'em table is cached, and what its key depends on: the deck, the
dealer's qualifier (Art. 13 g; a profile value) and the evaluator, never the paytable."""

from __future__ import annotations

from pathlib import Path

import pytest

from croupier.analysis.casino_holdem_exact import (
    qualifier_threshold,
    table_key,
    table_path,
)
from croupier.analysis.result_cache import cache_directory
from croupier.rules import CasinoHoldemRules, load_profile


def _rules(name: str) -> CasinoHoldemRules:
    rules = load_profile(name)
    assert isinstance(rules, CasinoHoldemRules)
    return rules


def test_cache_directory_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("CROUPIER_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_directory() == tmp_path / "xdg" / "croupier"
    monkeypatch.setenv("CROUPIER_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_directory() == tmp_path / "mine"
    assert table_path(0).parent == tmp_path / "mine"


def test_both_profiles_share_one_table_and_another_qualifier_gets_its_own() -> None:
    """The two shipped profiles differ only in paytables (docs/rules.md §5): one table serves both;
    a dealer who qualifies with a pair of 6s instead needs another."""
    peru, standard = _rules("casino-holdem-peru-2007"), _rules("casino-holdem-standard")
    assert table_key(qualifier_threshold(peru)) == table_key(qualifier_threshold(standard))
    sixes = standard.model_copy(
        update={
            "dealer_qualifier": standard.dealer_qualifier.model_copy(
                update={"pair_rank_at_least": "6"}
            )
        }
    )
    assert qualifier_threshold(sixes) > qualifier_threshold(standard)
    assert table_key(qualifier_threshold(sixes)) != table_key(qualifier_threshold(standard))
