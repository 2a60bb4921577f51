"""Blackjack rule profiles (docs/rules.md §1-3): one field per regulatory setting."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Literal

from pydantic import Field, model_validator

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


class HoleCard(StrEnum):
    NONE = "none"
    """European no hole card: the dealer's second card is drawn after the players (Spain)."""
    DEALT = "dealt"
    """Dealt face down with the deal and revealed after the players, never checked early."""
    PEEK = "peek"
    """Dealt face down and checked at once under an Ace or ten (the American game)."""


class DealerBlackjackTakes(StrEnum):
    ORIGINAL_BET_ONLY = "original-bet-only"
    """OBO: split and doubled money still in play is returned (Peru Art. 13)."""
    ALL_BETS = "all-bets"
    """Every bet on the box loses, doubles and splits included (Spain decision)."""


class DoubleOn(StrEnum):
    ANY_TWO = "any-two"
    HARD_9_TO_11 = "hard-9-11"


class Surrender(StrEnum):
    LATE = "late"
    """Late surrender (docs/rules.md#D-BJ-32): after the dealer has checked the hole card for
    blackjack, a hand's first two cards, never a split hand's, may be given up for half the
    bet. Only where the dealer peeks: without the check there is no "late"."""


class SplitBy(StrEnum):
    VALUE = "value"
    """Any two ten-valued cards are a pair (K+Q)."""
    RANK = "rank"


class ThreeCardHand(StrEnum):
    """The 21+3 categories, best first (Peru Art. 20)."""

    STRAIGHT_FLUSH = "straight_flush"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"


class TwentyOnePlusThree(Strict):
    """The 21+3 side bet (Peru Arts. 18-20)."""

    limits: Limits
    paytable: dict[ThreeCardHand, RatioField]
    ace_low_straight: bool
    """A-2-3 counts as a straight (Q-K-A always does; K-A-2 never)."""
    published_house_edge: FractionField | None = None
    """The figure printed beside the paytable, for the report to compare with ours."""
    published_payout_frequency: FractionField | None = None


class VeintiunoReal(Strict):
    """Three 7s on the unsplit hand (the Veintiuno Real sheet, item 13)."""

    pays: RatioField
    unsplit_hand_only: bool


class Shoe(Strict):
    cut_card_from_bottom: int
    """Cards left behind the cut card (Spain: at least one deck)."""
    burn_on_new_shoe: int
    """Cards burnt face down when a new shoe starts (Spain: five)."""


class BlackjackRules(Profile):
    game: ClassVar[str] = "blackjack"

    decks: int
    boxes: int
    boxes_per_player: int
    back_betting: bool
    limits: Limits

    hole_card: HoleCard
    dealer_hits_soft_17: bool
    blackjack_pays: RatioField
    blackjack_paid_at_once: bool
    """A player blackjack is paid at once unless the dealer's up card is an Ace or ten."""
    dealer_blackjack_takes: DealerBlackjackTakes
    dealer_draws_when_no_hand_remains: bool
    """Whether the dealer still draws (without a hole card: his second card too) when every
    player hand is already settled (busted, or a blackjack paid at once)."""

    insurance: bool
    insurance_pays: RatioField
    insurance_max: FractionField
    """The most insurance, as a fraction of the original bet."""
    even_money: bool

    double_on: DoubleOn
    double_for_less: bool
    double_after_split: bool

    split_by: SplitBy
    max_hands: int | Literal["unlimited"]
    resplit_aces: bool
    split_ace_ten_is_blackjack: bool
    split_ace_card_face_down: bool
    """Each split Ace's one card is dealt face down and turned after the players."""
    double_card_face_down: bool
    """The one card of a double is dealt face down and turned after the players."""

    surrender: Surrender | None = Field(default=None, exclude_if=lambda value: value is None)
    """``None`` (the key absent): no surrender, as in every shipped profile; a profile without
    the key keeps the same stored document and rules version as before the rule existed."""

    shoe: Shoe
    twenty_one_plus_three: TwentyOnePlusThree | None = None
    veintiuno_real: VeintiunoReal | None = None

    @model_validator(mode="after")
    def _possible(self) -> BlackjackRules:
        if not 1 <= self.decks <= 8:
            raise ValueError(f"decks: 1 to 8 allowed, not {self.decks}")
        if not 1 <= self.boxes <= 7:
            raise ValueError(f"boxes: 1 to 7 allowed, not {self.boxes}")
        if not 1 <= self.boxes_per_player <= self.boxes:
            raise ValueError(f"boxes_per_player: 1 to {self.boxes} allowed")
        if isinstance(self.max_hands, int) and self.max_hands < 1:
            raise ValueError(
                f"max_hands: at least 1 (no split) or 'unlimited', not {self.max_hands}"
            )
        if not 0 <= self.insurance_max <= 1:
            raise ValueError(
                f"insurance_max: a fraction of the bet in 0..1, not {self.insurance_max}"
            )
        if self.surrender is Surrender.LATE and self.hole_card is not HoleCard.PEEK:
            raise ValueError(
                f"surrender: 'late' needs hole_card = 'peek' (the dealer checks for blackjack "
                f"before anyone may surrender, docs/rules.md#D-BJ-32), not {str(self.hole_card)!r}"
            )
        size = 52 * self.decks
        if not 0 <= self.shoe.cut_card_from_bottom < size:
            raise ValueError(f"shoe.cut_card_from_bottom: 0..{size - 1}")
        if not 0 <= self.shoe.burn_on_new_shoe < size - self.shoe.cut_card_from_bottom:
            raise ValueError("shoe.burn_on_new_shoe: more burns than cards before the cut card")
        face_down = (
            self.hole_card is not HoleCard.NONE
            or self.split_ace_card_face_down
            or self.double_card_face_down
        )
        if self.corrections is not None and face_down == (
            self.corrections.exposed_card is ExposedCardRule.NONE
        ):
            raise ValueError(
                "corrections.exposed_card: 'none' exactly when no card is dealt face down "
                "(no hole card, split Ace and double cards face up)"
            )
        return self

    @property
    def max_hands_per_box(self) -> int | None:
        """The most hands a box may split into; ``None`` for no limit."""
        return None if self.max_hands == "unlimited" else self.max_hands

    def _table(self) -> TableRecord:
        wagers = {"main": self.limits}
        if self.twenty_one_plus_three is not None:
            wagers["21+3"] = self.twenty_one_plus_three.limits
        return TableRecord(
            decks=self.decks,
            seats=self.boxes,
            seats_per_player=self.boxes_per_player,
            min_players=1,
            back_betting=self.back_betting,
            cut_card_from_bottom=self.shoe.cut_card_from_bottom,
            burn=Burn.FIXED if self.shoe.burn_on_new_shoe else Burn.NONE,
            burn_cards=self.shoe.burn_on_new_shoe,
            wagers=wagers,
        )
