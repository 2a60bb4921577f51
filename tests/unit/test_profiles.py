"""Rule profiles are data: validated on load, every rule cited, errors name the file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from croupier.errors import ProfileError
from croupier.rules import (
    BaccaratRules,
    BlackjackRules,
    CasinoHoldemRules,
    load_profile,
    load_profile_of,
    shipped_profile_names,
)
from croupier.rules.base import LATER_FIELDS, META_FIELDS

SHIPPED = shipped_profile_names()
PERU = (Path(__file__).parents[2] / "src/croupier/rules/profiles/peru-2016.toml").read_text()


def test_the_six_profiles_of_the_regulations_ship() -> None:
    assert SHIPPED == [
        "casino-holdem-peru-2007",
        "casino-holdem-standard",
        "dragon-six-peru-2016",
        "peru-2016",
        "spain-1979",
        "veintiuno-real",
    ]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_rule_of_every_profile_cites_its_source(name: str) -> None:
    profile = load_profile(name)
    # A rule added later and absent (no surrender: docs/rules.md#D-BJ-32) has no citation.
    absent = {rule for rule in LATER_FIELDS if getattr(profile, rule, None) is None}
    rules = set(type(profile).model_fields) - META_FIELDS - absent
    assert set(profile.sources) == rules
    assert all(len(profile.source_of(rule)) > 10 for rule in rules)


def test_profiles_load_as_their_games_models() -> None:
    assert isinstance(load_profile("peru-2016"), BlackjackRules)
    assert isinstance(load_profile("dragon-six-peru-2016"), BaccaratRules)
    assert isinstance(load_profile("casino-holdem-standard"), CasinoHoldemRules)


def test_rules_6_shipped_limits() -> None:
    """docs/rules.md §6 decision: 1 to 10,000 on every wager, Spain 1 to 200 per box."""
    spain = load_profile_of("blackjack", "spain-1979")
    assert isinstance(spain, BlackjackRules)
    assert (spain.limits.minimum, spain.limits.maximum) == (1, 200)
    peru = load_profile_of("blackjack", "peru-2016")
    assert isinstance(peru, BlackjackRules)
    assert (peru.limits.minimum, peru.limits.maximum) == (1, 10000)
    holdem = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
    assert isinstance(holdem, CasinoHoldemRules)
    assert holdem.progressive.bet == 1


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text)
    return path


def test_a_user_profile_file_loads(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        PERU.replace('name = "peru-2016"', 'name = "mine"').replace("decks = 6", "decks = 2"),
    )
    profile = load_profile(path)
    assert isinstance(profile, BlackjackRules)
    assert (profile.name, profile.decks) == ("mine", 2)


def test_an_unknown_key_names_the_file_and_the_key(tmp_path: Path) -> None:
    path = write(tmp_path, PERU.replace("decks = 6", "decks = 6\nearly_surrender = true"))
    with pytest.raises(ProfileError, match=r"mine\.toml: key 'early_surrender': Extra inputs"):
        load_profile(path)


def test_an_impossible_value_names_the_file_and_the_key(tmp_path: Path) -> None:
    path = write(tmp_path, PERU.replace('hole_card = "dealt"', 'hole_card = "sideways"'))
    with pytest.raises(ProfileError, match=r"mine\.toml: key 'hole_card'"):
        load_profile(path)
    path = write(tmp_path, PERU.replace("decks = 6", "decks = 9"))
    with pytest.raises(ProfileError, match=r"mine\.toml: .*decks: 1 to 8 allowed, not 9"):
        load_profile(path)
    path = write(
        tmp_path, PERU.replace('blackjack_pays = "3:2"', 'blackjack_pays = "three to two"')
    )
    with pytest.raises(ProfileError, match=r"key 'blackjack_pays'.*'three to two'"):
        load_profile(path)


def test_a_rule_without_a_citation_is_refused(tmp_path: Path) -> None:
    lines = [line for line in PERU.splitlines() if not line.startswith('decks = "')]
    with pytest.raises(ProfileError, match="no citation for decks"):
        load_profile(write(tmp_path, "\n".join(lines)))


def test_unknown_profiles_and_games_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="unknown profile 'peru-2017'"):
        load_profile("peru-2017")
    with pytest.raises(ProfileError, match="unknown game 'poker'"):
        load_profile(write(tmp_path, 'game = "poker"'))
    with pytest.raises(ProfileError, match="is for blackjack, not baccarat"):
        load_profile_of("baccarat", "peru-2016")
    with pytest.raises(ProfileError, match="not valid TOML"):
        load_profile(write(tmp_path, "decks = "))


def test_a_refused_value_is_named_in_the_message(tmp_path: Path) -> None:
    """The bad value is quoted back (D-BJ-32's ``surrender`` takes only "late"), cut short
    when long; a refused table is not dumped whole."""
    path = write(tmp_path, PERU.replace("decks = 6", 'decks = 6\nsurrender = "early"'))
    with pytest.raises(ProfileError, match=r"key 'surrender': .*\(given 'early'\)"):
        load_profile(path)
    path = write(tmp_path, PERU.replace("decks = 6", f'decks = 6\nsurrender = "{"x" * 500}"'))
    with pytest.raises(ProfileError, match=r"\(given 'x{59}\.\.\.\)"):
        load_profile(path)
    path = write(tmp_path, PERU.replace("decks = 6", "decks = 6\nsurrender = { late = 1 }"))
    with pytest.raises(ProfileError, match=r"key 'surrender': [^(]*$"):
        load_profile(path)


def test_a_copy_with_other_rules_reads_its_own_table() -> None:
    """``Profile.table`` is cached; a copy with fewer decks (as the analysis's rule effects
    make, and the one-deck oracle tests) must not describe the original's six-deck shoe."""
    six_decks = load_profile("peru-2016")
    assert six_decks.table.decks == 6
    one_deck = six_decks.model_copy(update={"decks": 1})
    assert one_deck.table.decks == 1
    assert six_decks.table.decks == 6
