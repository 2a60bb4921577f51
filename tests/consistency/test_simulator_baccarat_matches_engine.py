"""The baccarat simulator's kernel against the reference engine, coup for coup.

The kernel deals whole shoes from a seed and records each shoe's order; every recorded shoe
then goes through ``croupier.games.baccarat.BaccaratRound`` as a stacked ``Shoe`` with the
kernel's cut card (Art. 6: burn by the first card's value, coups until the cut card comes out).
Each coup must take the same cards from the same place, settle every wager to the same net,
and end its shoe at the same coup; the engine's Tally must equal the kernel's exactly. Then
the kernel's returns must fall inside the 99% interval of ``analyze``'s exact figures.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest

from croupier.analysis.baccarat import analyse_baccarat
from croupier.cards import FULL_DECK, Card, Rank
from croupier.games.baccarat import BaccaratRound
from croupier.games.events import CardDrawn
from croupier.rules.baccarat import BaccaratRules, BaccaratWager, PairBy
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe
from croupier.simulation.baccarat_counting import (
    PAIR_BUCKETS,
    TIE_COUNT,
    TRUE_COUNT_LIMIT,
    count_tables,
)
from croupier.simulation.baccarat_sim import (
    WAGERS,
    BaccaratTables,
    outcome_index,
    run_kernel,
    simulate_baccarat,
)
from croupier.simulation.tally import Tally

Z99 = 2.5758293035489004
_LOADED = load_profile_of("baccarat", "dragon-six-peru-2016")
assert isinstance(_LOADED, BaccaratRules)
PROFILE: BaccaratRules = _LOADED
# A variant with other shoe settings (6 decks, the cut card 30 from the bottom, no burn), pairs
# by value and Player/Banker losing on a tie: the kernel must follow every field.
VARIANT = PROFILE.model_copy(
    update={
        "name": "dragon-six-variant",
        "decks": 6,
        "pair_by": PairBy.VALUE,
        "player_and_banker_push_on_tie": False,
        "shoe": PROFILE.shoe.model_copy(
            update={"cut_card_from_bottom": 30, "burn_by_first_card_value": False}
        ),
    }
)


class Seed:
    """A stand-in SeedSequence whose state is given outright."""

    def __init__(self, *words: int) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: type) -> npt.NDArray[np.uint64]:
        return np.array(self.words[:n_words], dtype=dtype)


def sums(tally: Tally) -> tuple[object, ...]:
    """A Tally's every field as plain values (its arrays do not compare with ``==``)."""
    return (
        tally.wagers, tally.denominator, tally.rounds, tally.hands, tally.played.tolist(),
        tally.net.tolist(), tally.net_squared.tolist(), tally.hits.tolist(),
        tally.total_net, tally.total_net_squared,
    )  # fmt: skip


class EngineCount:
    """The tie count and the pair probability kept from the engine's events, exactly."""

    def __init__(self, decks: int) -> None:
        self.running = 0
        self.unseen = 52 * decks
        self.ranks = dict.fromkeys(Rank, 4 * decks)

    def see(self, card: Card) -> None:
        self.running += TIE_COUNT[card.rank.baccarat_value]
        self.unseen -= 1
        self.ranks[card.rank] -= 1

    def buckets(self) -> tuple[int, int]:
        true_count = math.floor(Fraction(52 * self.running, self.unseen) + Fraction(1, 2))
        true_count = max(-TRUE_COUNT_LIMIT, min(TRUE_COUNT_LIMIT, true_count))
        pairs = Fraction(sum(n * (n - 1) for n in self.ranks.values()))
        probability = pairs / (self.unseen * (self.unseen - 1))
        pair_bucket = min(PAIR_BUCKETS - 1, math.floor(probability * 4 * PAIR_BUCKETS))
        return true_count + TRUE_COUNT_LIMIT, pair_bucket

    def positive(self, profile: BaccaratRules) -> int:
        """Which pair bets (bit 0 Player's, bit 1 Banker's) the exact pair probability makes
        worth betting: P x (1 + the ratio) > 1 (Art. 8: 11:1)."""
        pairs = Fraction(sum(n * (n - 1) for n in self.ranks.values()))
        probability = pairs / (self.unseen * (self.unseen - 1))
        ratios = (profile.paytable.player_pair, profile.paytable.banker_pair)
        return sum(
            1 << side for side, r in enumerate(ratios) if probability * (1 + r.multiplier) > 1
        )


def engine_replays(
    profile: BaccaratRules, rounds: int, seed: Seed, *, counting: bool = False
) -> tuple[Tally, int]:
    """Deal ``rounds`` in the kernel, replay its shoes through the engine coup by coup
    (asserting card for card and net for net, and with ``counting`` the count before each
    coup); the engine's Tally and the coups checked."""
    tables = BaccaratTables.of(profile)
    count = count_tables() if counting else None
    run = run_kernel(tables, rounds, seed, count=count, trace=True)
    by_count, trace_rounds, trace_shoes = run.by_true_count, run.trace_rounds, run.trace_shoes
    engine_count = EngineCount(profile.decks)
    kernel_tally = tables.tally(by_count.sum(axis=0))
    engine_tally = Tally.empty(WAGERS, tables.denominator)
    shoe: Shoe | None = None
    current = -1
    last_round_signalled = True
    for coup in range(rounds):
        shoe_number, start, used, outcome = (int(x) for x in trace_rounds[coup, :4])
        if shoe_number != current:
            # The engine opened a new shoe exactly when the kernel did (Art. 6).
            assert last_round_signalled, f"coup {coup}: the kernel opened a shoe too early"
            cards = [FULL_DECK[int(i)] for i in trace_shoes[shoe_number]]
            shoe = Shoe(cards, profile.decks, cut_card_at=tables.cut_card_at)
            round_ = BaccaratRound(profile, shoe, new_shoe=True)
            current = shoe_number
            engine_count = EngineCount(profile.decks)
            burnt = [e.card for e in round_.events if isinstance(e, CardDrawn)]
            if burnt:  # Art. 6 d): the first card is turned up; the burnt ones stay unseen
                engine_count.see(burnt[0])
        else:
            assert not last_round_signalled, f"coup {coup}: the engine's shoe had ended"
            assert shoe is not None
            round_ = BaccaratRound(profile, shoe)
        assert shoe.position == start, f"coup {coup}: the burn or the last coup differ"
        if counting:
            assert engine_count.buckets() == tuple(trace_rounds[coup, 4:6]), f"coup {coup}"
            assert engine_count.positive(profile) == trace_rounds[coup, 6], f"coup {coup}"
        for wager in (
            BaccaratWager.PLAYER,
            BaccaratWager.TIE,
            BaccaratWager.PLAYER_PAIR,
            BaccaratWager.BANKER_PAIR,
        ):
            round_.place_bet(1, wager.value, 1)
        round_.place_bet(2, BaccaratWager.BANKER.value, 1)  # Art. 8: not in zone 1's hands
        round_.deal()
        dealt = [e.card for e in round_.events if isinstance(e, CardDrawn) and e.purpose != "burn"]
        assert [c.index for c in dealt] == [int(i) for i in trace_shoes[current][start:][:used]]
        for card in dealt:
            engine_count.see(card)
        player_pair = round_.player_cards[0].rank == round_.player_cards[1].rank
        banker_pair = round_.banker_cards[0].rank == round_.banker_cards[1].rank
        if profile.pair_by is PairBy.VALUE:
            player_pair = round_.player_cards[0].rank.baccarat_value == (
                round_.player_cards[1].rank.baccarat_value
            )
            banker_pair = round_.banker_cards[0].rank.baccarat_value == (
                round_.banker_cards[1].rank.baccarat_value
            )
        assert outcome == outcome_index(
            round_.player_total, round_.banker_total, player_pair, banker_pair
        ), f"coup {coup}"
        nets_by_wager = {w.wager: w.payout - w.stake for w in round_.results().wagers}
        nets = np.array(
            [int(nets_by_wager[name] * tables.denominator) for name in WAGERS], dtype=np.int64
        )
        assert nets.tolist() == tables.nets[outcome].tolist(), f"coup {coup}"
        assert all(
            Fraction(int(n), tables.denominator) == nets_by_wager[w]
            for w, n in zip(WAGERS, nets, strict=True)
        )
        engine_tally = engine_tally.add_round(nets, hands=1, played=np.ones(len(WAGERS), bool))
        last_round_signalled = round_.is_last_round_of_shoe
    assert sums(engine_tally) == sums(kernel_tally)
    return engine_tally, rounds


def test_the_kernel_deals_the_engines_coups() -> None:
    """10^5 coups of the shipped profile (about 11 s of CPU: the engine's share)."""
    tally, checked = engine_replays(PROFILE, 100_000, Seed(2016, 8))
    assert checked == 100_000 and tally.rounds == 100_000
    # Whole shoes were dealt: about 80 coups a shoe, so over a thousand burns and cut cards.
    assert tally.hits[WAGERS.index("tie")] > 5_000


def test_the_kernel_follows_every_field_of_a_variant_profile() -> None:
    tally, checked = engine_replays(VARIANT, 20_000, Seed(2016, 10))
    assert checked == 20_000 and tally.rounds == 20_000


def test_counting_deals_the_same_coups_and_counts_as_the_engine() -> None:
    """With the tie count and the pair probability kept, the same seed deals the same coups,
    and before each coup the kernel's count is the one kept from the engine's cards."""
    counted, _ = engine_replays(PROFILE, 10_000, Seed(2016, 8), counting=True)
    plain, _ = engine_replays(PROFILE, 10_000, Seed(2016, 8))
    assert sums(counted) == sums(plain)


@pytest.mark.slow
def test_the_kernel_deals_the_engines_coups_at_length() -> None:
    engine_replays(VARIANT, 100_000, Seed(2016, 9))
    engine_replays(PROFILE, 100_000, Seed(2016, 11), counting=True)


def test_a_block_depends_only_on_its_seed() -> None:
    first = sums(simulate_baccarat(PROFILE, 5_000, Seed(1, 2), players=1))
    assert first == sums(simulate_baccarat(PROFILE, 5_000, Seed(1, 2), players=1))
    assert first != sums(simulate_baccarat(PROFILE, 5_000, Seed(1, 3), players=1))


def assert_inside_the_exact_interval(profile: BaccaratRules, rounds: int, seed: Seed) -> None:
    tally = simulate_baccarat(profile, rounds, seed, players=1)
    exact = analyse_baccarat(profile)
    for name, figures in tally.figures().items():
        expected = -float(exact[name].exact_house_edge or 0)
        half = Z99 * figures["sd"] / math.sqrt(tally.rounds)
        assert abs(figures["ev_per_round"] - expected) < half, (name, figures, expected)


@pytest.mark.parametrize("profile", [PROFILE, VARIANT], ids=lambda p: p.name)
def test_the_simulated_returns_agree_with_the_exact_analysis(profile: BaccaratRules) -> None:
    assert_inside_the_exact_interval(profile, 1_000_000, Seed(42, 6))


@pytest.mark.slow
@pytest.mark.parametrize("profile", [PROFILE, VARIANT], ids=lambda p: p.name)
def test_the_simulated_returns_agree_with_the_exact_analysis_at_length(
    profile: BaccaratRules,
) -> None:
    assert_inside_the_exact_interval(profile, 10_000_000, Seed(42, 7))
