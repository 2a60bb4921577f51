"""The player's side of ``croupier.analysis.blackjack`` compiled (numba): hands played by the
chart over every composition, for one dealer up card.

This is the recursion of ``blackjack.py`` step 3 (the former ``_Evaluator.play``, its leaves
and the per-hand part of a split), moved here unchanged in its arithmetic: every sum is taken
over the same terms in the same order as the pure-Python version it replaced (kept as the
reference in ``benchmarks/blackjack_python_reference.py``), so the figures are bit for bit
the same. What changed cannot change a bit:

- the recursion is an explicit stack (numba's cache cannot hold a recursive function) that
  visits the ranks in the same order;
- a leaf (a stand, a double, a bust, a paid hand) is added into its parent's matrix entry by
  entry instead of being built first; an entry that would receive ``p * 0.0`` is skipped
  (adding +0.0 to a non-negative sum leaves it as it is), and columns outside a matrix's
  non-zero range are not visited;
- the dealer's outcomes for all the compositions an up card needs are computed together by
  ``dealer_outcomes_many`` (bit for bit ``dealer_outcomes``), after a first walk over the
  same hands that only lists those compositions (the chart's actions do not depend on them).

A hand's result is a matrix ``[dealer outcome, net]`` (``OUTCOMES`` rows, nets on a grid of
``1 / scale`` from ``-offset / scale``), stored once per (cards removed, hard total, split
hand or not, original-stake share). The functions share their state as arguments: ``shoe``
the counts without the up card; ``removed`` the player's cards (changed and restored);
``dealer_slots``/``dealers`` the dealer's probabilities by composition;
``hand_slots``/``matrices``/``wagered``/``low``/``high`` each played hand's matrix, its
expected amount wagered and the range of its non-zero columns; ``work`` a blank matrix per
depth of the stack; ``base`` the dealer's outcomes off the top given no blackjack (spread
over a busted hand).

Actions in the chart arrays: ``HIT``, ``STAND``, ``DOUBLE`` (double, else hit),
``DOUBLE_ELSE_STAND`` and ``SPLIT``; a hand's forced action may also be ``NONE`` (play by the
chart). The game's rules come packed in an int64 array indexed by the ``G_*`` constants.

The functions release the GIL (``nogil``): the caller runs the ten up cards on threads.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt
from numba import types
from numba.typed import Dict, List

from croupier.analysis.dealer import (
    ACE,
    BLACKJACK,
    BUST,
    OUTCOMES,
    TEN,
    dealer_outcomes,
    dealer_outcomes_many,
)

HIT = 0
STAND = 1
DOUBLE = 2
DOUBLE_ELSE_STAND = 3
NONE = -1
SPLIT = -2

# Game parameters, packed in one int64 array (``game`` below) in this order.
G_UP = 0
G_HITS_SOFT_17 = 1
G_PEEK = 2
G_ALL_BETS_LOST = 3
G_DOUBLE_ANY_TWO = 4
G_DOUBLE_AFTER_SPLIT = 5
G_ACE_TEN_IS_BLACKJACK = 6
G_HAS_VEINTIUNO_REAL = 7
G_BLACKJACK_INDEX = 8
G_VEINTIUNO_REAL_INDEX = 9
G_SCALE = 10
G_OFFSET = 11
G_SIZE = 12
G_COLLECT = 13
G_FIELDS = 14

_MATRIX = types.float64[:, ::1]
_VECTOR = types.float64[::1]


@numba.njit(cache=True, nogil=True)
def _key(removed: npt.NDArray[np.int64]) -> int:
    key = 0
    for rank in range(10):
        key = key * 32 + removed[rank]
    return key


@numba.njit(cache=True, nogil=True)
def _total(hard_sum: int, has_ace: bool) -> tuple[int, bool]:
    if has_ace and hard_sum + 10 <= 21:
        return hard_sum + 10, True
    return hard_sum, False


@numba.njit(cache=True, nogil=True)
def _index(net: float, game: npt.NDArray[np.int64]) -> int:
    index: int = round(net * game[G_SCALE]) + game[G_OFFSET]
    return index


@numba.njit(cache=True, nogil=True)
def _can_double(hard_sum: int, soft: bool, split: bool, game: npt.NDArray[np.int64]) -> bool:
    if split and not game[G_DOUBLE_AFTER_SPLIT]:
        return False
    if game[G_DOUBLE_ANY_TWO]:
        return True
    return not soft and 9 <= hard_sum <= 11


@numba.njit(cache=True, nogil=True)
def _world_stand(bet: float, original: float, game: npt.NDArray[np.int64]) -> float:
    """A standing hand's net when the dealer has blackjack (``Game.blackjack_world_stand``)."""
    if game[G_PEEK]:
        return -original
    return -bet if game[G_ALL_BETS_LOST] else -original


@numba.njit(cache=True, nogil=True)
def _world_bust(bet: float, original: float, game: npt.NDArray[np.int64]) -> float:
    """A busted hand's net when the dealer has blackjack (``Game.blackjack_world_bust``)."""
    if game[G_PEEK]:
        return -original
    return -bet


@numba.njit(cache=True, nogil=True)
def _dealer(
    shoe: npt.NDArray[np.int64],
    removed: npt.NDArray[np.int64],
    game: npt.NDArray[np.int64],
    dealer_slots: Dict[int, int],
    dealers: List[npt.NDArray[np.float64]],
) -> npt.NDArray[np.float64]:
    """The dealer's outcomes for the shoe less ``removed``; in a collecting walk
    (``game[G_COLLECT]``) only noted, as zeros, to be computed all at once."""
    key = _key(removed)
    if key in dealer_slots:
        known: npt.NDArray[np.float64] = dealers[dealer_slots[key]]
        return known
    if game[G_COLLECT]:
        found = np.zeros(OUTCOMES)
    else:
        found = dealer_outcomes(shoe - removed, game[G_UP], game[G_HITS_SOFT_17] != 0)
    dealer_slots[key] = len(dealers)
    dealers.append(found)
    return found


@numba.njit(cache=True, nogil=True)
def _add(
    matrix: npt.NDArray[np.float64], row: int, column: int, p: float, value: float
) -> tuple[int, int]:
    """A leaf's entry ``value`` (``matrix[row, column]`` of the Python version's leaf matrix)
    added with weight ``p``: ``p * leaf`` entry by entry, without the leaf's zeros; the
    column range that holds it (empty for a zero)."""
    if value == 0.0:
        return matrix.shape[1], -1
    matrix[row, column] += p * value
    return column, column


@numba.njit(cache=True, nogil=True)
def _add_world(  # noqa: PLR0917
    matrix: npt.NDArray[np.float64],
    p: float,
    probability: float,
    net: float,
    game: npt.NDArray[np.int64],
    low: int,
    high: int,
) -> tuple[int, int]:
    """The dealer-blackjack row (the former ``_Evaluator._blackjack_world``)."""
    if probability <= 0:
        return low, high
    if net == np.floor(net):
        column = _index(net, game)
        first, last = _add(matrix, BLACKJACK, column, p, probability)
        return min(low, first), max(high, last)
    below, above = np.floor(net), np.ceil(net)
    first, last = _add(matrix, BLACKJACK, _index(below, game), p, probability * (above - net))
    low, high = min(low, first), max(high, last)
    first, last = _add(matrix, BLACKJACK, _index(above, game), p, probability * (net - below))
    return min(low, first), max(high, last)


@numba.njit(cache=True, nogil=True)
def _stand_leaf(  # noqa: PLR0917
    matrix: npt.NDArray[np.float64],
    p: float,
    dealer: npt.NDArray[np.float64],
    total: int,
    bet: int,
    original: float,
    game: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """A hand standing on ``total`` with ``bet`` on it, added with weight ``p``."""
    low, high = matrix.shape[1], -1
    for index in range(5):
        final = 17 + index
        net = bet if total > final else (-bet if total < final else 0)
        first, last = _add(matrix, index, _index(net, game), p, dealer[index])
        low, high = min(low, first), max(high, last)
    first, last = _add(matrix, BUST, _index(bet, game), p, dealer[BUST])
    low, high = min(low, first), max(high, last)
    world = _world_stand(bet, original, game)
    return _add_world(matrix, p, dealer[BLACKJACK], world, game, low, high)


@numba.njit(cache=True, nogil=True)
def _bust_leaf(  # noqa: PLR0917
    matrix: npt.NDArray[np.float64],
    p: float,
    shoe: npt.NDArray[np.int64],
    removed: npt.NDArray[np.int64],
    bet: int,
    original: float,
    base: npt.NDArray[np.float64],
    game: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """A busted hand, added with weight ``p``: only the chance of a dealer blackjack (that of
    the cards left) matters; the rest is spread as the dealer's outcomes off the deal."""
    left = 0
    for rank in range(10):
        left += shoe[rank] - removed[rank]
    blackjack = 0.0
    if game[G_UP] == ACE:
        blackjack = (shoe[TEN] - removed[TEN]) / left
    elif game[G_UP] == TEN:
        blackjack = (shoe[ACE] - removed[ACE]) / left
    low, high = matrix.shape[1], -1
    column = _index(-bet, game)
    for index in range(BLACKJACK):
        first, last = _add(matrix, index, column, p, (1 - blackjack) * base[index])
        low, high = min(low, first), max(high, last)
    world = _world_bust(bet, original, game)
    return _add_world(matrix, p, blackjack, world, game, low, high)


@numba.njit(cache=True, nogil=True)
def _paid_leaf(  # noqa: PLR0917
    matrix: npt.NDArray[np.float64],
    p: float,
    dealer: npt.NDArray[np.float64],
    pays_index: int,
    loses_to_blackjack: float,
    game: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """A hand paid at a fixed ratio unless the dealer has blackjack, added with weight ``p``."""
    low, high = matrix.shape[1], -1
    for index in range(BLACKJACK):
        first, last = _add(matrix, index, pays_index, p, dealer[index])
        low, high = min(low, first), max(high, last)
    return _add_world(matrix, p, dealer[BLACKJACK], loses_to_blackjack, game, low, high)


@numba.njit(cache=True, nogil=True)
def _add_matrix(matrix: npt.NDArray[np.float64], p: float, sub: npt.NDArray[np.float64]) -> None:
    """``matrix += p * sub`` over ``sub``'s non-zero entries."""
    for row in range(OUTCOMES):
        for column in range(sub.shape[1]):
            value = sub[row, column]
            if value != 0.0:
                matrix[row, column] += p * value


@numba.njit(cache=True, nogil=True)
def _action(  # noqa: PLR0917
    hard_sum: int,
    has_ace: bool,
    cards: int,
    split: bool,
    hard: npt.NDArray[np.int64],
    soft: npt.NDArray[np.int64],
    game: npt.NDArray[np.int64],
) -> int:
    """HIT, STAND or DOUBLE by the chart (the former ``_Evaluator.action``)."""
    total, is_soft = _total(hard_sum, has_ace)
    if total >= 21:
        return STAND
    letter: int = soft[total] if is_soft else hard[max(total, 5)]
    if letter in (DOUBLE, DOUBLE_ELSE_STAND):
        if cards == 2 and _can_double(hard_sum, is_soft, split, game):
            return DOUBLE
        return HIT if letter == DOUBLE else STAND
    return letter


MAX_DEPTH = 32
"""More cards than a hand of 21 or less can hold (21 Aces), plus one."""


@numba.njit(cache=True, nogil=True)
def _play(  # noqa: PLR0917
    shoe: npt.NDArray[np.int64],
    removed: npt.NDArray[np.int64],
    hard_sum: int,
    has_ace: bool,
    cards: int,
    split: bool,
    original: float,
    forced: int,
    sevens: bool,
    hard: npt.NDArray[np.int64],
    soft: npt.NDArray[np.int64],
    game: npt.NDArray[np.int64],
    base: npt.NDArray[np.float64],
    dealer_slots: Dict[int, int],
    dealers: List[npt.NDArray[np.float64]],
    hand_slots: Dict[int, int],
    matrices: List[npt.NDArray[np.float64]],
    wagered: List[float],
    low: List[int],
    high: List[int],
    work: npt.NDArray[np.float64],
) -> int:
    """``_Evaluator.play``: the slot of the hand's (matrix, expected amount wagered).

    The Python version recursed on each card drawn; this one walks the same tree with an
    explicit stack of frames (numba's cache cannot hold a recursive function), visiting the
    ranks in the same order, so every sum has the same terms in the same order.
    """
    size = game[G_SIZE]
    frame_hard = np.empty(MAX_DEPTH, dtype=np.int64)
    frame_ace = np.empty(MAX_DEPTH, dtype=np.bool_)
    frame_forced = np.empty(MAX_DEPTH, dtype=np.int64)
    frame_sevens = np.empty(MAX_DEPTH, dtype=np.bool_)
    frame_action = np.empty(MAX_DEPTH, dtype=np.int64)
    frame_key = np.empty(MAX_DEPTH, dtype=np.int64)
    frame_rank = np.empty(MAX_DEPTH, dtype=np.int64)
    frame_remaining = np.empty(MAX_DEPTH, dtype=np.int64)
    frame_p = np.empty(MAX_DEPTH)
    frame_low = np.empty(MAX_DEPTH, dtype=np.int64)
    frame_high = np.empty(MAX_DEPTH, dtype=np.int64)
    frame_wagered = np.empty(MAX_DEPTH)
    # A collecting walk only notes the dealer compositions: no matrices, one shared blank.
    collecting = game[G_COLLECT] != 0
    blank = np.zeros((OUTCOMES, size))
    depth = 0
    frame_hard[0] = hard_sum
    frame_ace[0] = has_ace
    frame_forced[0] = forced
    frame_sevens[0] = sevens
    entering = True
    result: int = -1  # the slot a finished frame hands back to its parent
    while True:
        if entering:
            # A new hand: found already, a stand (a leaf), or drawn to (set up the frame).
            hand_hard = frame_hard[depth]
            hand_ace = frame_ace[depth]
            key = -1
            if frame_forced[depth] == NONE and not frame_sevens[depth]:
                key = ((_key(removed) * 32 + hand_hard) * 2 + split) * 2 + (original != 0.0)
                if key in hand_slots:
                    result = hand_slots[key]
                    entering = False
                    depth -= 1
                    if depth < 0:
                        return result
                    continue
            action = frame_forced[depth]
            if action == NONE:
                action = _action(hand_hard, hand_ace, cards + depth, split, hard, soft, game)
            if action == STAND:
                total, _ = _total(hand_hard, hand_ace)
                dealer = _dealer(shoe, removed, game, dealer_slots, dealers)
                if collecting:
                    matrix, lowest, highest = blank, size, -1
                else:
                    matrix = np.zeros((OUTCOMES, size))
                    lowest, highest = _stand_leaf(matrix, 1.0, dealer, total, 1, original, game)
                result = _store(
                    matrix, 1.0, lowest, highest, key, hand_slots, matrices, wagered, low, high
                )
                entering = False
                depth -= 1
                if depth < 0:
                    return result
                continue
            frame_key[depth] = key
            frame_action[depth] = action
            frame_rank[depth] = 0
            left = 0
            for rank in range(10):
                left += shoe[rank] - removed[rank]
            frame_remaining[depth] = left
            frame_low[depth] = size
            frame_high[depth] = -1
            frame_wagered[depth] = 0.0
        else:
            # Back from the hand drawn at ``frame_rank``: add it, in its place in the sum.
            rank = frame_rank[depth]
            p = frame_p[depth]
            sub = matrices[result]
            sub_low, sub_high = low[result], high[result]
            for row in range(OUTCOMES):
                for column in range(sub_low, sub_high + 1):
                    work[depth, row, column] += p * sub[row, column]
            frame_low[depth] = min(frame_low[depth], sub_low)
            frame_high[depth] = max(frame_high[depth], sub_high)
            frame_wagered[depth] += p * wagered[result]
            removed[rank] -= 1
            frame_rank[depth] = rank + 1
        action = frame_action[depth]
        bet = 2 if action == DOUBLE else 1
        hand_hard = frame_hard[depth]
        hand_ace = frame_ace[depth]
        matrix = work[depth]
        descended = False
        rank = frame_rank[depth]
        while rank < 10:
            count = shoe[rank] - removed[rank]
            if count == 0:
                rank += 1
                continue
            p = count / frame_remaining[depth]
            removed[rank] += 1
            new_hard = hand_hard + rank + 1
            new_ace = hand_ace or rank == ACE
            new_total, _ = _total(new_hard, new_ace)
            if frame_sevens[depth] and rank == 6 and game[G_HAS_VEINTIUNO_REAL]:
                # Veintiuno Real: a third 7 on the unsplit 7-7 pays 5:1, losing only to a
                # dealer blackjack.
                dealer = _dealer(shoe, removed, game, dealer_slots, dealers)
                sub_low, sub_high = size, -1
                if not collecting:
                    sub_low, sub_high = _paid_leaf(
                        matrix, p, dealer, game[G_VEINTIUNO_REAL_INDEX], -1.0, game
                    )
                sub_wagered = 1.0
            elif collecting and (new_hard > 21 or action == DOUBLE):
                if new_hard <= 21:
                    _dealer(shoe, removed, game, dealer_slots, dealers)
                sub_low, sub_high = size, -1
                sub_wagered = 0.0
            elif new_hard > 21:
                sub_low, sub_high = _bust_leaf(matrix, p, shoe, removed, bet, original, base, game)
                sub_wagered = float(bet)
            elif action == DOUBLE:
                dealer = _dealer(shoe, removed, game, dealer_slots, dealers)
                sub_low, sub_high = _stand_leaf(matrix, p, dealer, new_total, 2, original, game)
                sub_wagered = 2.0
            else:
                # Draw on: a child frame; this one resumes at ``rank`` when it is done.
                frame_rank[depth] = rank
                frame_p[depth] = p
                depth += 1
                frame_hard[depth] = new_hard
                frame_ace[depth] = new_ace
                frame_forced[depth] = NONE
                frame_sevens[depth] = False
                descended = True
                break
            frame_low[depth] = min(frame_low[depth], sub_low)
            frame_high[depth] = max(frame_high[depth], sub_high)
            frame_wagered[depth] += p * sub_wagered
            removed[rank] -= 1
            rank += 1
        if descended:
            entering = True
            continue
        result = _store(
            blank if collecting else matrix.copy(),
            frame_wagered[depth],
            frame_low[depth],
            frame_high[depth],
            frame_key[depth],
            hand_slots,
            matrices,
            wagered,
            low,
            high,
        )
        # Leave the frame's matrix blank for the next hand at this depth.
        work[depth, :, frame_low[depth] : frame_high[depth] + 1] = 0.0
        entering = False
        depth -= 1
        if depth < 0:
            return result


@numba.njit(cache=True, nogil=True)
def _store(  # noqa: PLR0917
    matrix: npt.NDArray[np.float64],
    hand_wagered: float,
    lowest: int,
    highest: int,
    key: int,
    hand_slots: Dict[int, int],
    matrices: List[npt.NDArray[np.float64]],
    wagered: List[float],
    low: List[int],
    high: List[int],
) -> int:
    slot = len(matrices)
    matrices.append(matrix)
    wagered.append(hand_wagered)
    low.append(lowest)
    high.append(highest)
    if key >= 0:
        hand_slots[key] = slot
    return slot


@numba.njit(cache=True, nogil=True)
def _column_sums(matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``matrix.sum(axis=0)`` as numpy takes it for a C-ordered matrix: row after row."""
    out: npt.NDArray[np.float64] = matrix[0].copy()
    for row in range(1, matrix.shape[0]):
        out += matrix[row]
    return out


@numba.njit(cache=True, nogil=True)
def evaluate_up(  # noqa: PLR0917
    shoe: npt.NDArray[np.int64],
    game: npt.NDArray[np.int64],
    hard: npt.NDArray[np.int64],
    soft: npt.NDArray[np.int64],
    pairs: npt.NDArray[np.int64],
    max_hands: int,
    wanted: npt.NDArray[np.bool_],
) -> tuple[
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
]:
    """Every initial hand against one up card (``shoe`` excludes it).

    Returns ``rows[first, second]`` (the hand's outcome distribution summed over the dealer,
    left zero for a split pair) and ``hand_wagered[first, second]`` for ``first <= second``;
    for each pair card the chart splits: ``split_dealer[card]`` (the dealer's outcomes with
    both pair cards removed), ``split_hands[card, original, kind]`` (kind 0: a split hand
    whose second card is not the pair card, kind 1: one that is) and ``split_wagered`` alike.
    ``pairs[card]`` is the pair row's action code, ``SPLIT`` for split; ``wanted[first, second]``
    says which initial hands the shoe can deal.

    The dealer's outcomes are needed for hundreds to thousands of compositions; a first
    walk over the same hands (the chart's actions do not depend on them) lists those
    compositions, ``dealer_outcomes_many`` computes them together, and a second walk uses
    them.
    """
    dealer_slots = Dict.empty(key_type=types.int64, value_type=types.int64)
    dealers = List.empty_list(_VECTOR)
    collecting = game.copy()
    collecting[G_COLLECT] = 1
    _walk(shoe, collecting, hard, soft, pairs, max_hands, wanted, dealer_slots, dealers)
    compositions = np.empty((len(dealers), 10), dtype=np.int64)
    for key, slot in dealer_slots.items():
        code = key
        for rank in range(9, -1, -1):
            compositions[slot, rank] = shoe[rank] - code % 32
            code //= 32
    outcomes = dealer_outcomes_many(compositions, game[G_UP], game[G_HITS_SOFT_17] != 0)
    for slot in range(len(dealers)):
        dealers[slot] = outcomes[slot].copy()
    return _walk(shoe, game, hard, soft, pairs, max_hands, wanted, dealer_slots, dealers)


@numba.njit(cache=True, nogil=True)
def _walk(  # noqa: PLR0917
    shoe: npt.NDArray[np.int64],
    game: npt.NDArray[np.int64],
    hard: npt.NDArray[np.int64],
    soft: npt.NDArray[np.int64],
    pairs: npt.NDArray[np.int64],
    max_hands: int,
    wanted: npt.NDArray[np.bool_],
    dealer_slots: Dict[int, int],
    dealers: List[npt.NDArray[np.float64]],
) -> tuple[
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
]:
    """``evaluate_up``'s walk over the initial hands, with the dealer's table given."""
    size = game[G_SIZE]
    # Each depth's matrix of ``_play``, kept blank between hands.
    work = np.zeros((MAX_DEPTH, OUTCOMES, size))
    hand_slots = Dict.empty(key_type=types.int64, value_type=types.int64)
    matrices = List.empty_list(_MATRIX)
    wagered = List.empty_list(types.float64)
    low = List.empty_list(types.int64)
    high = List.empty_list(types.int64)
    removed = np.zeros(10, dtype=np.int64)

    base_dealer = _dealer(shoe, removed, game, dealer_slots, dealers)
    noblackjack = 1 - base_dealer[BLACKJACK]
    base = base_dealer / noblackjack if noblackjack > 0 else base_dealer

    rows = np.zeros((10, 10, size))
    hand_wagered = np.zeros((10, 10))
    split_dealer = np.zeros((10, OUTCOMES))
    split_hands = np.zeros((10, 2, 2, OUTCOMES, size))
    split_wagered = np.zeros((10, 2, 2))
    for first in range(10):
        for second in range(first, 10):
            if not wanted[first, second]:
                continue
            removed[first] += 1
            removed[second] += 1
            hard_sum = first + second + 2
            has_ace = first == ACE
            if has_ace and hard_sum == 11:
                dealer = _dealer(shoe, removed, game, dealer_slots, dealers)
                leaf = np.zeros((OUTCOMES, size))
                _paid_leaf(leaf, 1.0, dealer, game[G_BLACKJACK_INDEX], 0.0, game)
                rows[first, second] = _column_sums(leaf)
                hand_wagered[first, second] = 1.0
            elif first == second and max_hands >= 2 and pairs[first] == SPLIT:
                _split(
                    shoe, removed, first, hard, soft, game, base, dealer_slots, dealers,
                    hand_slots, matrices, wagered, low, high, work,
                    split_dealer, split_hands, split_wagered,
                )  # fmt: skip
            else:
                forced = NONE
                sevens = False
                if first == second and max_hands >= 2:
                    forced = pairs[first]
                    if forced in (DOUBLE, DOUBLE_ELSE_STAND) and not _can_double(
                        hard_sum, has_ace and hard_sum + 10 <= 21, False, game
                    ):
                        forced = HIT if forced == DOUBLE else STAND
                    # A forced "double, else stand" is played as a hit, as the Python
                    # evaluator did (only "D" doubles there).
                    if forced == DOUBLE_ELSE_STAND:
                        forced = HIT
                    sevens = first == 6
                slot = _play(
                    shoe, removed, hard_sum, has_ace, 2, False, 1.0, forced, sevens,
                    hard, soft, game, base, dealer_slots, dealers, hand_slots, matrices,
                    wagered, low, high, work,
                )  # fmt: skip
                rows[first, second] = _column_sums(matrices[slot])
                hand_wagered[first, second] = wagered[slot]
            removed[first] -= 1
            removed[second] -= 1
    return rows, hand_wagered, split_dealer, split_hands, split_wagered


@numba.njit(cache=True, nogil=True)
def _split(  # noqa: PLR0917
    shoe: npt.NDArray[np.int64],
    removed: npt.NDArray[np.int64],
    card: int,
    hard: npt.NDArray[np.int64],
    soft: npt.NDArray[np.int64],
    game: npt.NDArray[np.int64],
    base: npt.NDArray[np.float64],
    dealer_slots: Dict[int, int],
    dealers: List[npt.NDArray[np.float64]],
    hand_slots: Dict[int, int],
    matrices: List[npt.NDArray[np.float64]],
    wagered: List[float],
    low: List[int],
    high: List[int],
    work: npt.NDArray[np.float64],
    split_dealer: npt.NDArray[np.float64],
    split_hands: npt.NDArray[np.float64],
    split_wagered: npt.NDArray[np.float64],
) -> None:
    """The per-hand part of ``_Evaluator.split`` (``removed`` holds the two pair cards)."""
    counts = shoe - removed
    remaining = counts.sum()
    pair_probability = counts[card] / remaining
    split_dealer[card] = _dealer(shoe, removed, game, dealer_slots, dealers)
    for which in range(2):
        original = float(which)
        other = split_hands[card, which, 0]
        other_wagered = 0.0
        for rank in range(10):
            if rank == card or counts[rank] == 0:
                continue
            q = counts[rank] / remaining
            sub, sub_wagered = _second_card_hand(
                shoe, removed, card, rank, original, hard, soft, game, base, dealer_slots,
                dealers, hand_slots, matrices, wagered, low, high, work,
            )  # fmt: skip
            _add_matrix(other, q, sub)
            other_wagered += q * sub_wagered
        for row in range(OUTCOMES):
            for column in range(other.shape[1]):
                other[row, column] /= 1 - pair_probability
        other_wagered /= 1 - pair_probability
        split_wagered[card, which, 0] = other_wagered
        if pair_probability > 0:
            sub, sub_wagered = _second_card_hand(
                shoe, removed, card, card, original, hard, soft, game, base, dealer_slots,
                dealers, hand_slots, matrices, wagered, low, high, work,
            )  # fmt: skip
            split_hands[card, which, 1] = sub
            split_wagered[card, which, 1] = sub_wagered
        else:
            split_hands[card, which, 1] = other
            split_wagered[card, which, 1] = 0.0


@numba.njit(cache=True, nogil=True)
def _second_card_hand(  # noqa: PLR0917
    shoe: npt.NDArray[np.int64],
    removed: npt.NDArray[np.int64],
    card: int,
    rank: int,
    original: float,
    hard: npt.NDArray[np.int64],
    soft: npt.NDArray[np.int64],
    game: npt.NDArray[np.int64],
    base: npt.NDArray[np.float64],
    dealer_slots: Dict[int, int],
    dealers: List[npt.NDArray[np.float64]],
    hand_slots: Dict[int, int],
    matrices: List[npt.NDArray[np.float64]],
    wagered: List[float],
    low: List[int],
    high: List[int],
    work: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.float64], float]:
    """One split hand after its second card ``rank`` (split Aces take one card each)."""
    removed[rank] += 1
    hard_sum = card + rank + 2
    has_ace = card == ACE or rank == ACE  # noqa: PLR1714 - numba
    if card == ACE:
        dealer = _dealer(shoe, removed, game, dealer_slots, dealers)
        if rank == TEN and game[G_ACE_TEN_IS_BLACKJACK]:
            # It pushes against a dealer blackjack it meets; in a peek game it never meets
            # one (the round ended first, taking the original stake).
            result = np.zeros((OUTCOMES, game[G_SIZE]))
            world = -original if game[G_PEEK] else 0.0
            _paid_leaf(result, 1.0, dealer, game[G_BLACKJACK_INDEX], world, game)
        else:
            total, _ = _total(hard_sum, has_ace)
            result = np.zeros((OUTCOMES, game[G_SIZE]))
            _stand_leaf(result, 1.0, dealer, total, 1, original, game)
        removed[rank] -= 1
        return result, 1.0
    slot = _play(
        shoe, removed, hard_sum, has_ace, 2, True, original, NONE, False, hard, soft, game,
        base, dealer_slots, dealers, hand_slots, matrices, wagered, low, high, work,
    )  # fmt: skip
    removed[rank] -= 1
    return matrices[slot], wagered[slot]


# --------------------------------------------------------------------------------------------
# Values by total (the basic strategy's derivation, ``blackjack._total_values``).
# --------------------------------------------------------------------------------------------

TOTALS = 32
"""Totals are indexed 0..31 (a hard 21 drawing a ten makes 31)."""


@numba.njit(cache=True, nogil=True)
def stand_value(  # noqa: PLR0917
    total: int,
    bet: float,
    original: float,
    dealer: npt.NDArray[np.float64],
    peek: bool,
    all_bets_lost: bool,
) -> float:
    """A hand of ``total`` standing (busted above 21) with ``bet`` on it: its expected net."""
    if peek:
        world_stand = -original
        world_bust = -original
    else:
        world_stand = -bet if all_bets_lost else -original
        world_bust = -bet
    if total > 21:
        blackjack: float = dealer[BLACKJACK]
        return (1 - blackjack) * -bet + blackjack * world_bust
    value: float = dealer[BUST] * bet + dealer[BLACKJACK] * world_stand
    for index in range(5):
        final = 17 + index
        if total > final:
            value += dealer[index] * bet
        elif total < final:
            value -= dealer[index] * bet
    return value


@numba.njit(cache=True, nogil=True)
def after(total: int, soft: bool, rank: int) -> tuple[int, bool]:
    """The total after drawing ``rank`` (0 = Ace) onto a hand of ``total`` (soft or hard)."""
    value = rank + 1
    if soft:
        new = total + value
        if new <= 21:
            return new, True
        return new - 10, False
    if rank == ACE and total + 11 <= 21:
        return total + 11, True
    return total + value, False


@numba.njit(cache=True, nogil=True)
def total_values(
    draw: npt.NDArray[np.float64],
    dealer: npt.NDArray[np.float64],
    original: float,
    peek: bool,
    all_bets_lost: bool,
) -> npt.NDArray[np.float64]:
    """Stand, hit, double and best (hit or stand) values by ``[what, total, soft]``, each
    total's hit value over the best values of the totals it can reach (``draw`` is the
    chance of each rank). Totals visited: hard 21 down to 11, soft 21 to 12, hard 10 to 4."""
    single = np.zeros(TOTALS)
    doubled = np.zeros(TOTALS)
    for total in range(4, TOTALS):
        single[total] = stand_value(total, 1.0, original, dealer, peek, all_bets_lost)
        doubled[total] = stand_value(total, 2.0, original, dealer, peek, all_bets_lost)
    values = np.zeros((4, TOTALS, 2))
    for phase in range(3):
        if phase == 0:
            start, stop, soft = 21, 10, False
        elif phase == 1:
            start, stop, soft = 21, 11, True
        else:
            start, stop, soft = 10, 3, False
        for total in range(start, stop, -1):
            stand = single[total]
            hit = 0.0
            double = 0.0
            for rank in range(10):
                p = draw[rank]
                new_total, new_soft = after(total, soft, rank)
                if new_total > 21:
                    hit += p * single[new_total]
                else:
                    hit += p * values[3, new_total, 1 if new_soft else 0]
                double += p * doubled[new_total]
            column = 1 if soft else 0
            values[0, total, column] = stand
            values[1, total, column] = hit
            values[2, total, column] = double
            # max(hit, stand) as Python takes it: the first unless the second is larger.
            values[3, total, column] = stand if stand > hit else hit
    return values
