"""What every rule profile shares: its identity, its sources, and strict validation.

A profile is a frozen pydantic model read from TOML. Every rule field must carry a citation in
the profile's ``[sources]`` table (the article of the regulation, or the decision of
``docs/rules.md`` it follows, cited by its anchor: ``docs/rules.md#D-BJ-4``), so that each
setting can be traced to its text; an unknown key, a missing citation, a citation of a
decision the rules document does not have, or an impossible value is an error naming the file
and the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from typing import Annotated, Any, ClassVar, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    model_validator,
)

from croupier.money import Ratio
from croupier.rules.citations import verify_citation

META_FIELDS = frozenset({"name", "game", "title", "regulation", "sources"})
LATER_FIELDS = frozenset({"disputes", "corrections", "surrender"})
"""Rules added after tables stored their rules (``service.table_rules``): a stored document
from before holds neither the field nor its citation, and still loads (as ``None``). A
blackjack profile without ``surrender`` offers none (docs/rules.md#D-BJ-32), so a shipped
profile needs neither the key nor a citation for it."""


def _ratio(value: object) -> Ratio:
    if isinstance(value, Ratio):
        return value
    if not isinstance(value, str):
        raise ValueError(f"a payout ratio is written as text 'win:stake', not {value!r}")
    return Ratio.parse(value)


def _fraction(value: object) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    if not isinstance(value, str):
        raise ValueError(f"a fraction is written as text such as '1/2', not {value!r}")
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"not a fraction: {value!r}") from None


RatioField = Annotated[Ratio, BeforeValidator(_ratio), PlainSerializer(str, return_type=str)]
"""A payout ratio written ``"3:2"`` in TOML."""

FractionField = Annotated[
    Fraction, BeforeValidator(_fraction), PlainSerializer(str, return_type=str)
]
"""An exact fraction written ``"1/2"`` in TOML."""


class Strict(BaseModel):
    """Frozen, no unknown keys, no coercion of one type into another."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=False)


class Limits(Strict):
    """Table limits of one wager, in whole units (docs/rules.md §6)."""

    minimum: int
    maximum: int

    @model_validator(mode="after")
    def _ordered(self) -> Limits:
        if not 1 <= self.minimum <= self.maximum:
            raise ValueError(
                f"limits need 1 <= minimum <= maximum, not {self.minimum}..{self.maximum}"
            )
        return self

    def allows(self, amount: int) -> bool:
        return self.minimum <= amount <= self.maximum


class Disputes(Strict):
    """How a participant disputes a round, and what becomes of the decision (issue 14).

    ``window_hours``: how long after the round ends it may be disputed (a live round always
    may). ``final``: the inspector's or supervisor's ruling ends the matter (veintiuno-real,
    item 14: "sus fallos son inapelables"); otherwise the player may take it to
    ``regulator``, and downloads a dossier to file (Dragon Six, Peru 2016, Art. 12).
    """

    window_hours: int
    final: bool
    regulator: str | None = None
    """Where a decision that is not final may be taken; absent when it is final."""

    @model_validator(mode="after")
    def _one_way(self) -> Disputes:
        if not 1 <= self.window_hours <= 24 * 366:
            raise ValueError(f"disputes.window_hours: 1 to 8784, not {self.window_hours}")
        if self.final == (self.regulator is not None):
            raise ValueError(
                "disputes: a final ruling names no regulator; one that is not final names "
                "where it may be taken (regulator)"
            )
        return self


class FaceUpCardRule(StrEnum):
    """What becomes of a card found face up in the shoe (docs/rules.md#D-GEN-11)."""

    REMOVED = "removed"
    """Taken out of the game (Spain 1979, Art. 03 V.3.c: "Si apareciera una carta con la cara
    hacia arriba en el distribuidor, se eliminará")."""
    BURNT = "burnt"
    """Burnt, in view of the table, the deal going on with the next card (the other texts are
    silent: docs/rules.md#D-GEN-11)."""


class ExposedCardRule(StrEnum):
    """What becomes of a card dealt face down and exposed in error."""

    REPLACED = "replaced"
    """Burnt in view; the next card of the shoe takes its place, face down; the hand goes on
    (blackjack: docs/rules.md#D-BJ-31)."""
    VOID = "void"
    """The round is void, every stake still in play returned (Casino Hold'em:
    docs/rules.md#D-CH-11)."""
    NONE = "none"
    """No card is dealt face down under these rules, so none can be exposed (Spain V.3.c,
    baccarat's coup dealt face up): the correction is refused."""


class ConfusedDealRule(StrEnum):
    """What becomes of a round whose deal was confused (docs/rules.md#D-GEN-13)."""

    VOID = "void"
    """The cards are burnt, never reconstructed, and the round is void, every stake still in
    play returned (the Veintiuno Real sheet, item 14)."""


class Corrections(Strict):
    """The dealer's corrections of the cards (issue 14, item 3): what each regulation makes of
    a card found face up in the shoe, a card exposed in error and a confused deal. A card dealt
    in error is burnt under every profile (docs/rules.md#D-GEN-12)."""

    face_up_in_shoe: FaceUpCardRule
    exposed_card: ExposedCardRule
    confused_deal: ConfusedDealRule


class Burn(StrEnum):
    """How a new shoe is burnt before its first round."""

    NONE = "none"
    """No burn (Casino Hold'em: a fresh deck every game, burns belong to the deal)."""
    FIXED = "fixed"
    """A fixed number of cards (blackjack's ``shoe.burn_on_new_shoe``)."""
    BY_FIRST_CARD_VALUE = "by-first-card-value"
    """The first card's value says how many more (Dragon Six Art. 6 d)."""


@dataclass(frozen=True, slots=True)
class TableRecord:
    """The shape of a table, the same fields for every game, read from a profile's own rules.

    What a consumer (the live table, the simulator, a client) needs without knowing the game:
    how many decks and seats, how many seats one player may hold, how many players a round
    needs, whether others may bet behind, how a shoe is made, and each wager a seat may place
    with its limits (in placing order). ``cut_card_from_bottom`` is ``None`` for a game whose
    every round is dealt from a fresh deck.
    """

    decks: int
    seats: int
    seats_per_player: int
    min_players: int
    back_betting: bool
    cut_card_from_bottom: int | None
    burn: Burn
    burn_cards: int
    wagers: Mapping[str, Limits]

    @property
    def is_one_round_per_shoe(self) -> bool:
        return self.cut_card_from_bottom is None


class Profile(Strict):
    """Fields every profile has. Subclasses add one field per regulatory setting, and say
    what their rules make of the table's common shape in ``table``."""

    game: ClassVar[str]

    name: str
    title: str
    regulation: str
    sources: dict[str, str]
    disputes: Disputes | None = Field(default=None, exclude_if=lambda value: value is None)
    """Set by every shipped profile; ``None`` only in rules stored before disputes existed
    (``LATER_FIELDS``): a round dealt under them cannot be disputed."""
    corrections: Corrections | None = Field(default=None, exclude_if=lambda value: value is None)
    """Set by every shipped profile; ``None`` only in rules stored before corrections existed
    (``LATER_FIELDS``): a round dealt under them takes no correction but a void."""

    @model_validator(mode="before")
    @classmethod
    def _drop_game_key(cls, data: Any) -> Any:
        # ``game`` selects the model; it is checked by the registry, not stored twice.
        if isinstance(data, dict) and "game" in data:
            data = dict(data)
            if data.pop("game") != cls.game:
                raise ValueError(f"profile is not a {cls.game} profile")
        return data

    @model_validator(mode="after")
    def _every_rule_is_cited(self) -> Profile:
        rules = set(type(self).model_fields) - META_FIELDS
        unset = {name for name in LATER_FIELDS if getattr(self, name, None) is None}
        missing = sorted(rules - unset - set(self.sources))
        if missing:
            raise ValueError(f"sources: no citation for {', '.join(missing)}")
        unknown = sorted(set(self.sources) - rules)
        if unknown:
            raise ValueError(f"sources: citation for unknown rule {', '.join(unknown)}")
        for rule, citation in sorted(self.sources.items()):
            try:
                verify_citation(citation)
            except ValueError as error:
                raise ValueError(f"sources.{rule}: {error}") from None
        return self

    def source_of(self, rule: str) -> str:
        """The article or decision (``docs/rules.md#...``) a rule comes from."""
        return self.sources[rule]

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy whose ``table`` is read from its own rules: pydantic copies the instance's
        ``__dict__``, cached ``table`` included, which after an ``update`` (``decks``, limits)
        would describe the original's table."""
        copied = super().model_copy(update=update, deep=deep)
        copied.__dict__.pop("table", None)
        return copied

    @cached_property
    def table(self) -> TableRecord:
        """The table's common shape (decks, seats, wagers and limits) under these rules."""
        return self._table()

    def _table(self) -> TableRecord:
        raise NotImplementedError(f"{type(self).__name__} does not describe its table")
