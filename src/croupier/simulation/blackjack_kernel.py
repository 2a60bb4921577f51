"""Blackjack compiled (numba): whole shoes shuffled, dealt and settled as the engine does.

``play_block`` deals ``rounds`` rounds to ``players`` boxes from shoes it shuffles itself
(Fisher-Yates over a small int8 array, from a xoshiro256** stream seeded by the caller's
``SeedSequence``): the profile's burn cards leave each new shoe first, and a new shoe starts
once the cut card has come out (the round under way is the shoe's last, Spain Art. 03). Each
round follows ``croupier.games.blackjack.BlackjackRound`` step for step, the same order of
cards and the same settlement, so that ``tests/consistency/
test_simulator_blackjack_matches_engine.py`` can require the same rounds card for card:

1. a card to each box from the dealer's left, the up card, a second card to each box, the
   hole card where the profile deals one;
2. 21+3 on each box (one unit, every round, where the profile has it);
3. insurance or even money when the up card is an Ace, by the rule passed in;
4. a peek under an Ace or ten where the profile peeks; blackjacks paid at once where it says;
5. each box's hands in turn: a split hand gets its second card when its turn comes, 21 and
   busts close a hand at once (a bust under a face-down card waits for the dealer), split
   Aces take one card, decisions by the chart with the count's index plays (late surrender
   where the profile allows it: an unsplit hand's first two cards, settled at once for half
   the bet, docs/rules.md#D-BJ-32);
6. the dealer reveals and draws (nothing when no hand or insurance waits on him);
7. settlement: OBO or all bets lost to a dealer blackjack, Veintiuno Real, blackjack pays.

Nets are integers in ``1 / denominator`` units of the one-unit stake. Counting, when on, runs
beside the play: the running count over the cards the player has seen (never the burns; the
hole card and face-down cards once turned), the true count with the deck estimation given, a
bet by the ramp at the start of each round (0 when wonged out), and bet-weighted sums of the
counter's own game (the main bet and insurance; 21+3 stays one flat unit, outside them).

One box (a simulation's common case and its benchmark, counted or not) takes its own loop,
``play_one_box``: the same shoes, rounds and figures in less work per round (the chart's
decisions read from tables that ``decision_tables`` builds by ``_decide`` before the first round,
one per whole true count at which an index play can change them), compiled once without a count
and once with one (``play_one_box_counted``), and for a long run once for its game, the
profile's rules constants of its code (``one_box_loop``); more boxes take ``_general_rounds``, deciding by
``_decide`` at the true count of the moment. Both loops play the round by the same step
functions, each rule written once (``_open_round``, ``_side_bet``, ``_insurance_code``,
``_peek``, ``_play_box`` with ``_card_to_hand`` and ``_bust``, ``_dealer_turn``,
``settled_net`` through ``_hands_net``, ``_box_figures``, ``_close_round``), inlined into loops
compiled without numba's runtime (``play_block`` makes their arrays): there, an inlined
function pays no reference count on the arrays it is passed (with numba's runtime, ``_decide``
inlined with the chart's nine arrays halved the general loop's speed: ``kernel_ab --count
hi-lo``, 0.477). The vector environment's ``rollout`` plays the one-box loop on each of its
shoes. The differential tests replay both loops against the engine and against each other
(``P_GENERAL_LOOP``).

The lookups of the round's path (the shoe, a card's value and tag, the chart's tables, the
dealer's stand rule, 21+3's table, a hand's row) index with ``uint64(...)``: numba reads a
signed index as possibly negative and wraps it (a sign test, the array's shape reloaded, often
from the stack, and an add, at every lookup, and in each of the seven dimensions of the
two-card table), which an unsigned index skips; every index there is non-negative, so the
cast changes no card. The cast stays at the lookup: an unsigned value in arithmetic with a
signed one would make numba compute in floats. On an AMD EPYC (Zen 4), ``kernel_ab --pairs 8
--rounds 5000000 --for-game``, peru-2016, one box, the same hands bit for bit: 1.134
(1.091-1.157) without a count, 1.112 (1.026-1.260) with Hi-Lo.

Parameters come packed in an int64 array indexed by the ``P_*`` constants; the chart as
``(letter when true count >= threshold, letter below, threshold)`` arrays by hard total,
soft total and pair, so that basic strategy is the case with every threshold at +infinity.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit, uint64

Array = npt.NDArray[Any]

# Action letters of the chart (as in ``croupier.analysis.blackjack``).
STAND = 0
HIT = 1
DOUBLE = 2
"""Double, else hit."""
DOUBLE_ELSE_STAND = 3
SPLIT = 4
SURRENDER_ELSE_HIT = 5
"""Late surrender (docs/rules.md#D-BJ-33: ``Rh``), else hit where it is not allowed; the
surrender letters are the codes from here up, so one comparison tells them apart."""
SURRENDER_ELSE_STAND = 6
SURRENDER_ELSE_SPLIT = 7

# Decision codes in the trace (the engine's ``Decided`` actions).
DO_STAND = 0
DO_HIT = 1
DO_DOUBLE = 2
DO_SURRENDER = 3
DO_SPLIT = 4
DO_INSURE = 5
DO_EVEN_MONEY = 6
DO_NO_INSURANCE = 7

# --- packed rule parameters ----------------------------------------------------------------
P_DECKS = 0
P_HOLE = 1
"""0 no hole card, 1 dealt (revealed after the players), 2 peeked under an Ace or ten."""
P_H17 = 2
P_BJ_PAID_AT_ONCE = 3
P_ALL_BETS = 4
P_DRAWS_WHEN_NONE_LEFT = 5
P_INSURANCE = 6
P_EVEN_MONEY = 7
P_DOUBLE_ANY_TWO = 8
P_DAS = 9
P_SPLIT_BY_RANK = 10
P_MAX_HANDS = 11
"""The most hands a box may split into (the array bound for "unlimited")."""
P_RESPLIT_ACES = 12
P_ACE_TEN_BJ = 13
P_ACE_FACE_DOWN = 14
P_DOUBLE_FACE_DOWN = 15
P_CUT_FROM_BOTTOM = 16
P_BURN = 17
P_HAS_SIDE = 18
P_HAS_VR = 19
P_VR_UNSPLIT_ONLY = 20
P_DENOMINATOR = 21
P_BJ_NET = 22
"""A blackjack's winnings per unit, in denominator units."""
P_VR_NET = 23
P_INSURANCE_NET = 24
"""Insurance's winnings per unit insured, in denominator units."""
P_INSURANCE_SHARE = 25
"""The insured amount (``insurance_max`` of the bet) in denominator units."""
P_INSURE_MODE = 26
"""0 never, 1 always, 2 when the true count is at least the insurance threshold."""
P_EVEN_MONEY_MODE = 27
"""0 never, 1 always, 2 by the count (the insurance threshold)."""
P_COUNTING = 28
P_BALANCED = 29
P_TAG_SCALE = 30
P_ESTIMATION = 31
"""Decks remaining as the player estimates them: 0 exact, 1 to the half deck, 2 whole decks."""
P_INITIAL_RC = 32
P_HORIZON = 33
"""Rounds in a bankroll trajectory (0: none)."""
P_TC_LOW = 34
"""The lowest true-count bin (counts below go in it)."""
P_GENERAL_LOOP = 35
"""1: one box too is dealt by ``play_block``'s general loop (only the test that holds
``play_one_box`` to the general loop's game sets it)."""
P_SURRENDER = 36
"""1: late surrender on an unsplit hand's first two cards (docs/rules.md#D-BJ-32)."""
P_FIELDS = 37

# Per box-round trace columns.
B_MAIN = 0
B_SIDE = 1
B_INSURANCE = 2
B_BET = 3
B_FIELDS = 4

R_SHOE = 0
R_START = 1
R_END = 2
R_FIELDS = 3

# Output sums (int64 array).
S_ROUNDS = 0
S_HANDS = 1
S_SHOES = 2
S_BET = 3
"""Counting: units bet over the box-rounds."""
S_BET_NET = 4
S_BET_NET2 = 5
S_ROUNDS_PLAYED = 6
"""Counting: box-rounds with a bet (not wonged out)."""
S_EXHAUSTED = 7
"""Rounds that ran a shoe out and drew from a fresh one (never seen with one box)."""
S_FIELDS = 8

# A hand's row in the hand slots (``_hand_slots``), as the loops keep it for settlement.
SLOT_HARD = 0
SLOT_ACE = 1
SLOT_CARDS = 2
SLOT_SEVENS = 3
"""Sevens in a row from the hand's first card (Veintiuno Real)."""
SLOT_STAKE = 4
SLOT_SPLIT = 5
SLOT_ACES = 6
"""Split Aces."""
SLOT_SETTLED = 7
SLOT_NET = 8
SLOT_FIELDS = 9

MAX_CARDS_PER_HAND = 24
MAX_INDEX_LEVELS = 64
"""The most true counts the one-box path keeps a table of decisions for (index plays
spread wider take ``play_block``'s general loop)."""
MAX_LEVEL_CELLS = 1 << 22
"""The most (running count, cards left) cells of the table of true counts (``count_table``)."""


_F = TypeVar("_F", bound=Callable[..., Any])


def without_runtime(function: _F) -> _F:
    """``function`` compiled (cached, numpy's error model) without numba's runtime: for
    compiled code that allocates nothing, which then pays no atomic reference count on each
    array it is passed or views (``draw``; the vector environment's kernel)."""
    options: dict[str, Any] = {"_nrt": False}  # numba's own option, absent from its stubs
    return cast(_F, njit(cache=True, error_model="numpy", **options)(function))


@njit(inline="always")
def _rotl(x: Any, k: int) -> Any:
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(inline="always")
def _next(s: Array) -> Any:
    """xoshiro256** (Blackman and Vigna, 2018)."""
    result = _rotl(s[1] * uint64(5), 7) * uint64(9)
    t = s[1] << uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit(inline="always")
def _scale(s: Array, x: Any, n: int) -> int:
    """Uniform on 0..n-1 from the 32 random bits ``x``, without bias (Lemire's
    multiply-and-reject: a rejected draw takes 32 fresh bits from ``s``)."""
    bound = uint64(n)
    m = x * bound
    low = m & uint64(0xFFFFFFFF)
    if low < bound:
        threshold = (uint64(0x100000000) - bound) % bound
        while low < threshold:
            m = (_next(s) >> uint64(32)) * bound
            low = m & uint64(0xFFFFFFFF)
    return int(m >> uint64(32))


@njit(inline="always")
def _below(s: Array, n: int) -> int:
    """Uniform on 0..n-1 without bias."""
    return _scale(s, _next(s) >> uint64(32), n)


@njit(inline="always")
def _step(s0: Any, s1: Any, s2: Any, s3: Any) -> Any:
    """xoshiro256** on a state held in locals: the output and the next state (``_next``'s
    recurrence, so that the two give the same stream)."""
    result = _rotl(s1 * uint64(5), 7) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(cache=True)
def shuffle(shoe: Array, state: Array) -> None:
    """Fisher-Yates in place, two positions from each 64-bit output (its high and low 32
    bits: xoshiro256**'s output is good in every bit).

    The generator's state stays in registers through the loop (the int8 shoe's stores
    could alias the state array, which would reload it after every swap); Lemire's
    rejection, taken about once in a shoe, stores it back and draws through ``_scale``."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    mask = uint64(0xFFFFFFFF)
    i = shoe.size - 1
    while i > 1:
        x, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
        bound = uint64(i + 1)
        m = (x >> uint64(32)) * bound
        if (m & mask) < bound:
            state[0], state[1], state[2], state[3] = s0, s1, s2, s3
            j = _scale(state, x >> uint64(32), i + 1)
            s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
        else:
            j = int(m >> uint64(32))
        card = shoe[uint64(i)]
        shoe[uint64(i)] = shoe[uint64(j)]
        shoe[uint64(j)] = card
        bound = uint64(i)
        m = (x & mask) * bound
        if (m & mask) < bound:
            state[0], state[1], state[2], state[3] = s0, s1, s2, s3
            j = _scale(state, x & mask, i)
            s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
        else:
            j = int(m >> uint64(32))
        card = shoe[uint64(i - 1)]
        shoe[uint64(i - 1)] = shoe[uint64(j)]
        shoe[uint64(j)] = card
        i -= 2
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    if i == 1:
        j = _below(state, 2)
        card = shoe[1]
        shoe[1] = shoe[j]
        shoe[j] = card


@without_runtime
def draw(shoe: Array, pos: Any, state: Array) -> Any:
    """The card at ``pos``, the position after it, and whether the shoe ran out first (a
    round that empties a shoe goes on from a fresh one, shuffled here: ``S_EXHAUSTED``).

    Every loop's draw, the simulator's and the vector environment's. Compiled without
    numba's reference counts (``_nrt=False``: it allocates nothing), it is a small function
    that LLVM inlines into each caller for nothing; inlined by numba instead
    (``inline="always"``) its array arguments cost a reference-count pair per draw (0.42x
    of the loops with the draw written out, 0.33x as a plain call with them)."""
    if pos >= shoe.size:
        shuffle(shoe, state)
        return np.int64(shoe[0]), 1, True
    return np.int64(shoe[uint64(pos)]), pos + 1, False


@without_runtime
def next_shoe(shoe: Array, state: Array, shoe_log: Array, shoes: Any) -> Any:
    """The next shoe shuffled, kept in ``shoe_log`` while it has room: the shoes dealt so far.
    Like ``draw``, a function without reference counts that LLVM inlines for nothing."""
    shuffle(shoe, state)
    if shoes < shoe_log.shape[0]:
        for k in range(shoe.size):  # element by element: a slice copy would allocate
            shoe_log[shoes, k] = shoe[k]
    return shoes + 1


@without_runtime
def ramp_bet(  # noqa: PLR0917
    tc: Any, wonged_in: Any, wong_in: float, wong_out: float, ramp_counts: Array,
    ramp_units: Array,
) -> Any:  # fmt: skip
    """The bet at true count ``tc`` by the ramp (the units of the highest count reached),
    0 while wonged out, and whether the player is wonged in now."""
    if wonged_in:
        if tc < wong_out:
            wonged_in = False
    elif tc >= wong_in:
        wonged_in = True
    bet = ramp_units[0]
    for k in range(ramp_counts.size):
        # Without a branch: whether a count of the ramp is reached is the round's coin flip.
        reached = np.int64(tc >= ramp_counts[k])
        bet = reached * ramp_units[k] + (1 - reached) * bet
    if not wonged_in:
        bet = 0
    return bet, wonged_in


@without_runtime
def insurance_choice(tc: float, threshold: float, p: Array) -> Any:
    """Whether the player insures and takes even money offered under an Ace, by the rule
    passed in (``P_INSURE_MODE``, ``P_EVEN_MONEY_MODE``: 1 always, 2 at a true count of
    ``threshold`` or more): every loop's insurance decision."""
    insure = p[P_INSURE_MODE] == 1 or (p[P_INSURE_MODE] == 2 and tc >= threshold)
    even = p[P_EVEN_MONEY_MODE] == 1 or (p[P_EVEN_MONEY_MODE] == 2 and tc >= threshold)
    return insure, even


@without_runtime
def bankroll_step(  # noqa: PLR0917
    round_total: Any, horizon: Any, seg: Any, seg_rounds: Any, seg_sum: Any, seg_low: Any,
    segment_low: Array, segment_end: Array, paths: Array,
) -> Any:  # fmt: skip
    """A round's net into the bankroll trajectories (segments of ``horizon`` rounds): the
    segment's running sum and low, its sampled path while ``paths`` has room, its low and end
    once it is whole. Returns the segment's new ``(seg, seg_rounds, seg_sum, seg_low)``.
    Every loop's bookkeeping, compiled without reference counts like ``draw``."""
    seg_sum += round_total
    seg_low = min(seg_low, seg_sum)
    if seg < paths.shape[0]:
        path_points = paths.shape[1]
        step = max(horizon // path_points, 1)
        if (seg_rounds + 1) % step == 0 and (seg_rounds + 1) // step <= path_points:
            paths[seg, (seg_rounds + 1) // step - 1] = seg_sum
    seg_rounds += 1
    if seg_rounds == horizon:
        segment_low[seg] = seg_low
        segment_end[seg] = seg_sum
        return seg + 1, 0, 0, 0
    return seg, seg_rounds, seg_sum, seg_low


@njit(inline="always")
def _value(card: Any) -> Any:
    rank = card >> 2  # 0 = Two .. 8 = Ten, 9 J, 10 Q, 11 K, 12 Ace
    if rank == 12:
        return 1
    if rank >= 8:
        return 10
    return rank + 2


@njit(inline="always")
def _best(hard: Any, ace: Any) -> Any:
    if ace and hard + 10 <= 21:
        return hard + 10
    return hard


@njit(inline="always")
def raw_true_count(rc: Any, remaining: Any, p: Array) -> Any:
    """The running count per deck left, by the player's deck estimation (unbalanced counts
    are used as they run), before flooring: index generation reads it unfloored."""
    if p[P_BALANCED] == 0:
        return rc / p[P_TAG_SCALE]
    mode = p[P_ESTIMATION]
    decks = remaining / 52.0
    if mode == 1:
        decks = max(0.5, np.floor(decks * 2.0 + 0.5) / 2.0)
    elif mode == 2:
        decks = max(1.0, np.floor(decks + 0.5))
    else:
        decks = max(decks, 1.0 / 52.0)
    return rc / p[P_TAG_SCALE] / decks


@njit(inline="always")
def _true_count(rc: Any, remaining: Any, p: Array) -> Any:
    return np.floor(raw_true_count(rc, remaining, p))


@njit(inline="always")
def _counted_true_count(rc: Any, remaining: Any, p: Array, tables: Any) -> Any:
    """``_true_count`` read from ``count_table``'s table where the running count is in it
    (two divisions and a floor at every bet and decision), else worked out."""
    count_of, rc_low, rc_width = tables[2], tables[5], tables[6]
    k = rc - rc_low
    if 0 <= k < rc_width:
        return float(count_of[uint64(k * (52 * p[P_DECKS] + 1) + remaining)])
    return _true_count(rc, remaining, p)


@njit(inline="always")
def _count_level(rc: Any, remaining: Any, p: Array, tables: Any) -> Any:
    """Which of ``decision_tables``' tables to play by at the running count ``rc``: the
    true count of ``count_table`` held between ``lo`` and ``hi`` (in integers where the table
    has it)."""
    count_of, lo, hi, rc_low, rc_width = tables[2], tables[3], tables[4], tables[5], tables[6]
    k = rc - rc_low
    if 0 <= k < rc_width:
        return (
            min(max(np.int64(count_of[uint64(k * (52 * p[P_DECKS] + 1) + remaining)]), lo), hi) - lo
        )
    return int(min(max(_true_count(rc, remaining, p), lo), hi)) - lo


@njit(cache=True)
def _block_tables(p: Array) -> Any:
    """A block's shoe (in order: the first shuffle mixes it), each card's value (a table,
    not branches, in the hot path) and the dealer's stand rule by hard total * 2 + an Ace
    held."""
    size = 52 * p[P_DECKS]
    shoe = np.empty(size, dtype=np.int8)
    for i in range(size):
        shoe[i] = i % 52
    value_of = np.empty(52, dtype=np.int64)
    for i in range(52):
        value_of[i] = _value(i)
    dealer_stands = np.zeros(64, dtype=np.bool_)
    for hard in range(32):
        for ace in range(2):
            total = _best(hard, ace == 1)
            soft = ace == 1 and hard + 10 <= 21
            dealer_stands[hard * 2 + ace] = total > 17 or (
                total == 17 and not (soft and p[P_H17] != 0)
            )
    return shoe, value_of, dealer_stands


@njit(cache=True)
def _add_figures(  # noqa: PLR0917
    p: Array,
    wager_sums: Array,
    totals: Array,
    sums: Array,
    box_rounds: Any,
    shoes: Any,
    figures: Any,
) -> None:
    """A block's sums added into the output arrays (``figures``: main, 21+3 and insurance
    as net, net squared and hits, insurance's box-rounds played first, then the whole net
    and its square)."""
    (main_net, main_net2, main_hits, side_sum, side_sum2, side_hits, ins_played, ins_net,
     ins_net2, ins_hits, total_net, total_net2) = figures  # fmt: skip
    wager_sums[0, 0] += box_rounds
    wager_sums[1, 0] += main_net
    wager_sums[2, 0] += main_net2
    wager_sums[3, 0] += main_hits
    if p[P_HAS_SIDE] != 0:
        wager_sums[0, 1] += box_rounds
        wager_sums[1, 1] += side_sum
        wager_sums[2, 1] += side_sum2
        wager_sums[3, 1] += side_hits
    wager_sums[0, 2] += ins_played
    wager_sums[1, 2] += ins_net
    wager_sums[2, 2] += ins_net2
    wager_sums[3, 2] += ins_hits
    totals[0] += total_net
    totals[1] += total_net2
    sums[S_ROUNDS] += box_rounds
    sums[S_HANDS] += box_rounds
    sums[S_SHOES] += shoes


@njit(inline="always")
def can_double(n: Any, hard: Any, ace: Any, split: Any, aces: Any, p: Array) -> Any:  # noqa: PLR0917
    """A double is allowed on the hand (Art. 12): its first two cards, not split Aces, after a
    split only where the profile allows it, on any two cards or a hard 9 to 11."""
    total = _best(hard, ace)
    soft = ace and hard + 10 <= 21
    return (
        n == 2
        and not aces
        and (not split or p[P_DAS] != 0)
        and (p[P_DOUBLE_ANY_TWO] != 0 or (not soft and 9 <= total <= 11))
    )


@njit(inline="always")
def can_split(pair: Any, hands: Any, aces: Any, p: Array) -> Any:
    """A pair may be split (Art. 11) while the box has fewer hands than the profile's most,
    split Aces again only where the profile re-splits them."""
    return pair and hands < p[P_MAX_HANDS] and not (aces and p[P_RESPLIT_ACES] == 0)


@njit(inline="always")
def can_surrender(n: Any, split: Any, p: Array) -> Any:
    """Late surrender: an unsplit hand's first two cards (docs/rules.md#D-BJ-32)."""
    return n == 2 and not split and p[P_SURRENDER] != 0


@njit(inline="always")
def _decide(  # noqa: PLR0917
    x_n: Any,
    x_hard: Any,
    x_ace: Any,
    v1: Any,
    v2: Any,
    x_split: Any,
    x_aces: Any,
    can_split: Any,
    up: Any,
    tc: Any,
    p: Array,
    chart: Any,
) -> Any:
    """The decision code (``DO_*``) on a hand still to be played, by the chart's letter at
    the true count ``tc`` and what the rules allow (``chart_action``); ``v1`` and ``v2`` are
    the values of its first two cards. ``chart``: the letter at or above the threshold, the
    letter below and the threshold, by hard total, soft total and pair (nine arrays,
    ``blackjack_sim.chart_tables``)."""
    (hard_above, hard_below, hard_threshold, soft_above, soft_below, soft_threshold, pair_above,
     pair_below, pair_threshold) = chart  # fmt: skip
    total = _best(x_hard, x_ace)
    can_hit = not x_aces
    soft = x_ace and x_hard + 10 <= 21
    doubles = can_double(x_n, x_hard, x_ace, x_split, x_aces, p)
    surrenders = can_surrender(x_n, x_split, p)
    u = up - 1
    letter = -1
    if x_n == 2 and v1 == v2:
        pv = v1 - 1
        pl = pair_above[pv, u] if tc >= pair_threshold[pv, u] else pair_below[pv, u]
        if pl >= SURRENDER_ELSE_HIT and not surrenders:
            pl = _surrender_fallback(pl)
        if pl == SPLIT and can_split:
            letter = SPLIT
        elif pl != SPLIT and not x_split:
            letter = pl
    if letter == -1:
        if soft:
            letter = (
                soft_above[total, u] if tc >= soft_threshold[total, u] else soft_below[total, u]
            )
        else:
            row = max(total, 5)
            letter = hard_above[row, u] if tc >= hard_threshold[row, u] else hard_below[row, u]
    if letter >= SURRENDER_ELSE_HIT:
        if surrenders:
            return DO_SURRENDER
        letter = _surrender_fallback(letter)
    action = DO_STAND
    if letter == SPLIT:
        action = DO_SPLIT
    elif letter == DOUBLE or letter == DOUBLE_ELSE_STAND:  # noqa: PLR1714, SIM109
        if doubles:
            action = DO_DOUBLE
        elif letter == DOUBLE and can_hit:
            action = DO_HIT
    elif letter == HIT and can_hit:
        action = DO_HIT
    return action


@njit(inline="always")
def _surrender_fallback(letter: Any) -> Any:
    """What a surrender letter does where surrender is not allowed: hit, stand or split."""
    if letter == SURRENDER_ELSE_HIT:
        return HIT
    if letter == SURRENDER_ELSE_STAND:
        return STAND
    return SPLIT


@njit(inline="always")
def settled_net(  # noqa: PLR0917
    hard: Any,
    ace: Any,
    n: Any,
    sevens: Any,
    stake: Any,
    original: Any,
    split: Any,
    aces: Any,
    first: Any,
    dealer_bj: Any,
    d_total: Any,
    p: Array,
) -> Any:
    """A hand's net at settlement (``stake`` units staked, ``original`` of them before a
    double; ``first``: the box's original hand, the one a dealer blackjack takes under the
    original-bet-only rule)."""
    unit = p[P_DENOMINATOR]
    total = _best(hard, ace)
    staked = stake * unit
    blackjack = (n == 2 and ace and hard == 11) and (not split or (p[P_ACE_TEN_BJ] != 0 and aces))
    if total > 21:
        return -staked
    if dealer_bj:
        if blackjack:
            return 0
        if p[P_ALL_BETS] != 0:
            return -staked
        return -unit * original if first else 0
    if blackjack:
        return p[P_BJ_NET] * original
    if p[P_HAS_VR] != 0 and sevens >= 3 and not (p[P_VR_UNSPLIT_ONLY] != 0 and split):
        return p[P_VR_NET] * stake
    # Won, pushed or lost without a branch (the comparison is the round's least predictable).
    won = (d_total > 21) | (total > d_total)
    lost = (d_total <= 21) & (total < d_total)
    return staked * (np.int64(won) - np.int64(lost))


@njit(cache=True)
def index_levels(hard_threshold: Array, soft_threshold: Array, pair_threshold: Array) -> Any:
    """The whole true counts ``(lo, hi)`` between which the chart's decisions can change.

    A floored true count ``tc`` meets ``tc >= threshold`` exactly when ``tc >= ceil(threshold)``,
    so every count at or below ``lo`` (one under the least such ceiling) plays as ``lo`` and
    every count at or above ``hi`` (the greatest) as ``hi``: ``hi - lo + 1`` tables of
    decisions hold the chart at every count. ``(0, 0)`` where no index play applies."""
    lo = np.inf
    hi = -np.inf
    for table in (hard_threshold, soft_threshold, pair_threshold):
        for t in table.ravel():
            if np.isfinite(t):
                lo = min(lo, np.ceil(t) - 1.0)
                hi = max(hi, np.ceil(t))
    if lo == np.inf:
        return 0, 0
    return int(lo), int(hi)


@njit(cache=True)
def decision_tables(p: Array, lo: int, hi: int, chart: Any) -> Any:
    """The ``chart``'s decisions (``_decide``'s ``DO_*`` codes) as tables, one per whole true count
    from ``lo`` to ``hi`` (``index_levels``), read in the hot loops instead of deciding there:
    ``two_cards[level, split, aces, may split, v1 - 1, v2 - 1, up - 1]`` for a hand of two
    cards by their values, whether it came from a split, holds split Aces or may split, and
    the up card; ``more_cards[level, hard, ace, up - 1]`` for three cards or more by the hard
    total and an Ace held (no double, split or surrender is left to such a hand)."""
    levels = hi - lo + 1
    two_cards = np.zeros((levels, 2, 2, 2, 10, 10, 10), dtype=np.int8)
    more_cards = np.zeros((levels, 22, 2, 10), dtype=np.int8)
    for level in range(levels):
        tc = float(lo + level)
        for split in range(2):
            for aces in range(2):
                for can in range(2):
                    for v1 in range(1, 11):
                        for v2 in range(1, 11):
                            for up in range(1, 11):
                                two_cards[level, split, aces, can, v1 - 1, v2 - 1, up - 1] = (
                                    _decide(
                                        2, v1 + v2, v1 == 1 or v2 == 1, v1, v2, split == 1,
                                        aces == 1, can == 1, up, tc, p, chart,
                                    )
                                )  # fmt: skip
        for hard in range(3, 22):
            for ace in range(2):
                for up in range(1, 11):
                    more_cards[level, hard, ace, up - 1] = _decide(
                        3, hard, ace == 1, 0, 0, False, False, False, up, tc, p, chart
                    )
    return two_cards, more_cards


# --- the round's step functions ----------------------------------------------------------------
# Both loops below (one box, ``_one_box_path``; any number of boxes, ``_general_rounds``) play
# a round by these, each written once. The loops are compiled without numba's runtime (they
# allocate nothing: ``play_block`` makes their arrays), so that these, inlined into them, pay no
# reference count on the arrays they are passed (with one, an inlined ``_decide`` halved the
# general loop's speed).


@njit(inline="always")
def _block_start(size: Any, initial_rc: Any, wong_in: float) -> Any:
    """A block's state before its first round, as both loops keep it: no shoe yet (``pos`` at
    its end forces a shuffle first), the count's start, a wonging player out until the count
    rises, nothing counted. Returns ``(pos, shoes, shoe_no, rc, wonged_in, decisions,
    exhausted rounds, figures, and the bankroll's segment, its rounds, sum and low)``."""
    return size, 0, -1, initial_rc, wong_in == -np.inf, 0, 0, NO_FIGURES, 0, 0, 0, 0


@njit(inline="always")
def _open_round(  # noqa: PLR0917
    p: Array, rnd: Any, pos: Any, cut_at: Any, shoe: Array, state: Array, shoes: Any,
    shoe_no: Any, rc: Any, wonged_in: Any, counting: Any, betting: Any, bins: Any, logs: Any,
    tables: Any, traced: Any,
) -> Any:  # fmt: skip
    """A round's start: a new shoe once the cut card has come out (its burns leave it, the
    count starts again, a player who wongs waits for it to rise), the round's shoe and first
    card in the trace (where one is ``traced``), and the bet by the ramp at the true count before the deal (one unit
    without a count) with the count's bin of ``by_count``. Returns ``(pos, shoes, shoe_no,
    rc, wonged_in, bet, tc_bin)``."""
    shoe_log, round_log = logs[0], logs[1]
    ramp_counts, ramp_units, wong_in, wong_out = betting[1], betting[2], betting[3], betting[4]
    if pos >= cut_at:
        shoe_no = shoes
        shoes = next_shoe(shoe, state, shoe_log, shoes)
        pos = p[P_BURN]
        rc = p[P_INITIAL_RC]
        if wong_in != -np.inf:
            wonged_in = False
    if traced and rnd < round_log.shape[0]:
        round_log[rnd, R_SHOE] = shoe_no
        round_log[rnd, R_START] = pos
    bet = 1
    tc_bin = 0
    if counting:
        tc_bet = _counted_true_count(rc, shoe.size - pos, p, tables)
        bet, wonged_in = ramp_bet(tc_bet, wonged_in, wong_in, wong_out, ramp_counts, ramp_units)
        tc_bin = int(min(max(tc_bet - p[P_TC_LOW], 0.0), bins - 1.0))
    return pos, shoes, shoe_no, rc, wonged_in, bet, tc_bin


@njit(inline="always")
def _side_bet(c1: Any, c2: Any, up_card: Any, side_net: Array) -> Any:
    """21+3's net on the box's two cards and the up card (``side_net`` by their ranks and a
    flush)."""
    flush = uint64(1) if ((c1 & 3) == (c2 & 3) and (c2 & 3) == (up_card & 3)) else uint64(0)
    return side_net[uint64(((c1 >> 2) * 13 + (c2 >> 2)) * 13 + (up_card >> 2)), flush]


@njit(inline="always")
def _insurance_code(natural: Any, insure: Any, even: Any, p: Array) -> Any:
    """A box's answer when insurance is offered: even money on a blackjack where the profile
    pays it and the player takes it, else insurance where some of the bet may be insured."""
    if natural and p[P_EVEN_MONEY] != 0 and even:
        return DO_EVEN_MONEY
    if insure and p[P_INSURANCE_SHARE] > 0:
        return DO_INSURE
    return DO_NO_INSURANCE


@njit(inline="always")
def _insurance_net(dealer_bj: Any, p: Array) -> Any:
    """Insurance's net per unit insured, settled once the hole card is known."""
    return p[P_INSURANCE_NET] if dealer_bj else -p[P_DENOMINATOR]


@njit(inline="always")
def _logged(  # noqa: PLR0917
    traced: Any, decision_log: Array, n_decisions: Any, rnd: Any, box: Any, code: Any
) -> Any:
    """A decision into the trace while it has room; the decisions counted so far."""
    if traced and n_decisions < decision_log.shape[0]:
        decision_log[n_decisions, 0] = rnd
        decision_log[n_decisions, 1] = box
        decision_log[n_decisions, 2] = code
    return n_decisions + 1


@njit(inline="always")
def _naturals(first: Any, second: Any) -> Any:
    """Two cards' values make a blackjack."""
    return (first == 1 and second == 10) or (first == 10 and second == 1)


@njit(inline="always")
def _peek(p: Array, up: Any, dealer_bj: Any, rc: Any, rc_hidden: Any) -> Any:
    """The peek under an Ace or ten where the profile peeks: a dealer blackjack is turned
    over and ends the players' turns. Returns ``(peeked, skip_players, rc, rc_hidden)``."""
    peeked = p[P_HOLE] == 2 and (up == 1 or up == 10)  # noqa: PLR1714 - numba
    if peeked and dealer_bj:
        return True, True, rc + rc_hidden, 0
    return peeked, False, rc, rc_hidden


@njit(inline="always")
def _paid_at_once(p: Array, up: Any) -> Any:
    """Blackjacks are paid before the dealer's turn: where the profile says so and the up
    card can make no blackjack."""
    return p[P_BJ_PAID_AT_ONCE] != 0 and up != 1 and up != 10  # noqa: PLR1714 - numba


@njit(inline="always")
def _is_pair(c1: Any, c2: Any, value_of: Array, p: Array) -> Any:
    """Two cards split as a pair: by rank, or by value where the profile splits unlike tens."""
    if p[P_SPLIT_BY_RANK] != 0:
        return (c1 >> 2) == (c2 >> 2)
    return value_of[uint64(c1)] == value_of[uint64(c2)]


@njit(inline="always")
def _split_start(v: Any, aces: Any) -> Any:
    """A split hand on its first card (of value ``v``): ``(hard, ace, n, sevens, split,
    aces)``, its second card dealt when its turn comes."""
    return v, v == 1, 1, 1 if v == 7 else 0, True, aces


@njit(inline="always")
def _card_to_hand(  # noqa: PLR0917
    shoe: Array, pos: Any, state: Array, value_of: Array, tags: Array, face_down: Any,
    x_hard: Any, x_ace: Any, x_n: Any, x_sevens: Any, x_down: Any, rc: Any, rc_hidden: Any,
) -> Any:  # fmt: skip
    """A card to the hand in play: a split hand's second card when its turn comes, the hit, or
    the double's one card, ``face_down`` where the profile deals it so (on split Aces, on a
    double: the count sees it when the dealer turns it). Returns ``(card, pos, ran_out, hard,
    ace, n, sevens, down, rc, rc_hidden)``."""
    card, pos, ran_out = draw(shoe, pos, state)
    v = value_of[uint64(card)]
    x_hard += v
    x_ace |= v == 1
    x_n += 1
    if v == 7 and x_sevens == x_n - 1:
        x_sevens += 1
    if face_down:
        x_down = True
        rc_hidden += tags[uint64(card >> 2)]
    else:
        rc += tags[uint64(card >> 2)]
    return card, pos, ran_out, x_hard, x_ace, x_n, x_sevens, x_down, rc, rc_hidden


@njit(inline="always")
def _bust(x_down: Any, stake: Any, open_hands: Any, unit: Any) -> Any:
    """A busted hand's ``(settled, open_hands, net)``: lost at once, unless a card of it lies
    face down (it then waits for the dealer's turn to be turned and settled)."""
    if x_down:
        return False, open_hands, 0
    return True, open_hands - 1, -stake * unit


@njit(inline="always")
def _dealer_turn(  # noqa: PLR0917
    p: Array, skip_players: Any, hands_left: Any, insurance_waits: Any, up: Any, d1: Any,
    n_dealer: Any, dealer_bj: Any, shoe: Array, pos: Any, state: Array, value_of: Array,
    dealer_stands: Array, tags: Array, rc: Any,
) -> Any:  # fmt: skip
    """The dealer's turn: his second card where none was dealt (when a hand or an insurance
    bet waits on it), his blackjack, and his draws by the stand rule while a hand waits on
    them. Returns ``(d_total, dealer_bj, pos, ran_out, rc)``."""
    exhausted = False
    if not skip_players:
        if n_dealer == 1 and (hands_left or insurance_waits):
            d1, pos, ran_out = draw(shoe, pos, state)
            exhausted |= ran_out
            n_dealer = 2
            rc += tags[uint64(d1 >> 2)]
        dealer_bj = n_dealer == 2 and _naturals(up, value_of[uint64(d1)])
    d_hard = up
    d_ace = up == 1
    if n_dealer == 2:
        d_hard += value_of[uint64(d1)]
        d_ace |= value_of[uint64(d1)] == 1
    if hands_left and not dealer_bj and not skip_players:
        while not dealer_stands[uint64(d_hard * 2 + d_ace)]:
            card, pos, ran_out = draw(shoe, pos, state)
            exhausted |= ran_out
            v = value_of[uint64(card)]
            d_hard += v
            d_ace |= v == 1
            rc += tags[uint64(card >> 2)]
    return _best(d_hard, d_ace), dealer_bj, pos, exhausted, rc


@njit(inline="always")
def _hands_net(  # noqa: PLR0917
    hands: Any, first: Any, count: Any, dealer_bj: Any, d_total: Any, p: Array
) -> Any:
    """A box's main net: its hands (slots ``first`` to ``first + count - 1`` of ``hands``, the
    box's list in order) each settled now unless it was already."""
    main = 0
    for i in range(count):
        row = hands[uint64(first + i)]
        if not row[SLOT_SETTLED]:
            row[SLOT_NET] = settled_net(
                row[SLOT_HARD], row[SLOT_ACE] != 0, row[SLOT_CARDS], row[SLOT_SEVENS],
                row[SLOT_STAKE], 1, row[SLOT_SPLIT] != 0, row[SLOT_ACES] != 0, i == 0, dealer_bj,
                d_total, p,
            )  # fmt: skip
            row[SLOT_SETTLED] = 1
        main += row[SLOT_NET]
    return main


@njit(inline="always")
def _keep_hand(  # noqa: PLR0917
    hands: Any, s: Any, x_hard: Any, x_ace: Any, x_n: Any, x_sevens: Any, x_stake: Any,
    x_split: Any, x_aces: Any, x_settled: Any, x_net: Any,
) -> None:  # fmt: skip
    """A hand played (its locals) into slot ``s`` of ``hands``, for settlement."""
    row = hands[uint64(s)]
    row[SLOT_HARD] = x_hard
    row[SLOT_ACE] = x_ace
    row[SLOT_CARDS] = x_n
    row[SLOT_SEVENS] = x_sevens
    row[SLOT_STAKE] = x_stake
    row[SLOT_SPLIT] = x_split
    row[SLOT_ACES] = x_aces
    row[SLOT_SETTLED] = x_settled
    row[SLOT_NET] = x_net


@njit(inline="always")
def _box_figures(  # noqa: PLR0917
    figures: Any, main: Any, side: Any, insured: Any, ins: Any, bet: Any, tc_bin: Any,
    counting: Any, p: Array, outputs: Any, box_log: Array, k: Any, traced: Any,
) -> Any:  # fmt: skip
    """A box-round's nets (main, 21+3, insurance per unit insured) into the block's figures
    (``_add_figures``' order), the counter's sums and the trace's row ``k``. Returns the new
    figures and the round's net for the bankroll: the counter's own game at the ramp's bet
    when counting (the main bet and insurance; 21+3 stays one flat unit, outside it)."""
    sums, by_count = outputs[2], outputs[3]
    (main_net, main_net2, main_hits, side_sum, side_sum2, side_hits, ins_played, ins_net,
     ins_net2, ins_hits, total_net, total_net2) = figures  # fmt: skip
    box_total = main + side
    if insured:
        box_total += ins * p[P_INSURANCE_SHARE] // p[P_DENOMINATOR]
        ins_played += 1
        ins_net += ins
        ins_net2 += ins * ins
        ins_hits += ins > 0
    main_net += main
    main_net2 += main * main
    main_hits += main > 0
    side_sum += side
    side_sum2 += side * side
    side_hits += side > 0
    total_net += box_total
    total_net2 += box_total * box_total
    round_net = box_total
    if counting:
        own = box_total - side
        round_net = bet * own
        sums[S_BET] += bet
        sums[S_BET_NET] += round_net
        sums[S_BET_NET2] += round_net * round_net
        if bet > 0:
            sums[S_ROUNDS_PLAYED] += 1
        by_count[tc_bin, 0] += 1
        by_count[tc_bin, 1] += own
        by_count[tc_bin, 2] += own * own
    if traced and k < box_log.shape[0]:
        box_log[k, B_MAIN] = main
        box_log[k, B_SIDE] = side
        box_log[k, B_INSURANCE] = ins if insured else 0
        box_log[k, B_BET] = bet
    figures = (main_net, main_net2, main_hits, side_sum, side_sum2, side_hits, ins_played,
               ins_net, ins_net2, ins_hits, total_net, total_net2)  # fmt: skip
    return round_net, figures


@njit(inline="always")
def _close_round(  # noqa: PLR0917
    rnd: Any, pos: Any, size: Any, exhausted: Any, exhausted_rounds: Any, round_net: Any,
    horizon: Any, seg: Any, seg_rounds: Any, seg_sum: Any, seg_low: Any, outputs: Any,
    round_log: Array, traced: Any,
) -> Any:  # fmt: skip
    """A round's end: its last card in the trace, a fresh shoe next where this one ran out,
    and its net into the bankroll trajectories (``bankroll_step``). Returns ``(pos,
    exhausted_rounds, seg, seg_rounds, seg_sum, seg_low)``."""
    segment_low, segment_end, paths = outputs[4], outputs[5], outputs[6]
    if traced and rnd < round_log.shape[0]:
        round_log[rnd, R_END] = pos
    if exhausted:
        exhausted_rounds += 1
        pos = size  # a fresh shoe for the next round
    if horizon > 0 and seg < segment_low.size:
        seg, seg_rounds, seg_sum, seg_low = bankroll_step(
            round_net, horizon, seg, seg_rounds, seg_sum, seg_low, segment_low, segment_end,
            paths,
        )  # fmt: skip
    return pos, exhausted_rounds, seg, seg_rounds, seg_sum, seg_low


@njit(inline="always")
def _play_box(  # noqa: PLR0917
    rnd: Any, box: Any, c1: Any, x_c2: Any, x_done: Any, x_settled: Any, x_net: Any,
    open_hands: Any, up: Any, shoe: Array, pos: Any, state: Array, value_of: Array,
    tags: Array, p: Array, counting: Any, rc: Any, rc_hidden: Any, by_tables: Any, tables: Any,
    chart: Any, decision_log: Array, n_decisions: Any, hands: Any, first: Any,
    waiting: Array, waiting_aces: Array, traced: Any,
) -> Any:  # fmt: skip
    """A box's hands played from its first two cards ``c1`` and ``x_c2`` (``x_done``: nothing
    to play, ``x_settled`` and ``x_net``: settled before the turns, by even money or a
    blackjack paid at once), each finished hand kept in ``hands`` from slot ``first`` on, in
    the order of the box's list, for settlement.

    The hand in play lives in locals; a split pushes the new hand's card on ``waiting`` (a
    split hand is played right after the hand it came from: the last one pushed comes
    first). Each decision by the chart: read from ``decision_tables``' tables where
    ``by_tables`` (``tables``: ``one_box_tables``), else ``_decide`` on the ``chart``'s arrays
    at the true count of the moment. Returns ``(pos, ran_out, open_hands, rc, rc_hidden,
    n_decisions, hands kept)``."""
    two_cards, more_cards, lo, hi, level = tables[0], tables[1], tables[3], tables[4], tables[7]
    unit = p[P_DENOMINATOR]
    size = shoe.size
    exhausted = False
    v1 = value_of[uint64(c1)]
    v2 = value_of[uint64(x_c2)]
    x_hard = v1 + v2
    x_ace = v1 == 1 or v2 == 1
    x_n = 2
    x_sevens = (2 if v2 == 7 else 1) if v1 == 7 else 0
    x_stake = 1
    x_split = x_aces = x_down = False
    n_hands = 1
    n_waiting = n_results = 0
    while True:
        while not x_done:
            if x_n == 1:
                x_c2, pos, ran_out, x_hard, x_ace, x_n, x_sevens, x_down, rc, rc_hidden = (
                    _card_to_hand(
                        shoe, pos, state, value_of, tags, x_aces and p[P_ACE_FACE_DOWN] != 0,
                        x_hard, x_ace, x_n, x_sevens, x_down, rc, rc_hidden,
                    )
                )  # fmt: skip
                exhausted |= ran_out
            total = _best(x_hard, x_ace)
            if total > 21:
                x_done = True
                x_settled, open_hands, x_net = _bust(x_down, x_stake, open_hands, unit)
                break
            if total == 21:
                x_done = True
                break
            may_split = x_n == 2 and can_split(_is_pair(c1, x_c2, value_of, p), n_hands, x_aces, p)
            if x_aces and not may_split:
                x_done = True  # Art. 11: split Aces take one card each
                break
            if by_tables:
                if counting and hi > lo:
                    level = _count_level(rc, size - pos, p, tables)
                if x_n == 2:
                    action = two_cards[
                        uint64(level), uint64(x_split), uint64(x_aces), uint64(may_split),
                        uint64(value_of[uint64(c1)] - 1), uint64(value_of[uint64(x_c2)] - 1),
                        uint64(up - 1),
                    ]  # fmt: skip
                else:
                    action = more_cards[
                        uint64(level), uint64(x_hard), uint64(x_ace), uint64(up - 1)
                    ]
            else:
                tc = _counted_true_count(rc, size - pos, p, tables) if counting else 0.0
                action = _decide(
                    x_n,
                    x_hard,
                    x_ace,
                    value_of[uint64(c1)],
                    value_of[uint64(x_c2)],
                    x_split,
                    x_aces,
                    may_split,
                    up,
                    tc,
                    p,
                    chart,
                )
            n_decisions = _logged(traced, decision_log, n_decisions, rnd, box, action)
            if action == DO_STAND:
                x_done = True
                break
            if action == DO_SURRENDER:
                # docs/rules.md#D-BJ-32: half the bet back, settled at once.
                x_done = x_settled = True
                open_hands -= 1
                x_net = -(x_stake * unit // 2)
                break
            if action == DO_SPLIT:
                # The new hand, on the second card, waits its turn right after this one.
                x_aces = value_of[uint64(c1)] == 1
                waiting[uint64(n_waiting)] = x_c2
                waiting_aces[uint64(n_waiting)] = x_aces
                n_waiting += 1
                n_hands += 1
                open_hands += 1
                x_hard, x_ace, x_n, x_sevens, x_split, x_aces = _split_start(
                    value_of[uint64(c1)], x_aces
                )
                continue
            doubles = action == DO_DOUBLE
            _, pos, ran_out, x_hard, x_ace, x_n, x_sevens, x_down, rc, rc_hidden = _card_to_hand(
                shoe, pos, state, value_of, tags, doubles and p[P_DOUBLE_FACE_DOWN] != 0, x_hard,
                x_ace, x_n, x_sevens, x_down, rc, rc_hidden,
            )  # fmt: skip
            exhausted |= ran_out
            if doubles:
                x_stake = 2
                x_done = True
                if _best(x_hard, x_ace) > 21:
                    x_settled, open_hands, x_net = _bust(x_down, 2, open_hands, unit)
                break
        _keep_hand(
            hands, first + n_results, x_hard, x_ace, x_n, x_sevens, x_stake, x_split, x_aces,
            x_settled, x_net,
        )  # fmt: skip
        n_results += 1
        if n_waiting == 0:
            break
        n_waiting -= 1
        c1 = waiting[uint64(n_waiting)]
        x_hard, x_ace, x_n, x_sevens, x_split, x_aces = _split_start(
            value_of[uint64(c1)], waiting_aces[uint64(n_waiting)]
        )
        x_stake = 1
        x_done = x_settled = x_down = False
        x_net = 0
    return pos, exhausted, open_hands, rc, rc_hidden, n_decisions, n_results


NO_FIGURES = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
"""A block's figures before its first round (``_add_figures``' order)."""


@njit(cache=True)
def one_box_tables(p: Array, tags: Array, chart: Any, counting: bool) -> Any:
    """What ``_play_box`` decides by in the one-box loop: ``decision_tables``' two tables of the
    ``chart``'s arrays, one per whole true count from ``index_levels``' ``lo`` to ``hi``; the
    true counts of ``count_table``; and the level at a count of 0. Returns ``(two_cards,
    more_cards, count_of, lo, hi, lowest running count, width, level at 0)``."""
    lo, hi = index_levels(chart[2], chart[5], chart[8])
    two_cards, more_cards = decision_tables(p, lo, hi, chart)
    count_of, rc_low, rc_width = count_table(p, tags, counting)
    level = -lo if lo <= 0 <= hi else (0 if lo > 0 else hi - lo)
    return two_cards, more_cards, count_of, lo, hi, rc_low, rc_width, level


@njit(cache=True)
def count_table(p: Array, tags: Array, counting: bool) -> Any:
    """The true count (``_true_count``, floored) at each running count a shoe can reach and
    each number of cards left, worked out once per cell here and read at every bet,
    insurance and decision (``_counted_true_count``, ``_count_level``), where the two
    divisions and the floor were a fifth of the counted one-box loop's time (sampled with
    ``perf``). Returns ``(count_of, lowest running count, width)``: ``count_of[(running
    count - lowest) * (cards in the shoe + 1) + cards left]``, a row per running count, so
    that the cells a shoe's rounds read one after the other (cards left falling card by card,
    the count moving a tag at a time) lie close together (by cards left, then running count,
    the table measured no faster than dividing). A width of 0 (no table) without a count,
    with too many cells or a count beyond the table's type, and a running count outside it,
    are worked out as they come."""
    decks = p[P_DECKS]
    size = 52 * decks
    rc_low = rc_high = p[P_INITIAL_RC]
    for card_index in range(52):
        tag = tags[card_index >> 2] * decks
        rc_low += min(tag, 0)
        rc_high += max(tag, 0)
    rc_width = rc_high - rc_low + 1
    if not counting or (size + 1) * rc_width > MAX_LEVEL_CELLS:
        rc_width = 0
    count_of = np.zeros((size + 1) * rc_width, dtype=np.int16)
    for remaining in range(size + 1):
        for k in range(rc_width):
            tc = _true_count(rc_low + k, remaining, p)
            if not -32768.0 <= tc <= 32767.0:
                return np.zeros(0, dtype=np.int16), rc_low, 0
            count_of[k * (size + 1) + remaining] = int(tc)
    return count_of, rc_low, rc_width


@njit(cache=True)
def _hand_slots(n: int) -> Any:
    """``n`` hands' rows, as ``_hands_net`` and ``_keep_hand`` take them (``SLOT_*``: hard
    total, an Ace held, cards, sevens in a row, stake, split, split Aces, settled, net). One
    array, where nine (one per field) kept nine pointers alive through the loops. On an AMD
    EPYC, ``kernel_ab`` against the nine arrays, peru-2016: three boxes (the general loop)
    1.052 and 1.363 (medians of 6 pairs, in two processes; pairs 0.91-1.37), one box by the
    game's own loop 1.044 (0.923-1.100) without a count and 1.026 (0.990-1.034) with Hi-Lo."""
    return np.zeros((n, SLOT_FIELDS), dtype=np.int64)


RULE_FIELDS = tuple(field for field in range(P_FIELDS) if field not in {P_HORIZON, P_GENERAL_LOOP})
"""The parameters a game's one-box loop is compiled for (``one_box_loop``): the profile's
rules, the player's insurance choices and the counting system; not a run's length of bankroll
trajectory or the tests' switch, which change from run to run of the same game."""


def one_box_loop(p: Array, counted: bool) -> Any:
    """The one-box loop compiled for the game of ``p`` (its ``RULE_FIELDS`` as constants),
    with or without a count, without a trace: a compilation per game (cached on disk like
    the rest: numba keys a closure's cache by the values it closes over), for long runs."""
    rules = tuple(int(p[field]) if field in RULE_FIELDS else 0 for field in range(P_FIELDS))
    return _one_box_path(rules, counted, traced=False)


@functools.cache
def _one_box_path(rules: tuple[int, ...] | None, counted: bool, traced: bool) -> Any:
    """``play_one_box`` compiled for one case: with or without a count, with or without a
    trace, and for one game's ``rules`` (``p`` as a tuple, a run's own fields at 0) or for
    any (``None``: the rules read from ``p`` as it runs). Each is a constant of the compiled
    code, so that a rule's branch, the count's work or the trace's writes that do not apply
    (their locals and their registers too) are not in the loop at all.

    On an AMD EPYC (Zen 4), ``kernel_ab --pairs 6 --rounds 5000000``, peru-2016 without a
    count, against the loop that reads the rules from ``p``: the rules as constants 1.096
    (1.089-1.123), with the trace's writes out as well 1.161 (1.136-1.169), the trace's
    writes out alone 1.017. One function with the count as an argument measured 0.90x of
    the uncounted path's speed before (pairs 0.76-0.97). A game's own loop costs a
    compilation of about 10 s there, once per game and machine."""

    @without_runtime
    def play_one_box(  # noqa: PLR0917
        run: Array, state: Array, rounds: int, block: Any, tables: Any, chart: Any,
        insurance_threshold: float, side_net: Array, betting: Any, outputs: Any, logs: Any,
        results: Any, waiting: Array, waiting_aces: Array,
    ) -> None:  # fmt: skip
        """``play_block`` for one box: the same shoes, rounds and figures, in less work per
        round (the common case of a simulation, counted or not, and its benchmark).

        The chart's decisions are read from tables that ``decision_tables`` builds by
        ``_decide`` before the first round (so they stay the chart's and the profile's; the
        vector environment's ``rollout`` plays by this loop), one per whole true count from
        ``index_levels``' ``lo`` to ``hi`` (a single one at a count of 0 without index plays):
        a two-card hand's by its cards' values, whether it came from a split, holds split Aces
        or may split, and the up card; a hand of three cards or more by its hard total, an Ace
        held and the up card (``tables``: ``one_box_tables``). The box's hands are played by
        ``_play_box``, written to ``results``. A count, when kept, runs as in the general loop:
        the same cards seen, the same true count at the bet, at insurance and at every
        decision. ``run``: the parameters as an array, read for the run's own fields.
        """
        # The game's rules as a constant tuple, so that each rule's branch is settled when the
        # loop is compiled; else as the run's array.
        p: Any = run if rules is None else rules
        shoe, value_of, dealer_stands = block
        size = shoe.size
        cut_at = size - p[P_CUT_FROM_BOTTOM]
        unit = p[P_DENOMINATOR]
        has_side = p[P_HAS_SIDE] != 0
        hole_dealt = p[P_HOLE] != 0
        counting = counted  # a constant: the other path's work is compiled out
        tags, wong_in = betting[0], betting[3]
        sums, bins = outputs[2], outputs[3].shape[0]
        box_log, decision_log = logs[2], logs[3]
        (pos, shoes, shoe_no, rc, wonged_in, n_decisions, exhausted_rounds, figures, seg,
         seg_rounds, seg_sum, seg_low) = _block_start(size, p[P_INITIAL_RC], wong_in)  # fmt: skip
        horizon = run[P_HORIZON]
        for rnd in range(rounds):
            pos, shoes, shoe_no, rc, wonged_in, bet, tc_bin = _open_round(
                p, rnd, pos, cut_at, shoe, state, shoes, shoe_no, rc, wonged_in, counting,
                betting, bins, logs, tables, traced,
            )  # fmt: skip
            exhausted = False
            # --- the deal: the box, the up card, the box, the hole card ----------------------
            c1, pos, ran_out = draw(shoe, pos, state)
            exhausted |= ran_out
            d0, pos, ran_out = draw(shoe, pos, state)
            exhausted |= ran_out
            c2, pos, ran_out = draw(shoe, pos, state)
            exhausted |= ran_out
            rc += tags[uint64(c1 >> 2)] + tags[uint64(d0 >> 2)] + tags[uint64(c2 >> 2)]
            rc_hidden = 0
            d1 = np.int64(0)
            n_dealer = 1
            if hole_dealt:
                d1, pos, ran_out = draw(shoe, pos, state)
                exhausted |= ran_out
                n_dealer = 2
                rc_hidden = tags[uint64(d1 >> 2)]
            up = value_of[uint64(d0)]
            x_done = x_settled = False
            x_net = 0
            v1 = value_of[uint64(c1)]
            v2 = value_of[uint64(c2)]
            natural = (v1 == 1 or v2 == 1) and v1 + v2 == 11
            open_hands = 1
            side = _side_bet(c1, c2, d0, side_net) if has_side else 0
            # --- insurance and even money, the peek, blackjacks paid at once -----------------
            insured = ins_settled = False
            ins_net = 0
            if p[P_INSURANCE] != 0 and up == 1:
                tc_now = _counted_true_count(rc, size - pos, p, tables) if counting else 0.0
                insure, even = insurance_choice(tc_now, insurance_threshold, p)
                code = _insurance_code(natural, insure, even, p)
                if code == DO_EVEN_MONEY:
                    x_done = x_settled = True
                    open_hands = 0
                    x_net = unit
                insured = code == DO_INSURE
                n_decisions = _logged(traced, decision_log, n_decisions, rnd, 0, code)
            dealer_bj = n_dealer == 2 and _naturals(up, value_of[uint64(d1)])
            peeked, skip_players, rc, rc_hidden = _peek(p, up, dealer_bj, rc, rc_hidden)
            if peeked and insured:
                ins_net = _insurance_net(dealer_bj, p)
                ins_settled = True
            if not skip_players and _paid_at_once(p, up) and natural and not x_settled:
                x_done = x_settled = True
                open_hands = 0
                x_net = p[P_BJ_NET]
            # --- the box's hands -------------------------------------------------------------
            pos, ran_out, open_hands, rc, rc_hidden, n_decisions, n_results = _play_box(
                rnd, 0, c1, c2, x_done or skip_players, x_settled, x_net, open_hands, up, shoe,
                pos, state, value_of, tags, p, counting, rc, rc_hidden, True, tables, chart,
                decision_log, n_decisions, results, 0, waiting, waiting_aces, traced,
            )  # fmt: skip
            exhausted |= ran_out
            # --- the dealer and settlement ---------------------------------------------------
            rc += rc_hidden  # the hole card and face-down cards are turned now
            hands_left = open_hands > 0 or p[P_DRAWS_WHEN_NONE_LEFT] != 0
            d_total, dealer_bj, pos, ran_out, rc = _dealer_turn(
                p, skip_players, hands_left, insured and not peeked, up, d1, n_dealer, dealer_bj,
                shoe, pos, state, value_of, dealer_stands, tags, rc,
            )  # fmt: skip
            exhausted |= ran_out
            if insured and not ins_settled:
                ins_net = _insurance_net(dealer_bj, p)
            main = _hands_net(results, 0, n_results, dealer_bj, d_total, p)
            round_net, figures = _box_figures(
                figures, main, side, insured, ins_net, bet, tc_bin, counting, p, outputs, box_log,
                rnd, traced,
            )  # fmt: skip
            pos, exhausted_rounds, seg, seg_rounds, seg_sum, seg_low = _close_round(
                rnd, pos, size, exhausted, exhausted_rounds, round_net, horizon, seg, seg_rounds,
                seg_sum, seg_low, outputs, logs[1], traced,
            )  # fmt: skip
        _add_figures(run, outputs[0], outputs[1], sums, rounds, shoes, figures)
        sums[S_EXHAUSTED] += exhausted_rounds

    return play_one_box


play_one_box = _one_box_path(None, counted=False, traced=True)
play_one_box_counted = _one_box_path(None, counted=True, traced=True)


@without_runtime
def _general_rounds(  # noqa: PLR0917
    p: Array, state: Array, rounds: int, players: int, block: Any, tables: Any, chart: Any,
    insurance_threshold: float, side_net: Array, betting: Any, outputs: Any, logs: Any,
    hands: Any, boxes: Any,
) -> None:  # fmt: skip
    """``play_block``'s loop over any number of boxes, each decision by ``_decide`` on the
    chart's arrays at the true count of the moment. ``hands``: ``_hand_slots`` for every box's
    hands (slot = box * the most hands a box may have + the hand's place in the box's list),
    then their first two cards, finished and a card face down; ``boxes``: per box, its hands,
    21+3's net, insured, insurance's net and whether it is settled."""
    shoe, value_of, dealer_stands = block
    size = shoe.size
    cut_at = size - p[P_CUT_FROM_BOTTOM]
    unit = p[P_DENOMINATOR]
    counting = p[P_COUNTING] != 0
    max_hands = p[P_MAX_HANDS]
    tags, wong_in = betting[0], betting[3]
    sums, bins = outputs[2], outputs[3].shape[0]
    box_log, decision_log = logs[2], logs[3]
    slots, h_c1, h_c2 = hands
    h_hard, h_ace, h_n = slots[:, SLOT_HARD], slots[:, SLOT_ACE], slots[:, SLOT_CARDS]
    h_sevens, h_settled, h_net = slots[:, SLOT_SEVENS], slots[:, SLOT_SETTLED], slots[:, SLOT_NET]
    n_hands, b_side, b_ins, b_ins_net, b_ins_settled, waiting, waiting_aces = boxes
    (pos, shoes, shoe_no, rc, wonged_in, n_decisions, exhausted_rounds, figures, seg, seg_rounds,
     seg_sum, seg_low) = _block_start(size, p[P_INITIAL_RC], wong_in)  # fmt: skip
    horizon = p[P_HORIZON]
    for rnd in range(rounds):
        pos, shoes, shoe_no, rc, wonged_in, bet, tc_bin = _open_round(
            p, rnd, pos, cut_at, shoe, state, shoes, shoe_no, rc, wonged_in, counting, betting,
            bins, logs, tables, True,
        )  # fmt: skip
        for b in range(players):
            n_hands[b] = 1
            s = b * max_hands
            _keep_hand(slots, s, 0, False, 0, 0, 1, False, False, False, 0)
            b_ins[b] = b_ins_net[b] = b_side[b] = 0
            b_ins_settled[b] = False
        rc_hidden = insured = 0
        open_hands = players
        exhausted = False
        # --- the deal ------------------------------------------------------------------------
        d0 = d1 = np.int64(0)
        for second in range(2):
            for b in range(players):
                card, pos, ran_out = draw(shoe, pos, state)
                exhausted |= ran_out
                s = b * max_hands
                v = value_of[uint64(card)]
                h_hard[s] += v
                h_ace[s] |= v == 1
                if second == 0:
                    h_c1[s] = card
                else:
                    h_c2[s] = card
                h_n[s] += 1
                if v == 7 and h_sevens[s] == h_n[s] - 1:
                    h_sevens[s] += 1
                rc += tags[uint64(card >> 2)]
            if second == 0:
                d0, pos, ran_out = draw(shoe, pos, state)
                exhausted |= ran_out
                rc += tags[uint64(d0 >> 2)]
            elif p[P_HOLE] != 0:
                d1, pos, ran_out = draw(shoe, pos, state)
                exhausted |= ran_out
                rc_hidden += tags[uint64(d1 >> 2)]
        n_dealer = 2 if p[P_HOLE] != 0 else 1
        up = value_of[uint64(d0)]
        if p[P_HAS_SIDE] != 0:
            for b in range(players):
                s = b * max_hands
                b_side[b] = _side_bet(h_c1[s], h_c2[s], d0, side_net)
        # --- insurance and even money, the peek, blackjacks paid at once ---------------------
        if p[P_INSURANCE] != 0 and up == 1:
            tc_now = _counted_true_count(rc, size - pos, p, tables) if counting else 0.0
            insure, even = insurance_choice(tc_now, insurance_threshold, p)
            for b in range(players):
                s = b * max_hands
                natural = h_n[s] == 2 and h_ace[s] != 0 and h_hard[s] == 11
                code = _insurance_code(natural, insure, even, p)
                if code == DO_EVEN_MONEY:
                    h_settled[s] = True
                    open_hands -= 1
                    h_net[s] = unit
                elif code == DO_INSURE:
                    b_ins[b] = 1
                    insured += 1
                n_decisions = _logged(True, decision_log, n_decisions, rnd, b, code)
        dealer_bj = n_dealer == 2 and _naturals(up, value_of[uint64(d1)])
        peeked, skip_players, rc, rc_hidden = _peek(p, up, dealer_bj, rc, rc_hidden)
        if peeked:
            # The peek settles insurance either way (the hole card is then known).
            for b in range(players):
                if b_ins[b] == 1:
                    b_ins_net[b] = _insurance_net(dealer_bj, p)
                    b_ins_settled[b] = True
        if not skip_players and _paid_at_once(p, up):
            for b in range(players):
                s = b * max_hands
                if not h_settled[s] and h_n[s] == 2 and h_ace[s] != 0 and h_hard[s] == 11:
                    h_settled[s] = True
                    open_hands -= 1
                    h_net[s] = p[P_BJ_NET]
        # --- the players' hands (a hand settled already, by even money or a blackjack paid at
        # once, has nothing to play) ------------------------------------------------------------
        for b in range(players):
            s = b * max_hands
            pos, ran_out, open_hands, rc, rc_hidden, n_decisions, box_hands = _play_box(
                rnd, b, h_c1[s], h_c2[s], h_settled[s] != 0 or skip_players, h_settled[s] != 0,
                h_net[s],
                open_hands, up, shoe, pos, state, value_of, tags, p, counting, rc, rc_hidden,
                False, tables, chart, decision_log, n_decisions, slots, s, waiting, waiting_aces,
                True,
            )  # fmt: skip
            n_hands[b] = box_hands
            exhausted |= ran_out
        # --- the dealer and settlement -------------------------------------------------------
        rc += rc_hidden  # the hole card and face-down cards are turned now
        hands_left = open_hands > 0 or p[P_DRAWS_WHEN_NONE_LEFT] != 0
        d_total, dealer_bj, pos, ran_out, rc = _dealer_turn(
            p, skip_players, hands_left, insured > 0 and not peeked, up, d1, n_dealer, dealer_bj,
            shoe, pos, state, value_of, dealer_stands, tags, rc,
        )  # fmt: skip
        exhausted |= ran_out
        round_net = 0
        for b in range(players):
            if b_ins[b] == 1 and not b_ins_settled[b]:
                b_ins_net[b] = _insurance_net(dealer_bj, p)
                b_ins_settled[b] = True
            main = _hands_net(slots, b * max_hands, n_hands[b], dealer_bj, d_total, p)
            box_net, figures = _box_figures(
                figures, main, b_side[b], b_ins[b] == 1, b_ins_net[b], bet, tc_bin, counting, p,
                outputs, box_log, rnd * players + b, True,
            )  # fmt: skip
            round_net += box_net
        pos, exhausted_rounds, seg, seg_rounds, seg_sum, seg_low = _close_round(
            rnd, pos, size, exhausted, exhausted_rounds, round_net, horizon, seg, seg_rounds,
            seg_sum, seg_low, outputs, logs[1], True,
        )  # fmt: skip
    _add_figures(p, outputs[0], outputs[1], sums, rounds * players, shoes, figures)
    sums[S_EXHAUSTED] += exhausted_rounds


def play_block(  # noqa: PLR0917
    p: Array,
    state: Array,
    rounds: int,
    players: int,
    hard_above: Array,
    hard_below: Array,
    hard_threshold: Array,
    soft_above: Array,
    soft_below: Array,
    soft_threshold: Array,
    pair_above: Array,
    pair_below: Array,
    pair_threshold: Array,
    insurance_threshold: float,
    side_net: Array,
    tags: Array,
    ramp_counts: Array,
    ramp_units: Array,
    wong_in: float,
    wong_out: float,
    wager_sums: Array,
    totals: Array,
    sums: Array,
    by_count: Array,
    segment_low: Array,
    segment_end: Array,
    paths: Array,
    shoe_log: Array,
    round_log: Array,
    box_log: Array,
    decision_log: Array,
    *,
    for_game: bool = False,
) -> None:
    """Deal ``rounds`` rounds; add into the output arrays (see ``blackjack_sim``).

    ``wager_sums[4, 3]``: rows played, net, net squared, hits; columns main, 21+3,
    insurance (per unit insured). ``totals[2]``: each box-round's whole net and its square.
    ``by_count[bins, 3]``: box-rounds, net, net squared by the true count at the bet.
    The ``*_log`` arrays (trace mode, for the differential test) are filled while they have
    room: the shoes dealt, each round's shoe and card positions, each box-round's nets and
    each decision as ``(round, box, code)``.

    Here the block's arrays are made (the loops below allocate nothing, so that they run
    without numba's runtime): one box takes ``play_one_box`` (``play_one_box_counted`` with a
    count), or with ``for_game`` and no trace the one-box loop compiled for the game
    (``one_box_loop``: a long run's, where its compilation pays), more boxes, or index plays spread over more than ``MAX_INDEX_LEVELS`` true
    counts, ``_general_rounds``. This function is Python, called once a block: compiled, it
    made numba compile all three loops at its first call, where a run takes one (a first
    ``croupier simulate`` on a new machine compiled for 54 s, most of it loops it never ran).
    """
    chart = (
        hard_above, hard_below, hard_threshold, soft_above, soft_below, soft_threshold,
        pair_above, pair_below, pair_threshold,
    )  # fmt: skip
    betting = (tags, ramp_counts, ramp_units, wong_in, wong_out)
    outputs = (wager_sums, totals, sums, by_count, segment_low, segment_end, paths)
    logs = (shoe_log, round_log, box_log, decision_log)
    block = _block_tables(p)
    max_hands = p[P_MAX_HANDS]
    lo, hi = index_levels(hard_threshold, soft_threshold, pair_threshold)
    if players == 1 and p[P_GENERAL_LOOP] == 0 and hi - lo < MAX_INDEX_LEVELS:
        counting = p[P_COUNTING] != 0
        one_box = (
            p, state, rounds, block, one_box_tables(p, tags, chart, counting), chart,
            insurance_threshold, side_net, betting, outputs, logs, _hand_slots(max_hands),
            np.zeros(max_hands, dtype=np.int64), np.zeros(max_hands, dtype=np.bool_),
        )  # fmt: skip
        if for_game and not any(log.shape[0] > 0 for log in logs):
            one_box_loop(p, counting)(*one_box)
        elif counting:
            play_one_box_counted(*one_box)
        else:
            play_one_box(*one_box)
        return
    n_slots = players * max_hands
    hands = (
        _hand_slots(n_slots), np.zeros(n_slots, dtype=np.int64),
        np.zeros(n_slots, dtype=np.int64),
    )  # fmt: skip
    boxes = (
        np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.bool_), np.zeros(max_hands, dtype=np.int64),
        np.zeros(max_hands, dtype=np.bool_),
    )  # fmt: skip
    # ``_play_box`` decides by the chart here: its decision tables are not read (empty ones of
    # their type); the true counts are.
    count_of, rc_low, rc_width = count_table(p, tags, p[P_COUNTING] != 0)
    no_tables = (
        np.zeros((1, 2, 2, 2, 10, 10, 10), dtype=np.int8), np.zeros((1, 22, 2, 10), dtype=np.int8),
        count_of, lo, hi, rc_low, rc_width, np.int64(0),
    )  # fmt: skip
    _general_rounds(
        p, state, rounds, players, block, no_tables, chart, insurance_threshold, side_net,
        betting, outputs, logs, hands, boxes,
    )  # fmt: skip
