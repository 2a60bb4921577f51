"""Blackjack simulated: the rule tables for the kernel, derived from the profile and the chart.

``simulate_blackjack(profile, rounds, seed, players, strategy, counting)`` deals one block of
rounds with ``croupier.simulation.blackjack_kernel`` and returns its ``BlackjackTally``. Every
table the kernel reads comes from the profile (payouts, the 21+3 paytable through
``classify_three_card``) or from a chart (``BlackjackStrategy``: by default ``analyze``'s
derived basic strategy, ``croupier.analysis.blackjack.derive_strategy``); nothing is written
here by hand.

Wagers, each staked one unit every round: ``main``, ``21+3`` (where the profile has it) and
``insurance`` (``insurance_max`` of the main bet when the rule takes it; its figures are per
unit insured, the round's total counts the amount actually insured). Figures are per box and
round (a box's round, split or not, is one hand).

>>> from croupier.rules import load_profile
>>> profile = load_profile("peru-2016")
>>> strategy = BlackjackStrategy.basic(profile)
>>> tally = simulate_blackjack(profile, 2_000, np.random.SeedSequence(7), 1, strategy, None)
>>> tally.rounds, tally.wagers, tally.denominator
(2000, ('main', '21+3', 'insurance'), 2)
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.blackjack import PAIR_ROWS, UP_LABELS, Game, Strategy, derive_strategy
from croupier.cards import Card, Rank, Suit
from croupier.counting import CountingSystem, IndexSet, load_index_set
from croupier.errors import CroupierError
from croupier.hands.three_card import classify_three_card
from croupier.rules.blackjack import (
    BlackjackRules,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    SplitBy,
    Surrender,
)
from croupier.simulation import blackjack_kernel as kernel
from croupier.simulation.tally import IntArray, Tally

WAGERS = ("main", "21+3", "insurance")
UNLIMITED_HANDS = 48
"""The array bound on hands per box where the profile sets no limit (never reached: a box
would need 47 re-splits)."""
TC_LOW = -20
TC_BINS = 41
"""True-count bins of the figures by count: -20 (and below) to +20 (and above)."""
PATHS_PER_BLOCK = 2
PATH_POINTS = 200

_LETTERS = {
    "S": kernel.STAND,
    "H": kernel.HIT,
    "D": kernel.DOUBLE,
    "Ds": kernel.DOUBLE_ELSE_STAND,
    "P": kernel.SPLIT,
    # docs/rules.md#D-BJ-33: surrender, else hit, stand or split where it is not allowed.
    "Rh": kernel.SURRENDER_ELSE_HIT,
    "Rs": kernel.SURRENDER_ELSE_STAND,
    "Rp": kernel.SURRENDER_ELSE_SPLIT,
}
_SURRENDER_ELSE = {
    "H": kernel.SURRENDER_ELSE_HIT,
    "S": kernel.SURRENDER_ELSE_STAND,
    "P": kernel.SURRENDER_ELSE_SPLIT,
}
"""An index play's ``R`` (the Fab 4) with the play below its count as what it does where
surrender is not allowed (a split hand, three cards)."""


class SimulationError(CroupierError, ValueError):
    """A simulation that cannot run as asked (a bad option, strategy file or ramp)."""


# --- the player's chart ---------------------------------------------------------------------


@dataclass(frozen=True)
class BlackjackStrategy:
    """The chart the simulated player follows, and its insurance and even-money rules.

    ``basic`` is ``croupier analyze``'s derived basic strategy for the profile; ``from_file``
    reads a user's chart in the JSON shape ``croupier analyze --json`` prints under
    ``strategy`` (``hard``/``soft``/``pairs`` rows keyed by the dealer's card 2..9, T, A,
    letters H S D Ds P, and Rh Rs Rp for late surrender, else hit, stand or split:
    docs/rules.md#D-BJ-33; ``insurance`` and ``even_money`` "take" or "decline").
    """

    name: str
    chart: Strategy

    @classmethod
    def basic(cls, profile: BlackjackRules) -> BlackjackStrategy:
        return cls("basic", derive_strategy(Game.of(profile)))

    @classmethod
    def from_file(cls, path: Path, profile: BlackjackRules) -> BlackjackStrategy:
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise SimulationError(f"strategy file {path}: {error}") from None
        if isinstance(document, dict) and "strategy" in document:
            document = document["strategy"]  # a whole ``analyze --json`` answer
        if not isinstance(document, dict):
            raise SimulationError(f"strategy file {path}: a JSON object of hard/soft/pairs")
        basic = derive_strategy(Game.of(profile))

        def rows(key: str, base: dict[Any, dict[str, str]]) -> dict[Any, dict[str, str]]:
            given = document.get(key, {})
            if not isinstance(given, dict):
                raise SimulationError(f"strategy file {path}: {key!r} is an object of rows")
            out = {row: dict(cells) for row, cells in base.items()}
            for row_key, cells in given.items():
                row = row_key if key == "pairs" else int(row_key)
                if row not in out or not isinstance(cells, dict):
                    raise SimulationError(f"strategy file {path}: no row {key} {row_key!r}")
                for up, letter in cells.items():
                    if up not in UP_LABELS or letter not in _LETTERS:
                        raise SimulationError(
                            f"strategy file {path}: {key} {row_key} v {up}: {letter!r} "
                            f"(dealer cards {' '.join(UP_LABELS)}; letters H S D Ds P Rh Rs Rp)"
                        )
                    out[row][up] = letter
            return out

        chart = Strategy(
            hard=rows("hard", basic.hard),
            soft=rows("soft", basic.soft),
            pairs=rows("pairs", basic.pairs),
            insurance=str(document.get("insurance", basic.insurance)),
            even_money=str(document.get("even_money", basic.even_money)),
        )
        return cls(path.name, chart)


# --- counting ---------------------------------------------------------------------------------

ESTIMATIONS = ("exact", "half-deck", "whole-deck")


def parse_ramp(text: str) -> tuple[tuple[Fraction, int], ...]:
    """``"1:1,2:2,3:4,4:8"``: bet 1 unit up to a true count of 1, 2 at 2, 4 at 3, 8 at 4 or
    more (below the first count, its bet). Counts may be negative or fractional (``-1:1``).

    >>> parse_ramp("1:1, 2:2, 4:8")
    ((Fraction(1, 1), 1), (Fraction(2, 1), 2), (Fraction(4, 1), 8))
    """
    steps: list[tuple[Fraction, int]] = []
    for part in text.split(","):
        count, sep, units = part.strip().partition(":")
        try:
            step = (Fraction(count.strip()), int(units))
        except ValueError:
            step = None
        if not sep or step is None or step[1] < 0:
            raise SimulationError(
                f"ramp step {part.strip()!r}: write TRUE_COUNT:UNITS, e.g. '1:1,2:2,3:4,4:8'"
            )
        steps.append(step)
    if [c for c, _ in steps] != sorted({c for c, _ in steps}):
        raise SimulationError(f"ramp {text!r}: true counts must rise step by step")
    return tuple(steps)


@dataclass(frozen=True)
class Counting:
    """A counter's play: the count, the bet ramp, the index plays, wonging, the horizon of
    the bankroll trajectories (rounds per simulated session)."""

    system: CountingSystem
    ramp: tuple[tuple[Fraction, int], ...] = ((Fraction(0), 1),)
    indices: IndexSet | None = None
    estimation: str = "half-deck"
    wong_in: float | None = None
    wong_out: float | None = None
    horizon: int = 10_000

    def __post_init__(self) -> None:
        if self.estimation not in ESTIMATIONS:
            raise SimulationError(
                f"deck estimation {self.estimation!r}: one of {', '.join(ESTIMATIONS)}"
            )
        if self.horizon < 0:
            raise SimulationError(f"horizon {self.horizon}: rounds per session, 0 or more")

    @classmethod
    def default_indices(cls, system: CountingSystem, *, surrender: bool) -> IndexSet | None:
        """The Illustrious 18 go with Hi-Lo, and with them the Fab 4 surrenders where the
        profile allows late surrender (``surrender``, docs/rules.md#D-BJ-32), Schlesinger's
        set for such a game; other counts play basic strategy by default."""
        if system.name != "hi-lo":
            return None
        return load_index_set("illustrious-18-fab-4" if surrender else "illustrious-18")


# --- what a block adds up to ----------------------------------------------------------------


@dataclass(frozen=True)
class CountingSums:
    """The counter's bet-weighted sums over a block (nets in ``1 / denominator`` units)."""

    bet: int
    bet_net: int
    bet_net_squared: int
    rounds_played: int
    by_count: IntArray
    """``[bin, (box-rounds, net, net squared)]`` at one unit, by the true count at the bet."""
    segment_low: IntArray
    """Per session of ``horizon`` rounds: the lowest point of the bankroll (0 or below)."""
    segment_end: IntArray
    paths: npt.NDArray[np.int64]
    """A few sessions' bankroll, ``PATH_POINTS`` points each."""

    def __add__(self, other: CountingSums) -> CountingSums:
        return CountingSums(
            self.bet + other.bet,
            self.bet_net + other.bet_net,
            self.bet_net_squared + other.bet_net_squared,
            self.rounds_played + other.rounds_played,
            self.by_count + other.by_count,
            np.concatenate([self.segment_low, other.segment_low]),
            np.concatenate([self.segment_end, other.segment_end]),
            np.concatenate([self.paths, other.paths])[:20],
        )


@dataclass(frozen=True)
class BlackjackTally(Tally):
    """A ``Tally`` with the shoes dealt, the kernel's own time and the counter's sums."""

    shoes: int = 0
    exhausted: int = 0
    seconds: float = 0.0
    """The kernel's own wall time (shuffling included; set-up and compilation excluded)."""
    cpu_seconds: float = 0.0
    """The same, as this process's CPU time (less sensitive to a loaded machine)."""
    counting: CountingSums | None = field(default=None)

    def __add__(self, other: Tally) -> BlackjackTally:
        base = Tally.__add__(self, other)
        assert isinstance(other, BlackjackTally)
        if (self.counting is None) != (other.counting is None):
            raise ValueError("cannot add a counter's tally to a tally without counting")
        counting = None
        if self.counting is not None and other.counting is not None:
            counting = self.counting + other.counting
        return BlackjackTally(
            **{name: getattr(base, name) for name in Tally.__dataclass_fields__},
            shoes=self.shoes + other.shoes,
            exhausted=self.exhausted + other.exhausted,
            seconds=self.seconds + other.seconds,
            cpu_seconds=self.cpu_seconds + other.cpu_seconds,
            counting=counting,
        )


# --- the rule tables ------------------------------------------------------------------------


def denominator_of(profile: BlackjackRules) -> int:
    """The least unit in which every net of a round is a whole number."""
    ratios = [profile.blackjack_pays, profile.insurance_pays]
    if profile.veintiuno_real is not None:
        ratios.append(profile.veintiuno_real.pays)
    if profile.twenty_one_plus_three is not None:
        ratios.extend(profile.twenty_one_plus_three.paytable.values())
    stakes = [ratio.multiplier.denominator for ratio in ratios]
    return math.lcm(2, profile.insurance_max.denominator, *stakes)


def _units(value: Fraction, unit: int) -> int:
    scaled = value * unit
    assert scaled.denominator == 1
    return int(scaled)


def side_table(profile: BlackjackRules, unit: int) -> npt.NDArray[np.int64]:
    """21+3's net per unit by the three ranks (player's two, the up card) and a flush flag,
    read from ``classify_three_card`` and the profile's paytable."""
    table = np.full((13 * 13 * 13, 2), -unit, dtype=np.int64)
    side = profile.twenty_one_plus_three
    if side is None:
        return table
    ranks = list(Rank)
    suits = list(Suit)
    for a, ra in enumerate(ranks):
        for b, rb in enumerate(ranks):
            for c, rc in enumerate(ranks):
                for flush in (0, 1):
                    cards = (
                        Card(ra, suits[0]),
                        Card(rb, suits[0] if flush else suits[1]),
                        Card(rc, suits[0] if flush else suits[2]),
                    )
                    category = classify_three_card(cards, side.ace_low_straight)
                    if category is not None:
                        table[(a * 13 + b) * 13 + c, flush] = _units(
                            side.paytable[category].multiplier, unit
                        )
    return table


def parameters(
    profile: BlackjackRules,
    strategy: BlackjackStrategy | None,
    counting: Counting | None,
    *,
    horizon: int = 0,
) -> npt.NDArray[np.int64]:
    """The profile's rules, and the strategy's insurance and even-money rules, packed for the
    kernel (``blackjack_kernel.P_*``). ``strategy=None``: the kernel takes neither insurance
    nor even money itself, every decision being someone else's (the learning environments'
    agent): no chart is derived for rules that nothing reads."""
    unit = denominator_of(profile)
    p = np.zeros(kernel.P_FIELDS, dtype=np.int64)
    p[kernel.P_DECKS] = profile.decks
    p[kernel.P_HOLE] = {HoleCard.NONE: 0, HoleCard.DEALT: 1, HoleCard.PEEK: 2}[profile.hole_card]
    p[kernel.P_H17] = profile.dealer_hits_soft_17
    p[kernel.P_BJ_PAID_AT_ONCE] = profile.blackjack_paid_at_once
    p[kernel.P_ALL_BETS] = profile.dealer_blackjack_takes is DealerBlackjackTakes.ALL_BETS
    p[kernel.P_DRAWS_WHEN_NONE_LEFT] = profile.dealer_draws_when_no_hand_remains
    p[kernel.P_INSURANCE] = profile.insurance
    p[kernel.P_EVEN_MONEY] = profile.even_money
    p[kernel.P_DOUBLE_ANY_TWO] = profile.double_on is DoubleOn.ANY_TWO
    p[kernel.P_DAS] = profile.double_after_split
    p[kernel.P_SPLIT_BY_RANK] = profile.split_by is SplitBy.RANK
    limit = profile.max_hands_per_box
    p[kernel.P_MAX_HANDS] = UNLIMITED_HANDS if limit is None else limit
    p[kernel.P_RESPLIT_ACES] = profile.resplit_aces
    p[kernel.P_ACE_TEN_BJ] = profile.split_ace_ten_is_blackjack
    p[kernel.P_ACE_FACE_DOWN] = profile.split_ace_card_face_down
    p[kernel.P_DOUBLE_FACE_DOWN] = profile.double_card_face_down
    p[kernel.P_SURRENDER] = profile.surrender is Surrender.LATE
    p[kernel.P_CUT_FROM_BOTTOM] = profile.shoe.cut_card_from_bottom
    p[kernel.P_BURN] = profile.shoe.burn_on_new_shoe
    p[kernel.P_HAS_SIDE] = profile.twenty_one_plus_three is not None
    if profile.veintiuno_real is not None:
        p[kernel.P_HAS_VR] = 1
        p[kernel.P_VR_UNSPLIT_ONLY] = profile.veintiuno_real.unsplit_hand_only
        p[kernel.P_VR_NET] = _units(profile.veintiuno_real.pays.multiplier, unit)
    p[kernel.P_DENOMINATOR] = unit
    p[kernel.P_BJ_NET] = _units(profile.blackjack_pays.multiplier, unit)
    p[kernel.P_INSURANCE_NET] = _units(profile.insurance_pays.multiplier, unit)
    p[kernel.P_INSURANCE_SHARE] = _units(profile.insurance_max, unit)
    insures = strategy is not None and strategy.chart.insurance == "take"
    takes_even_money = strategy is not None and strategy.chart.even_money == "take"
    p[kernel.P_INSURE_MODE] = 1 if insures else 0
    p[kernel.P_EVEN_MONEY_MODE] = 1 if takes_even_money else 0
    p[kernel.P_TC_LOW] = TC_LOW
    if counting is not None:
        system = counting.system
        p[kernel.P_COUNTING] = 1
        p[kernel.P_BALANCED] = system.balanced
        p[kernel.P_TAG_SCALE] = system.tag_scale
        p[kernel.P_ESTIMATION] = ESTIMATIONS.index(counting.estimation)
        p[kernel.P_INITIAL_RC] = _units(system.initial_running_count(profile.decks), 1) * (
            system.tag_scale
        )
        if counting.indices is not None and counting.indices.insurance is not None:
            # By the count, unless the chart takes them every time anyway.
            p[kernel.P_INSURE_MODE] = 1 if insures else 2
            p[kernel.P_EVEN_MONEY_MODE] = 1 if takes_even_money else 2
        p[kernel.P_HORIZON] = horizon
    return p


@dataclass(frozen=True)
class ChartTables:
    """The chart as the kernel reads it: per cell a letter at or above a true count, a
    letter below it, and the count (``+inf`` where no index play applies)."""

    hard: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]
    soft: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]
    pairs: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]
    insurance: float
    inapplicable: tuple[str, ...]
    """Index plays no rule of the profile allows (a surrender where there is none, or one
    whose play below the count is not a hit, a stand or a split)."""


def _value_index(label: str) -> int:
    """Kernel column of a card label: value - 1 (Ace 0 .. ten 9)."""
    return 0 if label == "A" else (9 if label == "T" else int(label) - 1)


def chart_tables(
    strategy: BlackjackStrategy, counting: Counting | None, *, surrender: bool = False
) -> ChartTables:
    """``surrender``: the profile allows late surrender, so index plays of ``R`` (the Fab 4)
    apply; otherwise they are ``inapplicable``. Where the chart surrenders a cell, another
    index play there (the Illustrious 18's 16 v T, 15 v T, 16 v 9) is what the hand does
    where surrender is not allowed: Schlesinger's "stand if surrender is unavailable"; the
    surrender stays."""

    def blank(rows: int) -> tuple[Any, Any, Any]:
        return (
            np.full((rows, 10), kernel.STAND, dtype=np.int64),
            np.full((rows, 10), kernel.STAND, dtype=np.int64),
            np.full((rows, 10), np.inf),
        )

    hard, soft, pairs = blank(22), blank(22), blank(10)
    chart = strategy.chart
    for table, rows in ((hard, chart.hard), (soft, chart.soft)):
        for total, cells in rows.items():
            for up, letter in cells.items():
                table[0][total, _value_index(up)] = _LETTERS[letter]
                table[1][total, _value_index(up)] = _LETTERS[letter]
    for label in PAIR_ROWS:
        for up, letter in chart.pairs[label].items():
            pairs[0][_value_index(label), _value_index(up)] = _LETTERS[letter]
            pairs[1][_value_index(label), _value_index(up)] = _LETTERS[letter]
    inapplicable: list[str] = []
    insurance = math.inf
    if counting is not None and counting.indices is not None:
        indices = counting.indices
        if indices.insurance is not None:
            insurance = float(indices.insurance)
        for play in indices.plays:
            table = {"hard": hard, "soft": soft, "pair": pairs}[play.kind]
            row = _value_index(play.hand) if play.kind == "pair" else int(play.hand)
            column = _value_index(play.up)
            above = _LETTERS.get(play.at_or_above)
            below = _LETTERS.get(play.below)
            if play.at_or_above == "R" and surrender:
                above = _SURRENDER_ELSE.get(play.below)
            elif (
                surrender
                and table[0][row, column] >= kernel.SURRENDER_ELSE_HIT
                and play.at_or_above in _SURRENDER_ELSE
                and play.below in _SURRENDER_ELSE
            ):
                above = _SURRENDER_ELSE[play.at_or_above]
                below = _SURRENDER_ELSE[play.below]
            if above is None or below is None:
                inapplicable.append(str(play))
                continue
            table[0][row, column] = above
            table[1][row, column] = below
            table[2][row, column] = float(play.count)
    return ChartTables(hard, soft, pairs, insurance, tuple(inapplicable))


def tag_array(counting: Counting | None) -> npt.NDArray[np.int64]:
    """Tags by rank index (``Card.index >> 2``: 0 the Two .. 12 the Ace), scaled whole."""
    tags = np.zeros(13, dtype=np.int64)
    if counting is None:
        return tags
    system = counting.system
    for rank in Rank:
        tags[rank - 2] = _units(system.tag(rank.blackjack_value), system.tag_scale)
    return tags


def _state(seed: np.random.SeedSequence) -> npt.NDArray[np.uint64]:
    state: npt.NDArray[np.uint64] = seed.generate_state(4, np.uint64).astype(np.uint64)
    if not state.any():
        state[0] = np.uint64(1)  # xoshiro's one forbidden state
    return state


@dataclass
class Trace:
    """What the kernel dealt, for the differential test: shoes, rounds, boxes, decisions."""

    shoes: npt.NDArray[np.int8]
    rounds: npt.NDArray[np.int64]
    boxes: npt.NDArray[np.int64]
    decisions: npt.NDArray[np.int64]
    tally: BlackjackTally


def simulate_blackjack(  # noqa: PLR0917 - the runner's interface for every game
    profile: BlackjackRules,
    rounds: int,
    seed: np.random.SeedSequence,
    players: int,
    strategy: BlackjackStrategy,
    counting: Counting | None,
    *,
    for_game: bool = False,
) -> BlackjackTally:
    """Deal ``rounds`` rounds to ``players`` boxes; the tally of every box-round. ``for_game``:
    one box plays a loop compiled for this game (``blackjack_kernel.one_box_loop``: the same
    hands, faster, after a compilation per game), for a long run (``runner.FOR_GAME_FROM``)."""
    tally, _ = _run(
        profile, rounds, seed, players, strategy, counting, trace=False, for_game=for_game
    )
    return tally


def trace_blackjack(  # noqa: PLR0917 - as simulate_blackjack
    profile: BlackjackRules,
    rounds: int,
    seed: np.random.SeedSequence,
    players: int,
    strategy: BlackjackStrategy,
    counting: Counting | None,
) -> Trace:
    """Like ``simulate_blackjack``, recording every shoe, round and decision."""
    tally, logs = _run(profile, rounds, seed, players, strategy, counting, trace=True)
    assert logs is not None
    return Trace(*logs, tally=tally)


def _run(  # noqa: PLR0917 - as simulate_blackjack
    profile: BlackjackRules,
    rounds: int,
    seed: np.random.SeedSequence,
    players: int,
    strategy: BlackjackStrategy,
    counting: Counting | None,
    *,
    trace: bool,
    for_game: bool = False,
) -> tuple[BlackjackTally, tuple[Any, Any, Any, Any] | None]:
    if rounds < 0 or not 1 <= players <= profile.boxes:
        raise SimulationError(
            f"{profile.name}: 1 to {profile.boxes} boxes (players), not {players}; rounds >= 0"
        )
    horizon = counting.horizon if counting is not None else 0
    segments = rounds // horizon if horizon else 0
    p = parameters(profile, strategy, counting, horizon=horizon)
    tables = chart_tables(strategy, counting, surrender=profile.surrender is Surrender.LATE)
    side = side_table(profile, int(p[kernel.P_DENOMINATOR]))
    tags = tag_array(counting)
    if counting is not None:
        ramp_counts = np.array([float(c) for c, _ in counting.ramp])
        ramp_units = np.array([u for _, u in counting.ramp], dtype=np.int64)
        wong_in = -math.inf if counting.wong_in is None else counting.wong_in
        wong_out = -math.inf if counting.wong_out is None else counting.wong_out
    else:
        ramp_counts, ramp_units = np.zeros(1), np.ones(1, dtype=np.int64)
        wong_in = wong_out = -math.inf
    wager_sums = np.zeros((4, 3), dtype=np.int64)
    totals = np.zeros(2, dtype=np.int64)
    sums = np.zeros(kernel.S_FIELDS, dtype=np.int64)
    by_count = np.zeros((TC_BINS, 3), dtype=np.int64)
    segment_low = np.zeros(segments, dtype=np.int64)
    segment_end = np.zeros(segments, dtype=np.int64)
    paths = np.zeros((min(PATHS_PER_BLOCK, segments), PATH_POINTS), dtype=np.int64)
    size = 52 * profile.decks
    if trace:
        max_shoes = rounds + 1
        shoe_log = np.zeros((max_shoes, size), dtype=np.int8)
        round_log = np.zeros((rounds, kernel.R_FIELDS), dtype=np.int64)
        box_log = np.zeros((rounds * players, kernel.B_FIELDS), dtype=np.int64)
        decision_log = np.full((rounds * players * 24 + 16, 3), -1, dtype=np.int64)
    else:
        shoe_log = np.zeros((0, size), dtype=np.int8)
        round_log = np.zeros((0, kernel.R_FIELDS), dtype=np.int64)
        box_log = np.zeros((0, kernel.B_FIELDS), dtype=np.int64)
        decision_log = np.zeros((0, 3), dtype=np.int64)
    state = _state(seed)
    arguments = (
        *tables.hard, *tables.soft, *tables.pairs, tables.insurance, side, tags,
        ramp_counts, ramp_units, float(wong_in), float(wong_out),
    )  # fmt: skip
    start, cpu_start = time.perf_counter(), time.process_time()
    kernel.play_block(
        p, state, rounds, players, *arguments, wager_sums, totals, sums, by_count,
        segment_low, segment_end, paths, shoe_log, round_log, box_log, decision_log,
        for_game=for_game,
    )  # fmt: skip
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    wagers = WAGERS if profile.twenty_one_plus_three is not None else ("main", "insurance")
    columns = [WAGERS.index(w) for w in wagers]
    base = Tally.from_sums(
        wagers,
        int(p[kernel.P_DENOMINATOR]),
        rounds=int(sums[kernel.S_ROUNDS]),
        hands=int(sums[kernel.S_HANDS]),
        sums=wager_sums[:, columns],
        total_net=int(totals[0]),
        total_net_squared=int(totals[1]),
    )
    counting_sums = None
    if counting is not None:
        counting_sums = CountingSums(
            int(sums[kernel.S_BET]),
            int(sums[kernel.S_BET_NET]),
            int(sums[kernel.S_BET_NET2]),
            int(sums[kernel.S_ROUNDS_PLAYED]),
            by_count,
            segment_low,
            segment_end,
            paths,
        )
    tally = BlackjackTally(
        **{name: getattr(base, name) for name in Tally.__dataclass_fields__},
        shoes=int(sums[kernel.S_SHOES]),
        exhausted=int(sums[kernel.S_EXHAUSTED]),
        seconds=seconds,
        cpu_seconds=cpu_seconds,
        counting=counting_sums,
    )
    if not trace:
        return tally, None
    shoes = int(sums[kernel.S_SHOES])
    used = int((decision_log[:, 0] >= 0).sum())
    return tally, (shoe_log[:shoes], round_log, box_log, decision_log[:used])
