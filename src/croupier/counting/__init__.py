"""Card-counting systems as data: each a frozen record of the tag per blackjack rank, loaded
from ``systems.toml`` beside this module (each system cites its published source).

A count is kept over the cards seen: the running count is the sum of their tags; the true
count is the running count per deck still unseen. An unbalanced system (KO: its tags sum to
+4 over a deck) drifts upward as cards are seen; ``true_count`` removes that drift, so every
system's true count is centred on 0 off the top.

>>> hi_lo = counting_system("hi-lo")
>>> hi_lo.title, hi_lo.tag("5"), hi_lo.tag("K"), hi_lo.is_balanced
('Hi-Lo', Fraction(1, 1), Fraction(-1, 1), True)
>>> hi_lo.running_count(["5", "6", "T", "A", "2"])
Fraction(1, 1)
>>> counting_system("ko").is_balanced, counting_system("wong-halves").level
(False, Fraction(3, 2))
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

from croupier.errors import ProfileError

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""The blackjack ranks a system tags, ten-valued cards as ``T``."""
TEN_VALUED = ("T", "J", "Q", "K")
SYSTEMS_FILE = Path(__file__).with_name("systems.toml")


@dataclass(frozen=True)
class CountingSystem:
    """One counting system: ``tags[i]`` is the tag of ``RANKS[i]``."""

    name: str
    title: str
    tags: tuple[Fraction, ...]
    source: str

    def tag(self, rank: str) -> Fraction:
        """The tag of a rank (``"A"``, ``"2"``-``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``)."""
        label = "T" if rank in TEN_VALUED else rank
        if label not in RANKS:
            raise ProfileError(f"counting system {self.name}: no rank {rank!r}")
        return self.tags[RANKS.index(label)]

    @property
    def deck_sum(self) -> Fraction:
        """The sum of the tags over one 52-card deck (0 for a balanced system)."""
        return sum(
            (tag * (16 if rank == "T" else 4) for rank, tag in zip(RANKS, self.tags, strict=True)),
            Fraction(0),
        )

    @property
    def is_balanced(self) -> bool:
        return self.deck_sum == 0

    @property
    def level(self) -> Fraction:
        return max(abs(tag) for tag in self.tags)

    def running_count(self, ranks: list[str]) -> Fraction:
        return sum((self.tag(rank) for rank in ranks), Fraction(0))

    def true_count(self, running: Fraction, cards_seen: int, cards_unseen: int) -> Fraction:
        """Running count per deck unseen, less an unbalanced system's drift over the cards seen."""
        if cards_unseen <= 0:
            raise ProfileError("true count: no card is left unseen")
        drift = self.deck_sum * cards_seen / 52
        return (running - drift) * 52 / cards_unseen


def _system(file: str, name: str, entry: object) -> CountingSystem:
    if not isinstance(entry, dict) or set(entry) != {"title", "tags", "source"}:
        raise ProfileError(f"{file} [{name}]: needs exactly title, tags and source")
    tags = entry["tags"]
    if not isinstance(tags, dict) or set(tags) != set(RANKS):
        raise ProfileError(f"{file} [{name}].tags: one tag for each of {', '.join(RANKS)}")
    values = []
    for rank in RANKS:
        value = tags[rank]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ProfileError(f"{file} [{name}].tags.{rank}: a number, not {value!r}")
        tag = Fraction(value).limit_denominator(4)
        if tag != value:
            raise ProfileError(f"{file} [{name}].tags.{rank}: quarters at finest, not {value}")
        values.append(tag)
    return CountingSystem(name, str(entry["title"]), tuple(values), str(entry["source"]))


def load_counting_systems(path: Path) -> dict[str, CountingSystem]:
    """The systems of a TOML file laid out as ``systems.toml``; a missing or malformed entry
    is a ``ProfileError`` naming the file, the system and the key."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ProfileError(f"{path}: {error}") from error
    return {name: _system(path.name, name, entry) for name, entry in document.items()}


@cache
def counting_systems() -> dict[str, CountingSystem]:
    """Every shipped system, by name (``hi-lo``, ``ko``, ``hi-opt-ii``, ``omega-ii``, ``zen``,
    ``wong-halves``)."""
    return load_counting_systems(SYSTEMS_FILE)


def counting_system(name: str) -> CountingSystem:
    systems = counting_systems()
    if name not in systems:
        raise ProfileError(f"no counting system {name!r}; known: {', '.join(systems)}")
    return systems[name]
