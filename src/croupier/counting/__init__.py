"""Card counting as data: systems (tags by card) and index plays, loaded from TOML.

The shipped systems are in ``systems.toml`` beside this module (Hi-Lo, KO, Hi-Opt II,
Omega II, Zen, Wong Halves, each with its published betting correlation, playing efficiency
and insurance correlation and its source); the index plays in ``indices.toml`` (the
Illustrious 18 and the Fab 4 for Hi-Lo, Schlesinger 2005). A user's own system or index set
is a TOML file of the same shape, passed by path wherever a name is accepted.

>>> hi_lo = load_counting_system("hi-lo")
>>> hi_lo.tag(1), hi_lo.tag(5), hi_lo.tag(10), hi_lo.balanced
(Fraction(-1, 1), Fraction(1, 1), Fraction(-1, 1), True)
>>> load_counting_system("ko").initial_running_count(6)
Fraction(-20, 1)
>>> round(betting_correlation(hi_lo, GRIFFIN_SINGLE_DECK_EOR), 2), hi_lo.betting_correlation
(0.97, 0.97)
>>> i18 = load_index_set("illustrious-18")
>>> len(i18.plays), i18.insurance, str(i18.plays[0])
(17, Fraction(3, 1), 'hard 16 v T: S at +0 or more, H below')
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from croupier.errors import ProfileError

CARD_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""Tag order: by blackjack value, the Ace (1) first, then 2..9 and the ten-valued cards."""

WIZARD_SIX_DECK_S17_EOR = (-0.094, 0.069, 0.082, 0.110, 0.141, 0.079, 0.041, -0.008, -0.040, -0.091)
"""Effect of removal of one card (percent of the main bet, A..T) from a six-deck shoe, dealer
stands on soft 17, double any two, double after split, any pair split once, strategy fitted
to the changed composition: Michael Shackleford, "Effect of Card Removal in Blackjack",
Wizard of Odds, https://wizardofodds.com/games/blackjack/appendix/7/ (updated 2019-01-20;
the "Stand Soft 17" column, from the composition dependent combinatorial analyser of
bjstrat.net). Checked against that page: all ten figures as printed."""

GRIFFIN_SINGLE_DECK_EOR = (-0.61, 0.38, 0.44, 0.55, 0.69, 0.46, 0.28, 0.00, -0.18, -0.51)
"""Effect of removal of one card (percent of the main bet, A..T), one deck, basic strategy:
the table Peter Griffin computes betting correlations from (The Theory of Blackjack, ch. 4
and its appendix; Huntington Press, 5th ed. 1996). The book's own page could not be read
here; the figures were checked against the same table as reprinted, card by card, in
"Effect of Removing Cards From the Deck", http://www.averagejoeblackjack.com/cardeffect.html
(2 +.38, 3 +.44, 4 +.55, 5 +.69, 6 +.46, 7 +.28, 8 0.0, 9 -.18, 10 -.51, A -.61: all ten
agree). Independently, from this table the betting correlations of all six shipped systems
come out equal to the published ones to the two decimals printed
(``tests/unit/simulation/test_counting.py``)."""

CHART_LETTERS = frozenset({"H", "S", "D", "Ds", "P", "R"})


class CountingError(ProfileError):
    """A counting system or index set that is unknown or malformed."""


def _fraction(value: object, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise CountingError(f"{where}: a number, not {value!r}")
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise CountingError(f"{where}: a number, not {value!r}") from None


@dataclass(frozen=True)
class CountingSystem:
    """A count: a tag per card value, balanced or not, and where it comes from."""

    name: str
    title: str
    tags: tuple[Fraction, ...]
    """Per card value in ``CARD_LABELS`` order (Ace first, ten-valued last)."""
    balanced: bool
    running_count_per_deck: Fraction
    running_count_constant: Fraction
    source: str
    betting_correlation: float | None = None
    playing_efficiency: float | None = None
    insurance_correlation: float | None = None

    def tag(self, value: int) -> Fraction:
        """The tag of a card of blackjack value ``value`` (1 for an Ace, 10 for a ten)."""
        return self.tags[value - 1]

    def initial_running_count(self, decks: int) -> Fraction:
        """Where the running count starts on a new shoe (0 for a balanced count)."""
        return self.running_count_per_deck * decks + self.running_count_constant

    @property
    def tag_scale(self) -> int:
        """The least multiplier that makes every tag a whole number (2 for Wong Halves)."""
        return math.lcm(*(tag.denominator for tag in self.tags))


def betting_correlation(system: CountingSystem, effects: tuple[float, ...]) -> float:
    """Griffin's betting correlation: the correlation, over the 13 ranks of a deck, between
    the tags and the effects of removal (``effects`` by value, A..T; ten-valued counted four
    times). Peter Griffin, The Theory of Blackjack (6th ed., 1999), ch. 4."""
    weights = [1, 1, 1, 1, 1, 1, 1, 1, 1, 4]
    n = sum(weights)
    tags = [float(tag) for tag in system.tags]
    tag_mean = sum(w * t for w, t in zip(weights, tags, strict=True)) / n
    eor_mean = sum(w * e for w, e in zip(weights, effects, strict=True)) / n
    covariance = sum(
        w * (t - tag_mean) * (e - eor_mean) for w, t, e in zip(weights, tags, effects, strict=True)
    )
    tag_var = sum(w * (t - tag_mean) ** 2 for w, t in zip(weights, tags, strict=True))
    eor_var = sum(w * (e - eor_mean) ** 2 for w, e in zip(weights, effects, strict=True))
    return covariance / math.sqrt(tag_var * eor_var)


def _system(name: str, table: dict[str, Any]) -> CountingSystem:
    where = f"counting system {name!r}"
    tags_table = table.get("tags")
    if not isinstance(tags_table, dict) or set(tags_table) != set(CARD_LABELS):
        raise CountingError(f"{where}: 'tags' needs exactly the cards {', '.join(CARD_LABELS)}")
    tags = tuple(_fraction(tags_table[label], f"{where} tag {label}") for label in CARD_LABELS)
    balanced = table.get("balanced")
    if not isinstance(balanced, bool):
        raise CountingError(f"{where}: 'balanced' must be true or false")
    if balanced and sum(tags[:9]) + 4 * tags[9] != 0:
        raise CountingError(f"{where}: the tags of a deck add up to {sum(tags[:9]) + 4 * tags[9]}")
    start = table.get("initial_running_count", {})
    if not isinstance(start, dict):
        raise CountingError(f"{where}: initial_running_count = {{ per_deck, constant }}")

    def figure(key: str) -> float | None:
        value = table.get(key)
        return None if value is None else float(_fraction(value, f"{where} {key}"))

    return CountingSystem(
        name=name,
        title=str(table.get("title", name)),
        tags=tags,
        balanced=balanced,
        running_count_per_deck=_fraction(start.get("per_deck", 0), f"{where} per_deck"),
        running_count_constant=_fraction(start.get("constant", 0), f"{where} constant"),
        source=str(table.get("source", "")),
        betting_correlation=figure("betting_correlation"),
        playing_efficiency=figure("playing_efficiency"),
        insurance_correlation=figure("insurance_correlation"),
    )


def _read(path_or_resource: str | Path, shipped: str) -> tuple[dict[str, Any], str | None]:
    """A user's file (by path) or the shipped table; the second item is the name asked."""
    candidate = Path(path_or_resource)
    if candidate.suffix == ".toml":
        if not candidate.is_file():
            raise CountingError(f"no such file: {candidate}")
        try:
            return tomllib.loads(candidate.read_text(encoding="utf-8")), None
        except tomllib.TOMLDecodeError as error:
            raise CountingError(f"{candidate}: {error}") from None
    text = resources.files(__package__).joinpath(shipped).read_text(encoding="utf-8")
    return tomllib.loads(text), str(path_or_resource)


def shipped_systems() -> dict[str, CountingSystem]:
    text = resources.files(__package__).joinpath("systems.toml").read_text(encoding="utf-8")
    return {name: _system(name, table) for name, table in tomllib.loads(text).items()}


def load_counting_system(name_or_path: str | Path) -> CountingSystem:
    """A shipped system by name (``hi-lo``), or the one system of a user's ``.toml`` file."""
    document, name = _read(name_or_path, "systems.toml")
    if name is None:
        if len(document) != 1:
            raise CountingError(f"{name_or_path}: one [system] table per file")
        name = next(iter(document))
    if name not in document:
        raise CountingError(
            f"unknown counting system {name!r} (shipped: {', '.join(document)}; or a .toml file)"
        )
    table = document[name]
    if not isinstance(table, dict):
        raise CountingError(f"counting system {name!r}: a table")
    return _system(name, table)


@dataclass(frozen=True)
class IndexPlay:
    """Play ``at_or_above`` when the true count is at least ``count``, else ``below``."""

    kind: str
    """``hard``, ``soft`` or ``pair``."""
    hand: str
    """The total (``16``), or the pair's card (``T``)."""
    up: str
    count: Fraction
    at_or_above: str
    below: str

    def __str__(self) -> str:
        sign = "+" if self.count >= 0 else ""
        return (
            f"{self.kind} {self.hand} v {self.up}: {self.at_or_above} at {sign}{self.count} "
            f"or more, {self.below} below"
        )


@dataclass(frozen=True)
class IndexSet:
    name: str
    title: str
    system: str
    source: str
    plays: tuple[IndexPlay, ...]
    insurance: Fraction | None
    """Take insurance (and even money) at this true count or more."""


def _play(where: str, entry: object) -> IndexPlay:
    if not isinstance(entry, dict):
        raise CountingError(f"{where}: each play is a table {{ kind, hand, up, count, ... }}")
    kind = entry.get("kind")
    if kind not in ("hard", "soft", "pair"):
        raise CountingError(f"{where}: kind is hard, soft or pair, not {kind!r}")
    hand = str(entry.get("hand"))
    if kind == "pair" and hand not in CARD_LABELS:
        raise CountingError(f"{where}: a pair's hand is a card A, 2..9, T, not {hand!r}")
    if kind != "pair" and not (hand.isdigit() and 4 <= int(hand) <= 21):
        raise CountingError(f"{where}: a {kind} hand is a total 4..21, not {hand!r}")
    up = str(entry.get("up"))
    if up not in CARD_LABELS:
        raise CountingError(f"{where}: up is a card A, 2..9, T, not {up!r}")
    letters = (str(entry.get("at_or_above")), str(entry.get("below")))
    for letter in letters:
        if letter not in CHART_LETTERS:
            raise CountingError(f"{where}: a play is one of H S D Ds P R, not {letter!r}")
    return IndexPlay(
        kind, hand, up, _fraction(entry.get("count"), f"{where} count"), letters[0], letters[1]
    )


def load_index_set(name_or_path: str | Path) -> IndexSet:
    """A shipped index set by name (``illustrious-18``), or a user's ``.toml`` file."""
    document, name = _read(name_or_path, "indices.toml")
    if name is None:
        if len(document) != 1:
            raise CountingError(f"{name_or_path}: one [index-set] table per file")
        name = next(iter(document))
    if name not in document:
        raise CountingError(
            f"unknown index set {name!r} (shipped: {', '.join(document)}; or a .toml file)"
        )
    table = document[name]
    where = f"index set {name!r}"
    plays = table.get("plays", [])
    if not isinstance(plays, list):
        raise CountingError(f"{where}: 'plays' is a list")
    insurance = table.get("insurance")
    return IndexSet(
        name=name,
        title=str(table.get("title", name)),
        system=str(table.get("system", "")),
        source=str(table.get("source", "")),
        plays=tuple(_play(f"{where} play {i + 1}", entry) for i, entry in enumerate(plays)),
        insurance=None if insurance is None else _fraction(insurance, f"{where} insurance"),
    )
