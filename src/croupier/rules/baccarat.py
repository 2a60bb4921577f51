"""Baccarat rule profiles (docs/rules.md §4, Dragon Six Baccarat Plus)."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from pydantic import model_validator

from croupier.rules.base import (
    Burn,
    ExposedCardRule,
    Limits,
    Profile,
    RatioField,
    Strict,
    TableRecord,
)


class BaccaratWager(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"


class PairBy(StrEnum):
    RANK = "rank"
    VALUE = "value"


class BaccaratPaytable(Strict):
    player: RatioField
    banker: RatioField
    banker_win_with_six: RatioField
    """Dragon Six: a Banker win with a total of 6 pays this instead (Art. 8: half, 1:2)."""
    tie: RatioField
    player_pair: RatioField
    banker_pair: RatioField


class BaccaratShoe(Strict):
    cut_card_from_bottom: int
    minimum_cut_card_from_bottom: int
    """Art. 6: the cut card goes no fewer than this many cards from the bottom."""
    burn_by_first_card_value: bool
    """Art. 6: the first card is drawn and its value is how many more are burnt."""


class BaccaratRules(Profile):
    game: ClassVar[str] = "baccarat"

    decks: int
    zones: int
    paytable: BaccaratPaytable
    player_and_banker_push_on_tie: bool
    pair_by: PairBy
    forbidden_combinations: list[list[BaccaratWager]]
    """Sets of wagers one zone may not hold together (Art. 8: Player with Banker)."""
    limits: dict[BaccaratWager, Limits]
    shoe: BaccaratShoe

    @model_validator(mode="after")
    def _possible(self) -> BaccaratRules:
        if not 1 <= self.decks <= 8:
            raise ValueError(f"decks: 1 to 8 allowed, not {self.decks}")
        if self.zones < 1:
            raise ValueError(f"zones: at least 1, not {self.zones}")
        if self.shoe.cut_card_from_bottom < self.shoe.minimum_cut_card_from_bottom:
            raise ValueError(
                f"shoe.cut_card_from_bottom: Art. 6 needs at least "
                f"{self.shoe.minimum_cut_card_from_bottom}, not {self.shoe.cut_card_from_bottom}"
            )
        missing = sorted(set(BaccaratWager) - set(self.limits))
        if missing:
            raise ValueError(f"limits: none given for {', '.join(missing)}")
        if self.corrections is not None and self.corrections.exposed_card is not (
            ExposedCardRule.NONE
        ):
            # docs/rules.md#D-BAC-9: the coup is dealt face up.
            raise ValueError("corrections.exposed_card: the coup is dealt face up: 'none'")
        return self

    def _table(self) -> TableRecord:
        return TableRecord(
            decks=self.decks,
            seats=self.zones,
            seats_per_player=1,
            min_players=1,
            back_betting=False,
            cut_card_from_bottom=self.shoe.cut_card_from_bottom,
            burn=Burn.BY_FIRST_CARD_VALUE if self.shoe.burn_by_first_card_value else Burn.NONE,
            burn_cards=0,
            wagers={wager.value: self.limits[wager] for wager in BaccaratWager},
        )
