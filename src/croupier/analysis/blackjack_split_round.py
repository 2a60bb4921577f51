"""The outcome distribution of a split round, the split hands' joint outcomes by composition
(numba): what the round's hit frequency, push and standard deviation read.

A split pair's round pays the sum of its hands' nets, and each net depends on the hand's own
cards and on the dealer's result, which depends on *every* card the hands took. The exact
expected value needs none of that jointly (``blackjack_exact``: each hand's value from the
shoe as it stood at its second card), but the distribution does: the second hand is drawn
from the shoe less the first hand's cards, and the dealer from the shoe less both.

**Two hands, exactly.** With the up card and both pair cards out, the first hand is dealt
its second card and played out; each of its final hands (a composition, plus the card that
busted it, and its stake) leaves a shoe from which the second hand is played out the same
way; each pair of final hands leaves the shoe the dealer draws from. The dealer's outcomes
are computed once for each distinct set of cards the two hands took (``DealerTable``), and
the round's probability at each net is summed over both hands' final hands and the dealer's
seven results (17-21, bust, blackjack: the hole card is exchangeable with the cards the
hands drew, so a dealer blackjack is a result like the others; docs/rules.md §1). This is
exact for every split that ends in two hands: under ``max_hands = 2``, for split Aces
without re-splitting, and for the two-hand rounds of every game.

**Three or more hands** (a re-split) are exact too (``whole_round_matrix``): a state of
the round is the cards out, the hands in the box and the hands still to play, and its value
is the joint law of the dealer's result and the net of the hands still to play. A state's
value depends only on the cards out (every card order leading to it is equally likely, a
card sequence's chance depending only on its cards), so each is computed once, the states
with more cards out first; the hands' order of play is the table's (a hand whose second card
is the pair card re-splits at once while the box has room, the hand is played out, then the
next). It equals every card order of small shoes dealt in exact fractions, for 2, 3 and 4
hands, with and without double after split, Aces re-split or not, under peek, OBO and no hole
card (``tests/unit/analysis/test_blackjack_whole_split_round.py``). Its cost is the number of
states, which grows with the shoe as the unions of the hands' cards do: at one deck a few
thousand for most pairs, 228,389 for 2-2 against a 7 (peru-2016's chart, four hands); at six
decks more than 20,000 for every pair but a few (the union of three hands of 2s alone has
millions of compositions, each needing the dealer's outcomes). So a round with more than
``STATE_BUDGET`` states is left to the two-hand joint below and the caller's approximation
of the hands still to play after a re-split (``blackjack._split_round_joint``); the
analysis says which it took. Eric Farmer's analyzer computes its distribution for one split
only (his "Distribution and Variance in Blackjack (Part 2)", 2016: "pairs may be split only
once").

A peek game splits only when the dealer has no blackjack: the round then takes the original
stake only, which is the first hand's ``original`` (Peru Art. 13 for OBO; docs/rules.md §1).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.blackjack_exact import (
    _KEY_BASE,
    _KEY_WEIGHTS,
    DOUBLE,
    HIT,
    PAID,
    STAND,
    DealerTable,
    UpCard,
    compositions,
    distinct,
)
from croupier.analysis.dealer import ACE, BLACKJACK, BUST, OUTCOMES


@numba.njit(cache=True, nogil=True)
def _finals(  # noqa: PLR0917
    base: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    cards: npt.NDArray[np.int64],
    child: npt.NDArray[np.int64],
    action: npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int64],
    seed_p: npt.NDArray[np.float64],
    work: npt.NDArray[np.float64],
    out_comp: npt.NDArray[np.int64],
    out_extra: npt.NDArray[np.int64],
    out_bet: npt.NDArray[np.int64],
    out_p: npt.NDArray[np.float64],
) -> int:
    """A hand's final hands, played by ``action`` from the two-card hands ``seeds`` (their
    chances ``seed_p``) drawing from ``base``: each a composition, the rank of the card that
    busted it (-1: none), its stake, its probability. ``work`` is zero on entry and exit."""
    size = counts.shape[0]
    for k in range(seeds.shape[0]):
        work[seeds[k]] += seed_p[k]
    found = 0
    total_cards = base.sum()
    for i in range(size - 1, -1, -1):  # smaller totals first: parents before children
        p0 = work[i]
        if p0 == 0.0:
            continue
        work[i] = 0.0
        what = action[i]
        if what in (STAND, PAID):
            out_comp[found], out_extra[found], out_bet[found], out_p[found] = i, -1, 1, p0
            found += 1
            continue
        remaining = total_cards - cards[i]
        for rank in range(10):
            left = base[rank] - counts[i, rank]
            if left <= 0:
                continue
            p = p0 * left / remaining
            after = child[i, rank]
            if after < 0:
                bet = 2 if what == DOUBLE else 1
                out_comp[found], out_extra[found], out_bet[found], out_p[found] = i, rank, bet, p
                found += 1
            elif what == HIT:
                work[after] += p
            else:
                out_comp[found], out_extra[found], out_bet[found], out_p[found] = after, -1, 2, p
                found += 1
    return found


@numba.njit(cache=True, nogil=True)
def _nets(  # noqa: PLR0917
    comp: int,
    extra: int,
    bet: int,
    is_paid: bool,
    hard: int,
    has_ace: bool,
    original: int,
    paid: float,
    peek: bool,
    all_bets_lost: bool,
    scale: int,
    out: npt.NDArray[np.int64],
) -> None:
    """A final hand's net against each of the dealer's results, in grid steps (``scale``
    per unit): ``out[0..4]`` the dealer's 17-21, ``out[BUST]``, ``out[BLACKJACK]``."""
    if is_paid:  # a split Ace + ten paid as a blackjack: pushes against one (no peek)
        for outcome in range(BLACKJACK):
            out[outcome] = round(paid * scale)
        out[BLACKJACK] = -original * scale if peek else 0
        return
    if extra >= 0:
        for outcome in range(BLACKJACK):
            out[outcome] = -bet * scale
        out[BLACKJACK] = -original * scale if peek else -bet * scale
        return
    total = hard + 10 if has_ace and hard + 10 <= 21 else hard
    for outcome in range(5):
        final = 17 + outcome
        out[outcome] = bet * scale if total > final else (-bet * scale if total < final else 0)
    out[BUST] = bet * scale
    if peek:
        out[BLACKJACK] = -original * scale
    else:
        out[BLACKJACK] = -bet * scale if all_bets_lost else -original * scale


@numba.njit(cache=True, nogil=True)
def _first_share(extra: int, is_paid: bool, peek: bool, all_bets_lost: bool, scale: int) -> int:
    """What a dealer blackjack takes more from the hand that carries the original stake than
    from another (``_nets``' ``original``), in grid steps."""
    if peek or (extra < 0 and not is_paid and not all_bets_lost):
        return scale
    return 0


@numba.njit(cache=True, nogil=True)
def _seeds_of(  # noqa: PLR0917
    left: npt.NDArray[np.int64],
    pair: int,
    with_pair: bool,
    seed_of: npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int64],
    seed_p: npt.NDArray[np.float64],
) -> int:
    """A split hand's second cards from the cards ``left`` (the pair card itself only if
    ``with_pair``: else it re-splits): the two-card hands and their chances."""
    cards = left.sum()
    found = 0
    for rank in range(10):
        if left[rank] <= 0 or (rank == pair and not with_pair):
            continue
        seeds[found] = seed_of[rank]
        seed_p[found] = left[rank] / cards
        found += 1
    return found


@numba.njit(cache=True, nogil=True)
def _key(removed: npt.NDArray[np.int64]) -> int:
    key: int = 0
    weight = 1
    for rank in range(10):
        key += removed[rank] * weight
        weight *= 64
    return key


@numba.njit(cache=True, nogil=True)
def _copy_into(target: npt.NDArray[Any], source: npt.NDArray[Any]) -> int:
    """``target[:] = source``, element by element: numba's array assignment checks the
    shapes and compiles, for its error message, string formatting that took two of the
    first analysis's 19 CPU-seconds of compiling (``two_hands``)."""
    for index in range(target.shape[0]):
        target[index] = source[index]
    return 0


_EMPTY = -1


@numba.njit(cache=True, nogil=True)
def _slot(keys: npt.NDArray[np.int64], key: int) -> int:
    """The position of ``key`` in the open-addressing table ``keys`` (its place if absent)."""
    mask: int = keys.shape[0] - 1
    position: int = ((key * 0x9E3779B1) ^ (key >> 29)) & mask
    while keys[position] != _EMPTY and keys[position] != key:
        position = (position + 1) & mask
    return position


@numba.njit(cache=True, nogil=True)
def _grown(keys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    bigger = np.full(2 * keys.shape[0], _EMPTY, dtype=np.int64)
    for key in keys:
        if key != _EMPTY:
            bigger[_slot(bigger, key)] = key
    return bigger


@numba.njit(cache=True, nogil=True)
def lookup_table(
    keys: npt.NDArray[np.int64], rows: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """An open-addressing table of ``keys`` (distinct) to the dealer's outcomes ``rows``,
    each stored at its key's place (one memory access fewer for each lookup)."""
    table, _, values = _table_of(keys, rows, False)
    return table, values


@numba.njit(cache=True, nogil=True)
def _table_of(
    keys: npt.NDArray[np.int64], rows: npt.NDArray[np.float64], mixed: bool
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """``lookup_table``'s arrays, the places ``_slot``'s or, ``mixed``, ``_state_slot``'s
    (code 0) for the whole round's many keys (and their codes, all 0)."""
    capacity = 16
    while capacity < 2 * keys.shape[0]:
        capacity *= 2
    table = np.full(capacity, _EMPTY, dtype=np.int64)
    codes = np.zeros(capacity, dtype=np.int64)
    values = np.zeros((capacity, OUTCOMES))
    for k in range(keys.shape[0]):
        position = _state_slot(table, codes, keys[k], 0) if mixed else _slot(table, keys[k])
        table[position] = keys[k]
        _copy_into(values[position], rows[k])
    return table, codes, values


@numba.njit(cache=True, nogil=True)
def two_hands(  # noqa: PLR0917
    shoe: npt.NDArray[np.int64],
    pair: int,
    counts: npt.NDArray[np.int64],
    hard: npt.NDArray[np.int64],
    cards: npt.NDArray[np.int64],
    child: npt.NDArray[np.int64],
    action: npt.NDArray[np.int64],
    seed_of: npt.NDArray[np.int64],
    paid: float,
    peek: bool,
    all_bets_lost: bool,
    first_resplits: bool,
    second_resplits: bool,
    scale: int,
    offset: int,
    lookup_keys: npt.NDArray[np.int64],
    lookup_values: npt.NDArray[np.float64],
    collect: bool,
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64]
]:
    """The split of ``pair`` (``shoe``: the cards less the up card) played as two hands:
    ``[dealer result, net]`` of the rounds that end in two hands, exactly (module docstring).
    A hand whose second card is the pair card re-splits where ``first_resplits`` /
    ``second_resplits`` say so; those rounds are returned as ``(removed cards, first hand's
    net steps and probability)`` rows for the caller's approximation: the first hand's
    re-split as one row of zero nets; their removed-card keys end ``keys``. With
    ``collect`` nothing is summed: ``keys`` first holds every removed-card key whose dealer
    outcomes the summing needs (a first pass)."""
    size = counts.shape[0]
    grid = 2 * offset + 1
    matrix = np.zeros((OUTCOMES, grid))
    work = np.zeros(size)
    limit = size * 11
    comp1 = np.empty(limit, dtype=np.int64)
    extra1 = np.empty(limit, dtype=np.int64)
    bet1 = np.empty(limit, dtype=np.int64)
    p1 = np.empty(limit)
    comp2 = np.empty(limit, dtype=np.int64)
    extra2 = np.empty(limit, dtype=np.int64)
    bet2 = np.empty(limit, dtype=np.int64)
    p2 = np.empty(limit)
    seeds = np.empty(10, dtype=np.int64)
    seed_p = np.empty(10)
    nets1 = np.empty(OUTCOMES, dtype=np.int64)
    nets2 = np.empty(OUTCOMES, dtype=np.int64)
    seen = np.full(1024, _EMPTY, dtype=np.int64)
    distinct = 0
    # The re-split rows (at most one per first hand's final hand, and the first's re-split).
    removed_rows = np.zeros((limit + 1, 10), dtype=np.int64)
    net_rows = np.zeros((limit + 1, OUTCOMES), dtype=np.int64)
    probabilities = np.zeros(limit + 1)
    tails = 0

    # The first hand: both pair cards out; its own pair card is in its composition.
    left = shoe.copy()
    left[pair] -= 2
    base1 = shoe.copy()
    base1[pair] -= 1
    total_left = left.sum()
    if first_resplits and left[pair] > 0:
        _copy_into(removed_rows[tails], shoe - left)
        removed_rows[tails, pair] += 1
        probabilities[tails] = left[pair] / total_left
        tails += 1
    n_seeds = _seeds_of(left, pair, not first_resplits, seed_of, seeds, seed_p)
    found1 = _finals(base1, counts, cards, child, action, seeds[:n_seeds], seed_p[:n_seeds],
                     work, comp1, extra1, bet1, p1)  # fmt: skip
    removed1 = np.empty(10, dtype=np.int64)
    nets1_other = np.empty(OUTCOMES, dtype=np.int64)
    nets2_first = np.empty(OUTCOMES, dtype=np.int64)
    comp_key = np.empty(size, dtype=np.int64)
    for i in range(size):
        comp_key[i] = _key(counts[i])
    rank_key = np.empty(10, dtype=np.int64)
    for rank in range(10):
        rank_key[rank] = 64**rank
    for f in range(found1):
        # The cards out after the first hand: the up card's shoe less both hands' cards.
        for rank in range(10):
            removed1[rank] = counts[comp1[f], rank]
        if extra1[f] >= 0:
            removed1[extra1[f]] += 1
        removed1[pair] += 1  # the second hand's pair card
        # Each final hand has an identity (composition, busting card, stake); both hands play
        # alike and P(first = a, second = b) = P(first = b, second = a) (a card sequence's
        # chance depends only on its cards), so each unordered pair is visited once.
        identity = (comp1[f] * 11 + extra1[f] + 1) * 2 + bet1[f] - 1
        paid1 = action[comp1[f]] == PAID
        has_ace1 = counts[comp1[f], ACE] > 0
        _nets(comp1[f], extra1[f], bet1[f], paid1, hard[comp1[f]], has_ace1, 0, paid, peek,
              all_bets_lost, scale, nets1_other)  # fmt: skip
        _copy_into(nets1, nets1_other)
        nets1[BLACKJACK] -= _first_share(extra1[f], paid1, peek, all_bets_lost, scale)
        left2 = shoe - removed1
        if second_resplits and left2[pair] > 0:
            _copy_into(removed_rows[tails], removed1)
            removed_rows[tails, pair] += 1
            _copy_into(net_rows[tails], nets1)
            probabilities[tails] = p1[f] * left2[pair] / left2.sum()
            tails += 1
        base2 = left2.copy()
        base2[pair] += 1
        n_seeds = _seeds_of(left2, pair, not second_resplits, seed_of, seeds, seed_p)
        found2 = _finals(base2, counts, cards, child, action, seeds[:n_seeds],
                         seed_p[:n_seeds], work, comp2, extra2, bet2, p2)  # fmt: skip
        key1 = _key(removed1) - rank_key[pair]  # the second hand's pair card: in its cards
        for g in range(found2):
            other = (comp2[g] * 11 + extra2[g] + 1) * 2 + bet2[g] - 1
            if other < identity:
                continue
            key = key1 + comp_key[comp2[g]]
            if extra2[g] >= 0:
                key += rank_key[extra2[g]]
            if collect:
                position = _slot(seen, key)
                if seen[position] == _EMPTY:
                    seen[position] = key
                    distinct += 1
                    if 2 * distinct > seen.shape[0]:
                        seen = _grown(seen)
                continue
            dealer = lookup_values[_slot(lookup_keys, key)]
            paid2 = action[comp2[g]] == PAID
            has_ace2 = counts[comp2[g], ACE] > 0
            _nets(comp2[g], extra2[g], bet2[g], paid2, hard[comp2[g]], has_ace2, 0, paid, peek,
                  all_bets_lost, scale, nets2)  # fmt: skip
            weight = p1[f] * p2[g]
            if other == identity:
                for outcome in range(OUTCOMES):
                    chance = dealer[outcome]
                    matrix[outcome, offset + nets1[outcome] + nets2[outcome]] += weight * chance
                continue
            _copy_into(nets2_first, nets2)
            nets2_first[BLACKJACK] -= _first_share(extra2[g], paid2, peek, all_bets_lost, scale)
            for outcome in range(OUTCOMES):
                chance = weight * dealer[outcome]
                matrix[outcome, offset + nets1[outcome] + nets2[outcome]] += chance
                matrix[outcome, offset + nets2_first[outcome] + nets1_other[outcome]] += chance
    keys = np.empty(distinct + tails, dtype=np.int64)
    found = 0
    for key in seen:
        if key != _EMPTY and collect:
            keys[found] = key
            found += 1
    for t in range(tails):
        keys[distinct + t] = _key(removed_rows[t])
    return matrix, net_rows[:tails].copy(), probabilities[:tails].copy(), keys


def split_round_matrix(  # noqa: PLR0917
    card: UpCard,
    pair: int,
    action: npt.NDArray[np.int64],
    first_resplits: bool,
    second_resplits: bool,
    scale: int,
    offset: int,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.float64],
           npt.NDArray[np.float64]]:  # fmt: skip
    """``two_hands`` for ``card`` (a ``blackjack_exact.UpCard``): the two-hand rounds'
    ``[dealer result, net]``, and the re-split rows (first hand's nets, probability, the
    dealer's outcomes for the cards out at the re-split). The dealer's outcomes go to a
    table of the call's own (the unions of two hands' cards are of no use to the up card's
    other computations), so that calls for one up card may run on several threads."""
    table = compositions()
    rules = card.rules
    seed_of = np.array([table.of(pair, rank) for rank in range(10)], dtype=np.int64)
    dealer = DealerTable(card.shoe, card.up, rules.hits_soft_17)
    arguments = (
        card.shoe, pair, table.counts, table.hard, table.cards, table.child, action, seed_of,
        rules.blackjack_pays, rules.peek, rules.all_bets_lost, first_resplits,
        second_resplits, scale, offset,
    )  # fmt: skip
    _, _, _, keys = two_hands(
        *arguments, np.zeros(1, dtype=np.int64), np.zeros((1, OUTCOMES)), True
    )
    wanted = distinct(keys)
    outcomes = dealer.outcomes((wanted[:, None] // _KEY_WEIGHTS) % _KEY_BASE)
    lookup_keys, lookup_values = lookup_table(wanted, outcomes)
    matrix, net_rows, probabilities, tail_keys = two_hands(
        *arguments, lookup_keys, lookup_values, False
    )
    return matrix, net_rows, probabilities, outcomes[np.searchsorted(wanted, tail_keys)]


# --------------------------------------------------------------------------------------------
# Every hand of the split round jointly, re-splits included (the exact distribution).
# --------------------------------------------------------------------------------------------

_NO_ROOM = -1
"""``many_hands``' ``status`` when the round has more states or leaves than its budget."""
STATE_BUDGET = 20_000
"""The most states (or dealer compositions) a split round is taken jointly for: each costs
about a millisecond and 4 KB, so a round within it takes seconds at most."""


@numba.njit(cache=True, nogil=True)
def _mixed(key: int) -> int:
    """A 64-bit mix of ``key`` whose low bits depend on all of its bits (the removed-card
    keys differ mostly in their high digits; a plain multiple's low bits would not)."""
    key ^= key >> 31
    key *= 0x7FB5D329728EA185
    key ^= key >> 27
    key *= 0x81DADEF4BC2DD44D
    key ^= key >> 33
    return key


@numba.njit(cache=True, nogil=True)
def _state_slot(
    keys: npt.NDArray[np.int64], codes: npt.NDArray[np.int64], key: int, code: int
) -> int:
    """The position of the state ``(key, code)`` in the open-addressing table ``keys`` /
    ``codes`` (its place if absent)."""
    mask: int = keys.shape[0] - 1
    position: int = _mixed(key * 31 + code) & mask
    while keys[position] != _EMPTY and (keys[position] != key or codes[position] != code):
        position = (position + 1) & mask
    return position


@numba.njit(cache=True, nogil=True)
def _states_grown(
    keys: npt.NDArray[np.int64], codes: npt.NDArray[np.int64], index: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    bigger_keys = np.full(2 * keys.shape[0], _EMPTY, dtype=np.int64)
    bigger_codes = np.zeros(2 * keys.shape[0], dtype=np.int64)
    bigger_index = np.zeros(2 * keys.shape[0], dtype=np.int64)
    for position in range(keys.shape[0]):
        if keys[position] != _EMPTY:
            slot = _state_slot(bigger_keys, bigger_codes, keys[position], codes[position])
            bigger_keys[slot] = keys[position]
            bigger_codes[slot] = codes[position]
            bigger_index[slot] = index[position]
    return bigger_keys, bigger_codes, bigger_index


@numba.njit(cache=True, nogil=True)
def _hand_finals(  # noqa: PLR0917
    left: npt.NDArray[np.int64],
    pair: int,
    with_pair: bool,
    counts: npt.NDArray[np.int64],
    cards: npt.NDArray[np.int64],
    child: npt.NDArray[np.int64],
    action: npt.NDArray[np.int64],
    seed_of: npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int64],
    seed_p: npt.NDArray[np.float64],
    work: npt.NDArray[np.float64],
    out: tuple[
        npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]
    ],
) -> int:
    """The final hands of a split hand holding its pair card, the cards ``left`` to draw from
    (the hand's own pair card already out): ``_finals``, its second card the pair card only
    if ``with_pair`` (else that card re-splits)."""
    base = left.copy()
    base[pair] += 1  # the hand's composition counts its own pair card
    n_seeds = _seeds_of(left, pair, with_pair, seed_of, seeds, seed_p)
    return _finals(base, counts, cards, child, action, seeds[:n_seeds], seed_p[:n_seeds],
                   work, out[0], out[1], out[2], out[3])  # fmt: skip


@numba.njit(cache=True, nogil=True)
def many_hands(  # noqa: PLR0917
    shoe: npt.NDArray[np.int64],
    pair: int,
    counts: npt.NDArray[np.int64],
    hard: npt.NDArray[np.int64],
    cards: npt.NDArray[np.int64],
    child: npt.NDArray[np.int64],
    action: npt.NDArray[np.int64],
    seed_of: npt.NDArray[np.int64],
    paid: float,
    peek: bool,
    all_bets_lost: bool,
    may_resplit: bool,
    max_hands: int,
    scale: int,
    offset: int,
    lookup_keys: npt.NDArray[np.int64],
    lookup_codes: npt.NDArray[np.int64],
    lookup_values: npt.NDArray[np.float64],
    collect: bool,
    budget: int,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], int]:
    """The split of ``pair`` (``shoe``: the cards less the up card), every hand jointly,
    re-splits to ``max_hands`` included: ``[dealer result, net]`` of the whole round, exactly.

    A state is the cards out (the up card aside), the hands in the box and the hands still to
    play; its value is ``[dealer result, net of the hands still to play]``. The hand being
    played draws its second card: the pair card re-splits it while the box has room (one more
    hand in the box and to play), any other card makes a two-card hand that is played out
    (``_finals``); each of its final hands leaves the state with its cards out and one hand
    fewer to play, whose value is shifted by the hand's nets; with no hand left, the dealer's
    outcomes for the cards out (the hole card exchangeable with every card the hands drew).
    A state's value depends only on its cards out, never on the order the hands took them, so
    each is computed once, after the states with more cards out (every step takes a card).
    The first hand (the one still playing while every hand of the box is to play) carries the
    original stake (``_first_share``). With ``collect`` nothing is summed and the third value
    is the number of states: ``keys`` holds the removed-card keys whose dealer outcomes the
    sum needs. More than ``budget`` states or keys: ``status`` ``_NO_ROOM``, nothing else."""
    size = counts.shape[0]
    grid = 2 * offset + 1
    limit = size * 11
    out = (np.empty(limit, dtype=np.int64), np.empty(limit, dtype=np.int64),
           np.empty(limit, dtype=np.int64), np.empty(limit))  # fmt: skip
    work = np.zeros(size)
    seeds = np.empty(10, dtype=np.int64)
    seed_p = np.empty(10)
    nets = np.empty(OUTCOMES, dtype=np.int64)

    # Discovery: every state the round can reach, in the order found (parents first).
    state_keys = np.full(1024, _EMPTY, dtype=np.int64)
    state_codes = np.zeros(1024, dtype=np.int64)
    state_index = np.zeros(1024, dtype=np.int64)
    removed = np.zeros((64, 10), dtype=np.int64)
    hands = np.zeros(64, dtype=np.int64)
    pending = np.zeros(64, dtype=np.int64)
    removed[0, pair] = 2
    hands[0], pending[0] = 2, 2
    position = _state_slot(state_keys, state_codes, _key(removed[0]), 22)
    state_keys[position], state_codes[position], state_index[position] = _key(removed[0]), 22, 0
    states = 1
    # The removed-card keys the dealer's outcomes are wanted for (code 0: any box).
    seen = np.full(1024, _EMPTY, dtype=np.int64)
    seen_codes = np.zeros(1024, dtype=np.int64)
    seen_index = np.zeros(1024, dtype=np.int64)
    distinct = 0
    after = np.empty(10, dtype=np.int64)
    s = 0
    while s < states:
        left = shoe - removed[s]
        n, p = hands[s], pending[s]
        room = may_resplit and n < max_hands
        found = _hand_finals(left, pair, not room, counts, cards, child, action, seed_of,
                             seeds, seed_p, work, out)  # fmt: skip
        for f in range(-1, found):
            if f < 0:  # the pair card as the second card: a re-split
                if not room or left[pair] <= 0:
                    continue
                after[:] = removed[s]
                after[pair] += 1
                code = (n + 1) * 10 + p + 1
            else:
                after[:] = removed[s]
                after[pair] -= 1
                after += counts[out[0][f]]
                if out[1][f] >= 0:
                    after[out[1][f]] += 1
                code = n * 10 + p - 1
            key = _key(after)
            if code % 10 == 0:  # no hand left to play: the dealer's turn
                if collect:
                    position = _state_slot(seen, seen_codes, key, 0)
                    if seen[position] == _EMPTY:
                        seen[position] = key
                        distinct += 1
                        if 2 * distinct > seen.shape[0]:
                            seen, seen_codes, seen_index = _states_grown(
                                seen, seen_codes, seen_index
                            )
                continue
            position = _state_slot(state_keys, state_codes, key, code)
            if state_keys[position] != _EMPTY:
                continue
            if states == removed.shape[0]:
                removed = np.concatenate((removed, np.zeros_like(removed)))
                hands = np.concatenate((hands, np.zeros_like(hands)))
                pending = np.concatenate((pending, np.zeros_like(pending)))
            state_keys[position], state_codes[position], state_index[position] = key, code, states
            if 2 * (states + 1) > state_keys.shape[0]:
                state_keys, state_codes, state_index = _states_grown(
                    state_keys, state_codes, state_index
                )
            removed[states] = after
            hands[states], pending[states] = code // 10, code % 10
            states += 1
        if states > budget or distinct > budget:
            return np.zeros((OUTCOMES, grid)), np.zeros(0, dtype=np.int64), _NO_ROOM
        s += 1
    if collect:
        keys = np.empty(distinct, dtype=np.int64)
        k = 0
        for leaf in seen:
            if leaf != _EMPTY:
                keys[k] = leaf
                k += 1
        return np.zeros((OUTCOMES, grid)), keys, states

    # Values, the states with more cards out first (a step never gives a card back).
    taken = removed[:states].sum(axis=1)
    order = np.argsort(-taken, kind="mergesort")
    values = np.zeros((states, OUTCOMES, grid))
    # Each state's nets span [low, high) on the grid: the shifts below add only that much.
    lows = np.zeros(states, dtype=np.int64)
    highs = np.zeros(states, dtype=np.int64)
    for s in order:
        left = shoe - removed[s]
        n, p = hands[s], pending[s]
        first = n == p
        room = may_resplit and n < max_hands
        value = values[s]
        total_left = left.sum()
        if room and left[pair] > 0:
            after[:] = removed[s]
            after[pair] += 1
            position = _state_slot(state_keys, state_codes, _key(after), (n + 1) * 10 + p + 1)
            value += (left[pair] / total_left) * values[state_index[position]]
        found = _hand_finals(left, pair, not room, counts, cards, child, action, seed_of,
                             seeds, seed_p, work, out)  # fmt: skip
        for f in range(found):
            comp, extra, bet, chance = out[0][f], out[1][f], out[2][f], out[3][f]
            is_paid = action[comp] == PAID
            _nets(comp, extra, bet, is_paid, hard[comp], counts[comp, ACE] > 0, 0, paid, peek,
                  all_bets_lost, scale, nets)  # fmt: skip
            if first:
                nets[BLACKJACK] -= _first_share(extra, is_paid, peek, all_bets_lost, scale)
            after[:] = removed[s]
            after[pair] -= 1
            after += counts[comp]
            if extra >= 0:
                after[extra] += 1
            key = _key(after)
            if p == 1:
                dealer = lookup_values[_state_slot(lookup_keys, lookup_codes, key, 0)]
                for outcome in range(OUTCOMES):
                    value[outcome, offset + nets[outcome]] += chance * dealer[outcome]
                continue
            later_state = state_index[_state_slot(state_keys, state_codes, key, n * 10 + p - 1)]
            later = values[later_state]
            for outcome in range(OUTCOMES):
                shift = nets[outcome]
                low = max(lows[later_state], -shift)
                high = min(highs[later_state], grid - shift)
                for v in range(low, high):
                    value[outcome, v + shift] += chance * later[outcome, v]
        low, high = grid, 0
        for outcome in range(OUTCOMES):
            for v in range(grid):
                if value[outcome, v] != 0.0:
                    low = min(low, v)
                    high = max(high, v + 1)
        lows[s], highs[s] = low, high
    return values[0].copy(), np.zeros(0, dtype=np.int64), states


def whole_round_matrix(  # noqa: PLR0917
    card: UpCard,
    pair: int,
    action: npt.NDArray[np.int64],
    may_resplit: bool,
    scale: int,
    offset: int,
    budget: int,
) -> npt.NDArray[np.float64] | None:
    """``many_hands`` for ``card`` (a ``blackjack_exact.UpCard``): the whole split round's
    ``[dealer result, net]``, exactly, or ``None`` if it has more than ``budget`` states or
    dealer compositions (then the caller approximates). Its own dealer table, as
    ``split_round_matrix``."""
    table = compositions()
    rules = card.rules
    seed_of = np.array([table.of(pair, rank) for rank in range(10)], dtype=np.int64)
    arguments = (
        card.shoe, pair, table.counts, table.hard, table.cards, table.child, action, seed_of,
        rules.blackjack_pays, rules.peek, rules.all_bets_lost, may_resplit, rules.max_hands,
        scale, offset,
    )  # fmt: skip
    nothing = np.zeros(1, dtype=np.int64)
    _, keys, status = many_hands(
        *arguments, nothing, nothing, np.zeros((1, OUTCOMES)), True, budget
    )
    if status == _NO_ROOM:
        return None
    dealer = DealerTable(card.shoe, card.up, rules.hits_soft_17)
    outcomes = dealer.outcomes((keys[:, None] // _KEY_WEIGHTS) % _KEY_BASE)
    lookup_keys, lookup_codes, lookup_values = _table_of(keys, outcomes, True)
    matrix, _, _ = many_hands(*arguments, lookup_keys, lookup_codes, lookup_values, False, budget)
    return matrix
