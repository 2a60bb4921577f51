"""The exact value of every legal blackjack action, beside each step (``oracle=True``).

The values are ``croupier analyze --strategy composition``'s (``croupier.analysis
.blackjack_exact``, reused, not a second analysis): every hand valued by its composition,
each drawn card leaving the shoe, the dealer's outcomes exact for the cards left, the play
after this decision the best for each hand's cards (CDZ-). The shoe is what the box may know:
the profile's decks less every card it has seen since the shuffle (``CroupierEnv.seen``: its
own cards, the dealer's up card, the rounds before; the burns and the hole card are face
down and stay unknown, so the dealer's hole card is drawn from them by exchangeability, as
the analysis draws it).

- ``stand``, ``hit`` (then the best of hit and stand on each card), ``double`` (one card):
  ``optimal_values`` of the hand against ``UpCard(shoe)``.
- A double for less: a double's value is linear in its amount (the analysis's module
  docstring), so between taking one card and standing on the stake alone and the full double.
- ``split``: the exact value of splitting the pair, re-splits to the profile's limit, each
  hand played CDZ- (``UpCard.split_value``).
- ``surrender``: half the stake (docs/rules.md#D-BJ-32, after the peek).
- At the insurance question (Art. 10): the hand's best play after it, plus an insurance of
  ``x`` worth ``x (P(ten) * pays - (1 - P(ten)))``; even money (Art. 13) is exactly the stake.
- A dealer who peeks (a profile with ``hole_card = "peek"``) has no blackjack once the
  hands are played: the analysis's values, which weigh that world in at the original stake,
  are conditioned on its absence, ``(v + P) / (1 - P)``.

After a split, each hand is valued as the analysis values CDZ-'s play: as an unsplit hand of
its cards (the hands still to play are not in it), and a re-split as a fresh split of the
pair. Values are in the environment's reward units (base bets).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from croupier.analysis import blackjack_exact as exact
from croupier.analysis.blackjack import Game
from croupier.analysis.dealer import ACE, TEN, full_shoe
from croupier.cards import Card, Rank
from croupier.envs.actions import Catalogue
from croupier.games.blackjack import BlackjackRound
from croupier.hands.blackjack import is_hard_total_in, is_pair
from croupier.rules.blackjack import BlackjackRules, DoubleOn, HoleCard, Surrender

if TYPE_CHECKING:
    from croupier.games.base import GameRound

__all__ = ["action_values", "analysis_rank"]


def analysis_rank(rank: Rank) -> int:
    """A card's rank as the analysis counts it: 0 the Ace, 1-8 the 2-9, 9 every ten."""
    if rank is Rank.ACE:
        return ACE
    return TEN if rank.is_ten_valued else rank.value - 1


def _counts(cards: list[Card] | Counter[Rank]) -> npt.NDArray[np.int64]:
    counts = np.zeros(10, dtype=np.int64)
    items = cards.items() if isinstance(cards, Counter) else ((card.rank, 1) for card in cards)
    for rank, number in items:
        counts[analysis_rank(rank)] += number
    return counts


class _Hand:
    """The values of one hand against one up card, from the shoe the box may know."""

    def __init__(
        self, profile: BlackjackRules, cards: list[Card], up: Card, unknown: npt.NDArray[np.int64]
    ) -> None:
        game = Game.of(profile)
        self.rules = game.exact_rules()
        self.up = analysis_rank(up.rank)
        self.unknown = unknown
        before_up = unknown + _counts(cards)
        before_up[self.up] += 1
        self.card = exact.UpCard(self.rules, self.up, shoe=before_up)
        self.values = self.card.optimal()
        table = self.card.table
        self.ranks = [analysis_rank(card.rank) for card in cards]
        self.index = table.of(*self.ranks)
        left = int(unknown.sum())
        self.tens = float(unknown[TEN]) / left if left else 0.0
        self.aces = float(unknown[ACE]) / left if left else 0.0

    def stand(self) -> float:
        return float(self.values[0, self.index])

    def hit(self) -> float:
        return float(self.values[1, self.index])

    def double(self, share: float) -> float:
        """A double of ``share`` of the stake: linear between one card on the stake alone
        and the full double."""
        full = float(self.values[2, self.index])
        if share == 1.0:
            return full
        child = self.card.table.child[self.index]
        left = self.unknown
        one_card = 0.0
        for rank in range(10):
            if left[rank] == 0:
                continue
            after = child[rank]
            value = -1.0 if after < 0 else float(self.values[0, after])
            one_card += float(left[rank]) / float(left.sum()) * value
        return one_card + share * (full - one_card)

    def split(self) -> float:
        _, split_play = exact.composition_play(self.rules, self.values)
        return float(self.card.split_value(self.ranks[0], split_play)[0])

    def dealer_blackjack(self) -> float:
        """The chance that the dealer's hole card makes a blackjack."""
        if self.up == ACE:
            return self.tens
        return self.aces if self.up == TEN else 0.0


def action_values(
    game_round: GameRound,
    seen: Counter[Rank],
    catalogue: Catalogue,
    mask: npt.NDArray[np.int8],
    bet: int,
) -> dict[int, float]:
    """The exact value of each legal index (``mask``) of ``catalogue`` at ``game_round``'s
    pending decision, in base bets of ``bet`` units, the cards ``seen`` since the shuffle out
    of the shoe (``CroupierEnv.seen``)."""
    assert isinstance(game_round, BlackjackRound)
    profile = game_round.profile
    decision = game_round.pending()
    assert decision is not None
    unknown = full_shoe(profile.decks) - _counts(seen)
    box = game_round.boxes[decision.seat]
    up = game_round.up_card
    if decision.question == "insurance":
        cards = box.hands[0].cards
        hand = _Hand(profile, cards, up, unknown)
        stake = box.hands[0].stake
        continuing = (
            _natural(profile, hand)
            if _is_natural(cards)
            else max(_first_decision(profile, hand, cards).values())
        )
        per_unit = hand.tens * float(profile.insurance_pays.multiplier) - (1 - hand.tens)
        by_name = {"no-insurance": continuing, "even-money": 1.0}
        most = game_round.max_insurance(decision.seat)
        insurance = {"insurance": most} | {
            entry.name: int(entry.fraction * most)
            for entry in catalogue.entries
            if entry.action == "insurance" and entry.fraction is not None
        }
        for name, units in insurance.items():
            by_name[name] = continuing + units / stake * per_unit
    else:
        turn = game_round.current()
        assert turn is not None
        cards, stake = turn[1].cards, turn[1].stake
        hand = _Hand(profile, cards, up, unknown)
        by_name = _play_values(catalogue, profile, hand, stake)
        if profile.hole_card is HoleCard.PEEK and hand.dealer_blackjack() > 0:
            chance = hand.dealer_blackjack()
            by_name = {
                name: value if name == "surrender" else (value + chance) / (1 - chance)
                for name, value in by_name.items()
            }
    scale = stake / bet
    return {
        int(index): by_name[catalogue.names[index]] * scale
        for index in np.flatnonzero(mask)
        if catalogue.names[index] in by_name
    }


def _play_values(
    catalogue: Catalogue, profile: BlackjackRules, hand: _Hand, stake: int
) -> dict[str, float]:
    values = {"stand": hand.stand(), "hit": hand.hit(), "surrender": -0.5}
    if len(hand.ranks) == 2:
        values["double"] = hand.double(1.0)
        for entry in catalogue.entries:
            if entry.action == "double" and entry.fraction is not None:
                units = int(entry.fraction * stake)
                values[entry.name] = hand.double(units / stake)
        if hand.ranks[0] == hand.ranks[1]:
            values["split"] = hand.split()
    return values


def _first_decision(profile: BlackjackRules, hand: _Hand, cards: list[Card]) -> dict[str, float]:
    """The values of the actions the hand will be allowed after the insurance question."""
    values = {"stand": hand.stand(), "hit": hand.hit()}
    if profile.double_on is DoubleOn.ANY_TWO or is_hard_total_in(cards, 9, 11):
        values["double"] = hand.double(1.0)
    if is_pair(cards, profile.split_by) and hand.ranks[0] == hand.ranks[1]:
        values["split"] = hand.split()
    if profile.surrender is Surrender.LATE:
        values["surrender"] = -0.5
    return values


def _is_natural(cards: list[Card]) -> bool:
    ranks = sorted(analysis_rank(card.rank) for card in cards)
    return ranks == [ACE, TEN]


def _natural(profile: BlackjackRules, hand: _Hand) -> float:
    """A natural's value: paid ``blackjack_pays`` unless the dealer has one too (a push), as
    the analysis values it (``blackjack_exact.composition_up_card``)."""
    return (1 - hand.dealer_blackjack()) * float(profile.blackjack_pays.multiplier)
