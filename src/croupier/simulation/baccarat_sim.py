"""Dragon Six baccarat, compiled: whole shoes dealt as the profile says, every wager settled.

Each shoe is shuffled inside the kernel (Fisher-Yates over ``decks x 52`` cards), its first
card drawn and as many more burnt as that card's value (Art. 6 d), when the profile says so),
and coups are dealt P, B, P, B plus third cards (Arts. 10-11) until the round in which the
cut card comes out, the last of its shoe (Art. 6), exactly as ``croupier.games.baccarat``
deals from ``Shoe.shuffled``. (The engine also cuts the shuffled cards, a rotation of a
uniform order: still a uniform order, so the kernel leaves it out.) A block that reaches its
``rounds`` mid-shoe stops there; the next block opens a new shoe.

Nothing of the rules is written again here: ``BaccaratTables.of`` reads every table the
kernel uses from the engine's own functions: card points and burn counts
(``croupier.hands.baccarat``), pairs (``croupier.games.baccarat.is_pair``), the tableau
(``player_draws``, ``banker_draws``) and each wager's settlement per coup outcome
(``settle_wager`` over every final total and pair, so the paytable and the Dragon Six 1:2
Banker six come from the profile).

The kernel only counts coups by outcome (final totals and both pairs: 400 outcomes); the
Tally's sums follow from those counts and the settlement table. With counting on it also
keeps, before each coup, the tie count's true count and the exact pair probability of the
unseen cards (``croupier.simulation.baccarat_counting``), and counts outcomes by them.

>>> from croupier.rules.registry import load_profile_of
>>> class Seed:  # a SeedSequence in practice
...     def generate_state(self, n_words: int, dtype: type) -> npt.NDArray[np.uint64]:
...         return np.array([7, 11], dtype=dtype)
>>> profile = load_profile_of("baccarat", "dragon-six-peru-2016")
>>> tally = simulate_baccarat(profile, 10_000, Seed(), players=1)
>>> tally.wagers, tally.denominator, tally.rounds
(('player', 'banker', 'tie', 'player_pair', 'banker_pair'), 2, 10000)
>>> again = simulate_baccarat(profile, 10_000, Seed(), players=1)  # the seed decides all
>>> again.figures() == tally.figures()
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.cards import FULL_DECK
from croupier.errors import ProfileError
from croupier.games.baccarat import decide_coup, is_pair, settle_wager
from croupier.hands.baccarat import POINT_VALUES, banker_draws, burn_count, player_draws, points
from croupier.rules.baccarat import BaccaratRules, BaccaratWager
from croupier.simulation.baccarat_counting import (
    PAIR_BUCKETS,
    SYSTEM,
    TIE_COUNT,
    TRUE_COUNT_LIMIT,
    BaccaratCounting,
    CountTables,
    count_tables,
)
from croupier.simulation.game_tally import BaccaratTally, timed
from croupier.simulation.kernel_random import SeedStream, shuffle, state_of
from croupier.simulation.tally import Tally

WAGERS: tuple[str, ...] = tuple(wager.value for wager in BaccaratWager)
"""The Tally's wagers, by their profile names, in the engine's settlement order."""
PAIR_WAGERS = (BaccaratWager.PLAYER_PAIR.value, BaccaratWager.BANKER_PAIR.value)
OUTCOMES = 400
"""Coup outcomes: ``((player_total * 10 + banker_total) * 2 + player_pair) * 2 + banker_pair``."""
STOOD = 10
"""The tableau's column for "Player stood" (third-card values are 0-9)."""
MOST_CARDS_PER_COUP = 6


def outcome_index(
    player_total: int, banker_total: int, player_pair: bool, banker_pair: bool
) -> int:
    return ((player_total * 10 + banker_total) * 2 + int(player_pair)) * 2 + int(banker_pair)


IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class BaccaratTables:
    """A profile's rules as the kernel's arrays, every entry read from the engine."""

    decks: int
    cut_card_at: int
    """Cards dealt when the cut card comes out (``decks x 52 - cut_card_from_bottom``)."""
    burns: bool
    points: IntArray
    """Per card index (``Card.index``): its baccarat points (Art. 10)."""
    burn_counts: IntArray
    """Per card index: how many more cards it burns as the first card of a shoe (Art. 6 d))."""
    pairs: BoolArray
    """``[first, second]``: the two cards make a pair (Art. 8 d), ``pair_by``)."""
    player_draws: BoolArray
    """``[player two-card total, banker two-card total]``: Player takes a third card."""
    banker_draws: BoolArray
    """``[banker two-card total, player two-card total, player third value or STOOD]``."""
    nets: IntArray
    """``[outcome, wager]``: the net of one unit staked, in ``1 / denominator`` units."""
    denominator: int

    @classmethod
    def of(cls, profile: BaccaratRules) -> BaccaratTables:
        if not isinstance(profile, BaccaratRules):
            raise ProfileError(f"profile {getattr(profile, 'name', profile)!r} is not baccarat")
        size = profile.decks * 52
        if profile.shoe.cut_card_from_bottom < MOST_CARDS_PER_COUP:
            raise ProfileError(
                f"shoe.cut_card_from_bottom {profile.shoe.cut_card_from_bottom}: the simulator "
                f"needs at least {MOST_CARDS_PER_COUP} cards behind the cut card for the last coup"
            )
        card_points = np.array([points(card) for card in FULL_DECK], dtype=np.int64)
        burn_counts = np.array([burn_count(card) for card in FULL_DECK], dtype=np.int64)
        pairs = np.array(
            [[is_pair((a, b), profile.pair_by) for b in FULL_DECK] for a in FULL_DECK],
            dtype=np.bool_,
        )
        player_table = np.array(
            [[player_draws(p, b) for b in POINT_VALUES] for p in POINT_VALUES], dtype=np.bool_
        )
        banker_table = np.zeros((10, 10, 11), dtype=np.bool_)
        for b in POINT_VALUES:
            for p in POINT_VALUES:
                banker_table[b, p, STOOD] = banker_draws(b, p, None)
                for third in POINT_VALUES:
                    banker_table[b, p, third] = banker_draws(b, p, third)
        fractions = _settlement_nets(profile)
        denominator = math.lcm(*(net.denominator for row in fractions for net in row))
        nets = np.array(
            [[int(net * denominator) for net in row] for row in fractions], dtype=np.int64
        )
        return cls(
            decks=profile.decks,
            cut_card_at=size - profile.shoe.cut_card_from_bottom,
            burns=profile.shoe.burn_by_first_card_value,
            points=card_points,
            burn_counts=burn_counts,
            pairs=pairs,
            player_draws=player_table,
            banker_draws=banker_table,
            nets=nets,
            denominator=denominator,
        )

    def pair_returns(self) -> IntArray:
        """Per pair bet (player, banker): what a win returns, stake included, in
        ``1 / denominator`` units (the bet is worth making when the chance of the pair times
        this exceeds ``denominator``)."""
        return np.array(
            [int(self.nets[:, WAGERS.index(w)].max()) + self.denominator for w in PAIR_WAGERS],
            dtype=np.int64,
        )

    def tally(self, outcome_counts: IntArray) -> Tally:
        """The Tally of coups counted by outcome (one unit on every wager every coup)."""
        counts = np.asarray(outcome_counts, dtype=np.int64).reshape(OUTCOMES)
        rounds = int(counts.sum())
        nets = self.nets
        totals = nets.sum(axis=1)
        sums = np.stack(
            [
                np.full(len(WAGERS), rounds, dtype=np.int64),
                counts @ nets,
                counts @ (nets * nets),
                counts @ (nets > 0).astype(np.int64),
            ]
        )
        return Tally.from_sums(
            WAGERS,
            self.denominator,
            rounds=rounds,
            hands=rounds,
            sums=sums,
            total_net=int(counts @ totals),
            total_net_squared=int(counts @ (totals * totals)),
        )


def _settlement_nets(profile: BaccaratRules) -> list[list[Fraction]]:
    """Per outcome, per wager: the engine's payout of a stake of 1, minus the stake."""
    rows = []
    for player in POINT_VALUES:
        for banker in POINT_VALUES:
            coup = decide_coup(player, banker)
            for player_pair in (False, True):
                for banker_pair in (False, True):
                    rows.append(
                        [
                            settle_wager(
                                profile,
                                wager,
                                Fraction(1),
                                coup,
                                player_pair=player_pair,
                                banker_pair=banker_pair,
                            )[0]
                            - 1
                            for wager in BaccaratWager
                        ]
                    )
    return rows


def _no_count() -> CountTables:
    return CountTables(np.zeros(52, dtype=np.int64), 0, 1)


class KernelRun(NamedTuple):
    """What ``run_kernel`` counted (the count's arrays stay zero with counting off)."""

    by_true_count: IntArray
    """``[true count bucket, outcome]`` (a single bucket with counting off)."""
    by_pair: IntArray
    """``[pair probability bucket, player pair, banker pair]``."""
    when_positive: IntArray
    """``[side (player pair, banker pair), that side paired]``: coups where the side's pair
    bet had a positive expectation by the exact pair probability of the unseen cards."""
    trace_rounds: IntArray
    """Per coup: shoe, first position, cards used, outcome, true count bucket, pair bucket,
    positive pair bets (bit 0 player, bit 1 banker)."""
    trace_shoes: npt.NDArray[np.int8]


def run_kernel(
    tables: BaccaratTables,
    rounds: int,
    seed: SeedStream,
    *,
    count: CountTables | None = None,
    trace: bool = False,
) -> KernelRun:
    """Deal ``rounds`` coups from ``seed`` (see ``KernelRun``)."""
    if rounds < 0:
        raise ValueError(f"rounds: at least 0, not {rounds}")
    counting = count is not None
    used = count if count is not None else _no_count()
    size = tables.decks * 52
    by_true_count = np.zeros((2 * used.true_count_limit + 1, OUTCOMES), dtype=np.int64)
    by_pair = np.zeros((used.pair_buckets, 2, 2), dtype=np.int64)
    when_positive = np.zeros((2, 2), dtype=np.int64)
    most_rounds_per_shoe_low = max(1, (tables.cut_card_at - 11) // MOST_CARDS_PER_COUP)
    shoes_bound = rounds // most_rounds_per_shoe_low + 2 if trace else 0
    trace_rounds = np.zeros((rounds if trace else 0, 7), dtype=np.int64)
    trace_shoes = np.zeros((shoes_bound, size), dtype=np.int8)
    _deal_shoes(
        state_of(seed), rounds, tables.decks, tables.cut_card_at, tables.burns, tables.points,
        tables.burn_counts, tables.pairs, tables.player_draws, tables.banker_draws, counting,
        used.tags, used.true_count_limit, used.pair_buckets, tables.pair_returns(),
        tables.denominator, by_true_count, by_pair, when_positive, trace_rounds, trace_shoes,
    )  # fmt: skip
    return KernelRun(by_true_count, by_pair, when_positive, trace_rounds, trace_shoes)


_TABLES: dict[str, BaccaratTables] = {}


def tables_of(profile: BaccaratRules) -> BaccaratTables:
    """``BaccaratTables.of(profile)``, built once per profile in a process (every block of
    a run asks for them)."""
    key = profile.model_dump_json()
    if key not in _TABLES:
        _TABLES[key] = BaccaratTables.of(profile)
    return _TABLES[key]


def simulate_baccarat(
    profile: BaccaratRules,
    rounds: int,
    seed: SeedStream,
    players: int,
    count: str | None = None,
) -> BaccaratTally:
    """``rounds`` coups from whole shoes dealt from ``seed``, one unit on every wager.

    ``players``: the zones betting (1 to ``profile.zones``). Every zone bets on the same coup
    and the coup takes its cards whatever the bets, so the zones change nothing of the deal:
    the Tally is the one coup's, and ``hands`` counts each coup once. ``count``: the name of
    baccarat's count (``croupier.simulation.baccarat_counting.SYSTEM``), kept before every
    coup; the same seed deals the same coups with or without it.
    """
    from croupier.simulation.blackjack_sim import SimulationError

    if not 1 <= players <= profile.zones:
        raise SimulationError(f"--players: 1 to {profile.zones} zones, not {players}")
    if count is not None and count != SYSTEM:
        raise SimulationError(f"--count {count!r}: baccarat's count is {SYSTEM!r}")
    tables = tables_of(profile)
    counter = count_tables() if count is not None else None
    run_kernel(tables, 0, seed, count=counter)  # compiled (or loaded) outside the clock
    with timed() as clock:
        run = run_kernel(tables, rounds, seed, count=counter)
    counting = (
        BaccaratCounting(run.by_true_count, run.by_pair, run.when_positive)
        if count is not None
        else None
    )
    tally: BaccaratTally = BaccaratTally.of(
        tables.tally(run.by_true_count.sum(axis=0)), clock[0], counting=counting
    )
    return tally


@njit(cache=True, nogil=True)
def _deal_shoes(  # noqa: PLR0917 - numba takes positional arguments  # pragma: no cover
    state: npt.NDArray[np.uint64],
    rounds: int,
    decks: int,
    cut_card_at: int,
    burns: bool,
    card_points: IntArray,
    burn_counts: IntArray,
    pairs: BoolArray,
    player_table: BoolArray,
    banker_table: BoolArray,
    counting: bool,
    tags: IntArray,
    true_count_limit: int,
    pair_buckets: int,
    pair_returns: IntArray,
    denominator: int,
    by_true_count: IntArray,
    by_pair: IntArray,
    when_positive: IntArray,
    trace_rounds: IntArray,
    trace_shoes: npt.NDArray[np.int8],
) -> int:
    size = decks * 52
    shoe = np.empty(size, dtype=np.int64)
    for i in range(size):
        shoe[i] = i % 52
    tracing = trace_rounds.shape[0] > 0
    rank_left = np.zeros(13, dtype=np.int64)
    done = 0
    shoes = 0
    while done < rounds:
        shuffle(state, shoe)  # Art. 6 a): a new shoe, shuffled
        if tracing:
            for i in range(size):
                trace_shoes[shoes, i] = shoe[i]
        position = 0
        # The counter's view: every card seen so far (the burnt ones are face down).
        running = 0
        unseen = size
        pair_sum = 0  # sum over ranks of n (n - 1) for the unseen cards
        if counting:
            for rank in range(13):
                rank_left[rank] = 4 * decks
                pair_sum += 4 * decks * (4 * decks - 1)
        if burns:  # Art. 6 d): the first card is shown; its value is how many more burn
            first = shoe[0]
            position = 1 + burn_counts[first]
            if counting:
                running += tags[first]
                unseen -= 1
                pair_sum -= 2 * (rank_left[first >> 2] - 1)
                rank_left[first >> 2] -= 1
        while True:
            start = position
            true_bucket = 0
            pair_bucket = 0
            positive = 0
            if counting:
                # In integers, so that a count on a bucket's edge falls as the exact one does:
                # the true count rounded half up, the pair probability's bucket floored.
                rounded = (2 * 52 * running + unseen) // (2 * unseen)
                rounded = max(-true_count_limit, min(true_count_limit, rounded))
                true_bucket = rounded + true_count_limit
                pair_bucket = (4 * pair_buckets * pair_sum) // (unseen * (unseen - 1))
                pair_bucket = min(pair_buckets - 1, pair_bucket)
                # A pair bet is worth making when P(pair) x its return exceeds the stake.
                for side in range(2):
                    if pair_sum * pair_returns[side] > denominator * unseen * (unseen - 1):
                        positive |= 1 << side
            player_first = shoe[position]
            banker_first = shoe[position + 1]
            player_second = shoe[position + 2]
            banker_second = shoe[position + 3]
            position += 4
            player_two = (card_points[player_first] + card_points[player_second]) % 10
            banker_two = (card_points[banker_first] + card_points[banker_second]) % 10
            player_final = player_two
            banker_final = banker_two
            third = 10  # STOOD
            if player_table[player_two, banker_two]:
                third = card_points[shoe[position]]
                position += 1
                player_final = (player_two + third) % 10
            if banker_table[banker_two, player_two, third]:
                banker_final = (banker_two + card_points[shoe[position]]) % 10
                position += 1
            player_pair = 1 if pairs[player_first, player_second] else 0
            banker_pair = 1 if pairs[banker_first, banker_second] else 0
            outcome = ((player_final * 10 + banker_final) * 2 + player_pair) * 2 + banker_pair
            by_true_count[true_bucket, outcome] += 1
            if counting:
                by_pair[pair_bucket, player_pair, banker_pair] += 1
                if positive & 1:
                    when_positive[0, player_pair] += 1
                if positive & 2:
                    when_positive[1, banker_pair] += 1
                for i in range(start, position):
                    card = shoe[i]
                    running += tags[card]
                    pair_sum -= 2 * (rank_left[card >> 2] - 1)
                    rank_left[card >> 2] -= 1
                unseen -= position - start
            if tracing:
                trace_rounds[done, 0] = shoes
                trace_rounds[done, 1] = start
                trace_rounds[done, 2] = position - start
                trace_rounds[done, 3] = outcome
                trace_rounds[done, 4] = true_bucket
                trace_rounds[done, 5] = pair_bucket
                trace_rounds[done, 6] = positive
            done += 1
            # Art. 6: the round in which the cut card came out was the shoe's last.
            if done == rounds or position >= cut_card_at:
                break
        shoes += 1
    return shoes


# --- the count's figures (``croupier.simulation.baccarat_counting``) -------------------------
def counting_figures(counting: BaccaratCounting, tables: BaccaratTables) -> dict[str, Any]:
    """The JSON's ``"counting"``: each wager's EV per true count of the tie count, and the
    pair bets' EV per pair probability, with how often each arises."""
    rounds = int(counting.by_true_count.sum())
    unit = tables.denominator
    by_count = []
    for bucket, counts in enumerate(counting.by_true_count):
        seen = int(counts.sum())
        if not seen:
            continue
        nets = counts @ tables.nets
        by_count.append(
            {
                "true_count": bucket - TRUE_COUNT_LIMIT,
                "rounds": seen,
                "frequency": seen / rounds,
                "ev_per_round": {
                    wager: int(nets[i]) / unit / seen for i, wager in enumerate(WAGERS)
                },
            }
        )
    by_pair = []
    for bucket, counts in enumerate(counting.by_pair):
        seen = int(counts.sum())
        if not seen:
            continue
        hits = {"player_pair": int(counts[1].sum()), "banker_pair": int(counts[:, 1].sum())}
        by_pair.append(
            {
                "pair_probability": [
                    bucket / (4 * PAIR_BUCKETS),
                    (bucket + 1) / (4 * PAIR_BUCKETS),
                ],
                "rounds": seen,
                "frequency": seen / rounds,
                "ev_per_round": {
                    wager: _pair_net(tables, wager, hit, seen) / unit / seen
                    for wager, hit in hits.items()
                },
            }
        )
    when_positive: dict[str, dict[str, Any]] = {}
    for side, wager in enumerate(PAIR_WAGERS):
        seen = int(counting.when_positive[side].sum())
        paired = int(counting.when_positive[side, 1])
        ev = _pair_net(tables, wager, paired, seen) / unit / seen if seen else None
        when_positive[wager] = {
            "rounds": seen,
            "frequency": seen / rounds if rounds else 0.0,
            "ev_per_bet": ev,
            "ev_per_round_betting_only_then": (ev or 0.0) * seen / rounds if rounds else 0.0,
        }
    return {
        "system": SYSTEM,
        "tags": {str(value): tag for value, tag in sorted(TIE_COUNT.items())},
        "true_count": "running count per 52 unseen cards, rounded; the burnt cards unseen",
        "by_true_count": by_count,
        "pairs": "exact pair probability of the unseen cards, in steps of 1/400",
        "by_pair_probability": by_pair,
        "pairs_when_positive": when_positive,
    }


def _pair_net(tables: BaccaratTables, wager: str, hits: int, rounds: int) -> int:
    """A pair bet's summed net over ``rounds`` coups with ``hits`` pairs (its nets read from
    the settlement table: the win where it pays, the stake lost elsewhere)."""
    column = tables.nets[:, WAGERS.index(wager)]
    return hits * int(column.max()) + (rounds - hits) * int(column.min())


def simulate_baccarat_counting(
    profile: BaccaratRules, rounds: int, seed: SeedStream, players: int
) -> BaccaratCounting:
    """As ``simulate_baccarat`` with the count kept: the coups by count."""
    counting = simulate_baccarat(profile, rounds, seed, players, count=SYSTEM).counting
    assert counting is not None
    return counting
