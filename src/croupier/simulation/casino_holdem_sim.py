"""Casino Hold'em, compiled: games dealt from a seed, the Ante + Bet and the progressive.

Each game shuffles one 52-card deck inside the kernel (Art. 7: a full shuffle before every
game; Fisher-Yates over the positions the game deals, which leaves those cards uniformly
drawn, as the engine's full shuffle and cut do) and deals it exactly as
``CasinoHoldemRound`` does, through ``croupier.simulation.casino_holdem.play_game``: each
box's two cards and the dealer's in two rounds, a burn, the flop, a burn, the turn and the
river (Arts. 12-13). ``players`` boxes are in play; box 1 is the simulated player, whose
wagers the Tally holds, and every box's cards leave the deck. The other boxes play the same
progressive (so that they feed the meter and can empty it, in zone order, as at the table)
and their Ante games are not settled: their cards are dealt whatever they decide.

Wagers (the names ``croupier analyze`` gives them): ``ante``, the Ante + Bet game per unit
of Ante (a fold loses the Ante; a call adds ``call_multiple`` Antes: Art. 13 d), and
``progressive``, per unit staked. Strategies (``STRATEGIES``): ``optimal`` (the exact
optimal call/fold of ``analyze``, ``casino_holdem_strategy``), ``always-call``, and
``computer`` (the ``croupier play`` computer player's rule: a pair or better on hole cards
and flop, or an Ace or a King in hand); or the path of a user's call rule, a ``.toml`` file
(``croupier.simulation.casino_holdem.CallRule``).

The progressive (docs/rules.md §5 decision, the profile's values): every box's stake feeds
``meter_contribution`` of itself to the meter before any prize; prizes go in zone order on
each box's best five of hole cards and flop: a share of the meter as it then stands, or
fixed units; a prize that empties the meter restarts it at ``meter_seed``. The kernel counts
the meter in whole units of ``1 / denominator`` (the Tally's unit: the least common multiple
of the paytable's, the contribution's and the shares' denominators), so a contribution and
a first share are exact; where a share of the meter is not a whole number of those units,
the prize is rounded down to one and the remainder stays in the meter (the engine keeps
exact fractions; the differential test checks the two agree to that unit).

Each block's meter opens where a table's meter stands in the long run: a warm-up replays
the meter alone over enough earlier games (``warm_up_games``: twenty times the expected
games for the shares to take the whole meter once), drawing the rare share prizes from the
exact five-card category frequencies, boxes taken as independent; ``meter="seed"`` opens
every block at ``meter_seed`` instead (the state the profile gives a new table).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.analysis.casino_holdem import five_card_category_counts
from croupier.errors import ProfileError
from croupier.hands.poker import CATEGORY_OF_CODE, CATEGORY_SHIFT, strength_of
from croupier.rules.casino_holdem import CasinoHoldemRules, PokerCategory
from croupier.simulation.casino_holdem import (
    ALWAYS_CALL,
    COMPUTER,
    OPTIMAL,
    RULE,
    CallRule,
    Paytable,
    kernel_rule,
    load_call_rule,
    play_game,
)
from croupier.simulation.casino_holdem_strategy import OptimalCalls, optimal_calls
from croupier.simulation.game_tally import CasinoHoldemTally, timed
from croupier.simulation.kernel_random import SeedStream, next_word, state_of, uniform_below
from croupier.simulation.tally import Tally

WAGERS = ("ante", "progressive")
STRATEGIES = {"optimal": OPTIMAL, "always-call": ALWAYS_CALL, "computer": COMPUTER}
"""Strategy names (``--strategy``) and their kernel codes."""
NO_PRIZE, METER_SHARE, FIXED_UNITS = 0, 1, 2
WARM_UP_TURNOVERS = 20
TRACE_COLUMNS = 5
"""A traced game: meter before, ante net, progressive net, called (0/1), meter after."""

IntArray = npt.NDArray[np.int64]


@cache
def _five_card_counts() -> tuple[int, ...]:
    """How many of the C(52, 5) hands fall in each category, by ``PokerCategory`` order."""
    return tuple(int(count) for count in five_card_category_counts())


@dataclass(frozen=True)
class ProgressiveTables:
    """The progressive paytable and meter as integers of ``1 / denominator`` units."""

    denominator: int
    stake: int
    """The progressive stake (``progressive.bet``) in ``1 / denominator`` units."""
    contribution: int
    """What one stake feeds the meter, in ``1 / denominator`` units."""
    seed: int
    kind: IntArray
    """Per category code (``croupier.hands.poker``): no prize, a meter share or fixed units."""
    numerator: IntArray
    share_denominator: IntArray
    units: IntArray
    """Fixed prizes in ``1 / denominator`` units."""
    event_counts: IntArray
    """Per code: five-card hands of the category if it pays a meter share, else 0."""

    @classmethod
    def of(cls, profile: CasinoHoldemRules, ante_denominator: int) -> ProgressiveTables:
        progressive = profile.progressive
        contribution = progressive.meter_contribution * progressive.bet
        shares = [
            prize.meter_share
            for prize in progressive.paytable.values()
            if prize.meter_share is not None
        ]
        denominator = math.lcm(
            ante_denominator,
            contribution.denominator * math.lcm(*(share.denominator for share in shares)),
        )
        counts = _five_card_counts()
        order = tuple(PokerCategory)
        kind = np.zeros(10, dtype=np.int64)
        numerator = np.zeros(10, dtype=np.int64)
        share_denominator = np.ones(10, dtype=np.int64)
        units = np.zeros(10, dtype=np.int64)
        event_counts = np.zeros(10, dtype=np.int64)
        for code, category in enumerate(CATEGORY_OF_CODE):
            prize = progressive.paytable.get(category)
            if prize is None:
                continue
            if prize.meter_share is not None:
                kind[code] = METER_SHARE
                numerator[code] = prize.meter_share.numerator
                share_denominator[code] = prize.meter_share.denominator
                event_counts[code] = counts[order.index(category)]
            else:
                kind[code] = FIXED_UNITS
                units[code] = (prize.units or 0) * denominator
        return cls(
            denominator=denominator,
            stake=progressive.bet * denominator,
            contribution=int(contribution * denominator),
            seed=progressive.meter_seed * denominator,
            kind=kind,
            numerator=numerator,
            share_denominator=share_denominator,
            units=units,
            event_counts=event_counts,
        )

    def warm_up_games(self, players: int) -> int:
        """Games after which the meter has forgotten where it started (see the module)."""
        hands = sum(_five_card_counts())
        rate = players * sum(
            Fraction(int(count), hands) * Fraction(int(n), int(d))
            for count, n, d in zip(
                self.event_counts, self.numerator, self.share_denominator, strict=True
            )
        )
        return 0 if rate == 0 else math.ceil(WARM_UP_TURNOVERS / rate)


@dataclass(frozen=True)
class CasinoHoldemSetup:
    """Everything the kernel reads, from the profile and the strategy."""

    paytable: Paytable
    progressive: ProgressiveTables
    strategy: int
    lookup: OptimalCalls
    rule: IntArray
    """The call rule the kernel reads (``CallRule.as_kernel``; the computer's unless ``RULE``)."""

    @classmethod
    def of(cls, profile: CasinoHoldemRules, strategy: str) -> CasinoHoldemSetup:
        """``strategy``: a name of ``STRATEGIES`` or the path of a ``.toml`` call rule."""
        if not isinstance(profile, CasinoHoldemRules):
            raise ProfileError(
                f"profile {getattr(profile, 'name', profile)!r} is not casino-holdem"
            )
        rule: CallRule | None = None
        if strategy.endswith(".toml"):
            rule = load_call_rule(Path(strategy))
            code = RULE
        elif strategy in STRATEGIES:
            code = STRATEGIES[strategy]
        else:
            known = ", ".join(STRATEGIES)
            raise ValueError(
                f"unknown Casino Hold'em strategy {strategy!r} (known: {known}, or a .toml rule)"
            )
        paytable = Paytable.of(profile)
        lookup = optimal_calls(profile) if code == OPTIMAL else OptimalCalls.unused()
        return cls(
            paytable,
            ProgressiveTables.of(profile, paytable.denominator),
            code,
            lookup,
            kernel_rule(code, rule),
        )

    @property
    def denominator(self) -> int:
        return self.progressive.denominator


def run_kernel(
    setup: CasinoHoldemSetup,
    rounds: int,
    seed: SeedStream,
    players: int,
    *,
    meter: Literal["long-run", "seed"] = "long-run",
    trace: bool = False,
) -> CasinoHoldemRun:
    """``rounds`` games: the Tally, the meter box 1 met, and with ``trace`` each game's deck
    and its row (``TRACE_COLUMNS``; amounts in ``1 / setup.denominator`` units)."""
    if rounds < 0:
        raise ValueError(f"rounds: at least 0, not {rounds}")
    if not 1 <= players <= 7:
        raise ValueError(f"players: 1 to 7 boxes, not {players}")
    progressive = setup.progressive
    paytable = setup.paytable
    lookup = setup.lookup
    warm_up = progressive.warm_up_games(players) if meter == "long-run" else 0
    sums = np.zeros((4, len(WAGERS)), dtype=np.int64)
    totals = np.zeros(3, dtype=np.int64)
    trace_decks = np.zeros((rounds if trace else 0, 52), dtype=np.int8)
    trace_rows = np.zeros((rounds if trace else 0, TRACE_COLUMNS), dtype=np.int64)
    _simulate(
        state_of(seed), rounds, players, warm_up, setup.strategy,
        paytable.denominator, paytable.ante_wins, paytable.call_wins, paytable.call_multiple,
        paytable.qualifying_strength, paytable.even_money_when_not_qualified,
        lookup.calls, lookup.symmetries.flop_class, lookup.symmetries.permutation,
        lookup.symmetries.canonical, setup.rule,
        progressive.denominator // paytable.denominator, progressive.stake,
        progressive.contribution, progressive.seed, progressive.kind, progressive.numerator,
        progressive.share_denominator, progressive.units, progressive.event_counts,
        sums, totals, trace_decks, trace_rows,
    )  # fmt: skip
    tally = Tally.from_sums(
        WAGERS,
        progressive.denominator,
        rounds=rounds,
        hands=rounds,
        sums=sums,
        total_net=int(totals[0]),
        total_net_squared=int(totals[1]),
    )
    return CasinoHoldemRun(
        tally, Fraction(int(totals[2]), progressive.denominator), trace_decks, trace_rows
    )


@dataclass(frozen=True)
class CasinoHoldemRun:
    """A kernel run: the Tally, the meter box 1's progressive was settled on (summed over
    games: the progressive's return is linear in it, so ``analyse_progressive`` at its mean
    is the exact figure to compare with), and the trace if asked for."""

    tally: Tally
    meter_seen_total: Fraction
    trace_decks: npt.NDArray[np.int8]
    trace_rows: IntArray

    @property
    def mean_meter(self) -> Fraction:
        return self.meter_seen_total / max(1, self.tally.rounds)


_SETUPS: dict[tuple[str, str], CasinoHoldemSetup] = {}


def setup_of(profile: CasinoHoldemRules, strategy: str) -> CasinoHoldemSetup:
    """``CasinoHoldemSetup.of``, built once per profile and strategy in a process (the
    optimal decisions load from disk once, not once per block)."""
    key = (profile.model_dump_json(), strategy)
    if key not in _SETUPS:
        _SETUPS[key] = CasinoHoldemSetup.of(profile, strategy)
    return _SETUPS[key]


def verify_boxes(profile: CasinoHoldemRules, players: int) -> None:
    """Refuse a number of boxes the layout does not have (one to seven), before anything is
    computed: the optimal strategy's exact table costs minutes the first time."""
    from croupier.simulation.blackjack_sim import SimulationError

    if not 1 <= players <= min(7, profile.zones):
        raise SimulationError(f"--players: 1 to {min(7, profile.zones)} boxes, not {players}")


def simulate_casino_holdem(
    profile: CasinoHoldemRules,
    rounds: int,
    seed: SeedStream,
    players: int,
    strategy: str,
    *,
    meter: Literal["long-run", "seed"] = "long-run",
) -> CasinoHoldemTally:
    """``rounds`` games from ``seed`` with ``players`` boxes (box 1's wagers, one unit of
    Ante and the progressive each game), playing ``strategy`` (``STRATEGIES``; ``basic``,
    the simulator's default name, is the optimal strategy).

    Art. 9's two-player minimum is a live table's rule; the simulator deals the boxes asked
    for, one to seven (one is the heads-up game against the dealer)."""
    from croupier.simulation.blackjack_sim import SimulationError

    verify_boxes(profile, players)
    name = "optimal" if strategy == "basic" else strategy
    if name not in STRATEGIES and not name.endswith(".toml"):
        known = ", ".join(STRATEGIES)
        raise SimulationError(
            f"--strategy {strategy!r}: Casino Hold'em plays one of {known}, or a .toml call rule"
        )
    setup = setup_of(profile, name)
    run_kernel(setup, 0, seed, players, meter=meter)  # compiled (or loaded) outside the clock
    with timed() as clock:
        run = run_kernel(setup, rounds, seed, players, meter=meter)
    tally: CasinoHoldemTally = CasinoHoldemTally.of(
        run.tally, clock[0], meter_seen_total=run.meter_seen_total
    )
    return tally


@njit(cache=True, nogil=True)
def _warm_meter(  # noqa: PLR0917 - numba takes positional arguments  # pragma: no cover
    state: npt.NDArray[np.uint64],
    games: int,
    players: int,
    contribution: int,
    seed: int,
    numerator: IntArray,
    share_denominator: IntArray,
    event_counts: IntArray,
) -> int:
    """The meter after ``games`` earlier games from ``seed``: only the meter-share prizes
    change it beyond the contributions; the gaps between them are geometric."""
    meter = seed
    if games == 0:
        return meter
    events = 0
    for code in range(10):
        events += event_counts[code]
    probability = events / 2598960.0
    log_miss = np.log1p(-probability)
    hands = games * players
    hand = 0
    fed_through = -1
    while True:
        uniform = ((next_word(state) >> np.uint64(11)) + np.uint64(1)) * (1.0 / 9007199254740992.0)
        hand += int(np.floor(np.log(uniform) / log_miss))
        if hand >= hands:
            break
        game = hand // players
        meter += (game - fed_through) * players * contribution  # fed before any prize
        fed_through = game
        pick = uniform_below(state, events)
        code = 0
        while pick >= event_counts[code]:
            pick -= event_counts[code]
            code += 1
        meter -= meter * numerator[code] // share_denominator[code]
        if meter == 0:
            meter = seed
        hand += 1
    return meter + (games - 1 - fed_through) * players * contribution


@njit(cache=True, nogil=True)
def _simulate(  # noqa: PLR0917 - numba takes positional arguments  # pragma: no cover
    state: npt.NDArray[np.uint64],
    rounds: int,
    players: int,
    warm_up: int,
    strategy: int,
    ante_denominator: int,
    ante_wins: IntArray,
    call_wins: int,
    call_multiple: int,
    qualifying_strength: int,
    even_money: bool,
    calls: npt.NDArray[np.bool_],
    flop_class: IntArray,
    permutation: IntArray,
    canonical: IntArray,
    rule: IntArray,
    ante_scale: int,
    stake: int,
    contribution: int,
    seed: int,
    kind: IntArray,
    numerator: IntArray,
    share_denominator: IntArray,
    units: IntArray,
    event_counts: IntArray,
    sums: IntArray,
    totals: IntArray,
    trace_decks: npt.NDArray[np.int8],
    trace_rows: IntArray,
) -> int:
    meter = _warm_meter(
        state, warm_up, players, contribution, seed, numerator, share_denominator, event_counts
    )
    tracing = trace_rows.shape[0] > 0
    deck = np.arange(52, dtype=np.int64)
    needed = 2 * (players + 1) + 7
    holes = np.empty((players, 2), dtype=np.int64)
    dealer = np.empty(7, dtype=np.int64)
    five = np.empty(5, dtype=np.int64)
    seven = np.empty(7, dtype=np.int64)
    nets = np.zeros(players, dtype=np.int64)
    for game in range(rounds):
        for i in range(needed):  # Art. 7: the cards this game deals, uniformly drawn
            j = i + uniform_below(state, 52 - i)
            held = deck[i]
            deck[i] = deck[j]
            deck[j] = held
        play_game(
            deck, players, 1, strategy, ante_denominator, ante_wins, call_wins, call_multiple,
            qualifying_strength, even_money, calls, flop_class, permutation, canonical, rule,
            holes, dealer, five, seven, nets,
        )  # fmt: skip
        ante = nets[0] * ante_scale
        # The progressive: every box's stake feeds the meter, then prizes in zone order.
        before = meter
        meter += players * contribution
        progressive = -stake
        totals[2] += meter  # what box 1's prize is a share of
        for zone in range(players):
            five[0] = holes[zone, 0]
            five[1] = holes[zone, 1]
            five[2] = dealer[2]
            five[3] = dealer[3]
            five[4] = dealer[4]
            code = strength_of(five) >> CATEGORY_SHIFT
            prize = 0
            if kind[code] == METER_SHARE:
                prize = meter * numerator[code] // share_denominator[code]
                meter -= prize
                if meter == 0:
                    meter = seed
            elif kind[code] == FIXED_UNITS:
                prize = units[code]
            if zone == 0:
                progressive += prize
        sums[1, 0] += ante
        sums[2, 0] += ante * ante
        sums[1, 1] += progressive
        sums[2, 1] += progressive * progressive
        if ante > 0:
            sums[3, 0] += 1
        if progressive > 0:
            sums[3, 1] += 1
        total = ante + progressive
        totals[0] += total
        totals[1] += total * total
        if tracing:
            for i in range(52):
                trace_decks[game, i] = deck[i]
            trace_rows[game, 0] = before
            trace_rows[game, 1] = ante
            trace_rows[game, 2] = progressive
            trace_rows[game, 3] = 0 if nets[0] == -ante_denominator else 1
            trace_rows[game, 4] = meter
    sums[0, 0] = rounds
    sums[0, 1] = rounds
    return meter
