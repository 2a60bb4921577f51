"""Casino Hold'em rule profiles (docs/rules.md §5)."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from pydantic import model_validator

from croupier.rules.base import (
    Burn,
    ExposedCardRule,
    FractionField,
    Limits,
    Profile,
    RatioField,
    Strict,
    TableRecord,
)


class PokerCategory(StrEnum):
    """Hand classes of Art. 10, best first, as named in ``settle`` output."""

    ROYAL_FLUSH = "royal flush"
    STRAIGHT_FLUSH = "straight flush"
    FOUR_OF_A_KIND = "four of a kind"
    FULL_HOUSE = "full house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three of a kind"
    TWO_PAIR = "two pair"
    PAIR = "pair"
    HIGH_CARD = "high card"


class AnteWhenDealerDoesNotQualify(StrEnum):
    EVEN_MONEY = "even-money"
    """Art. 13g: the Ante is paid 1:1 (Peru 2007)."""
    PAYTABLE = "paytable"
    """The Ante is paid by the ante paytable (the common international game)."""


class ProgressivePrize(Strict):
    """One line of the progressive paytable: a share of the meter or a fixed amount."""

    meter_share: FractionField | None = None
    units: int | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> ProgressivePrize:
        if (self.meter_share is None) == (self.units is None):
            raise ValueError("a progressive prize is either meter_share or units")
        if self.meter_share is not None and not 0 < self.meter_share <= 1:
            raise ValueError(f"meter_share: in (0, 1], not {self.meter_share}")
        if self.units is not None and self.units < 1:
            raise ValueError(f"units: at least 1, not {self.units}")
        return self


class Progressive(Strict):
    bet: int
    """The progressive stake, exactly (docs/rules.md §6 decision: 1 unit)."""
    meter_seed: int
    meter_contribution: FractionField
    """The share of each progressive stake that feeds the meter."""
    paytable: dict[PokerCategory, ProgressivePrize]


class DealerQualifier(Strict):
    category: PokerCategory
    pair_rank_at_least: str
    """With ``category = "pair"``: the lowest pair that qualifies (Art. 13: 4s)."""


class CasinoHoldemRules(Profile):
    game: ClassVar[str] = "casino-holdem"

    decks: int
    zones: int
    min_players: int
    ante_limits: Limits
    call_multiple: int
    """The Bet is this many times the Ante (Art. 12: 2x)."""
    call_pays: RatioField
    ante_paytable: dict[PokerCategory, RatioField]
    """Category -> ratio; categories not listed pay the ``high card`` line."""
    dealer_qualifier: DealerQualifier
    ante_when_dealer_does_not_qualify: AnteWhenDealerDoesNotQualify
    progressive: Progressive

    @model_validator(mode="after")
    def _possible(self) -> CasinoHoldemRules:
        if self.decks != 1:
            raise ValueError(f"decks: Casino Hold'em is dealt from one deck, not {self.decks}")
        if self.min_players < 1 or self.zones < self.min_players:
            raise ValueError(f"zones ({self.zones}) must hold min_players ({self.min_players})")
        if PokerCategory.HIGH_CARD not in self.ante_paytable:
            raise ValueError("ante_paytable: needs a 'high card' line for every other hand")
        if self.corrections is not None and self.corrections.exposed_card is not (
            ExposedCardRule.VOID
        ):
            # docs/rules.md#D-CH-11: the progressive is paid on the hole cards after the flop,
            # so a replaced hole card would contradict a prize already paid.
            raise ValueError("corrections.exposed_card: Casino Hold'em takes only 'void'")
        return self

    def _table(self) -> TableRecord:
        # docs/rules.md §6 decision: the progressive bet is exactly ``progressive.bet`` units.
        exact = Limits(minimum=self.progressive.bet, maximum=self.progressive.bet)
        return TableRecord(
            decks=self.decks,
            seats=self.zones,
            seats_per_player=1,
            min_players=self.min_players,
            back_betting=False,
            cut_card_from_bottom=None,
            burn=Burn.NONE,
            burn_cards=0,
            wagers={"ante": self.ante_limits, "progressive": exact},
        )
