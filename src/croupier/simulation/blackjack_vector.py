"""Blackjack's vector environment compiled (numba): many boxes, each at its own round.

Each environment of the batch is one box at its own table, with its own shoe and its own
xoshiro256** stream, stopped at the agent's next decision: the betting step, insurance, or a
hand of the box. ``step`` applies one action to each environment and plays on, by the
engine's order (``croupier.games.blackjack.BlackjackRound``: the deal, insurance and even
money, the peek, blackjacks paid at once, each hand in turn with a split hand's second card
when its turn comes, the dealer, settlement), until the next decision or the round's end.
The draws, the legality of each decision and the settlement are the simulator's step
functions (``blackjack_kernel``: ``draw``, ``can_double``, ``can_split``, ``can_surrender``,
``settled_net``), so that a rule lives once in the compiled code.

Amounts are whole table units, as the engine takes them: the base bet, a double for less and
a partial insurance (the catalogue's quarters, ``croupier.envs.actions``); nets are in
``1 / denominator`` of a unit (``blackjack_sim.denominator_of``).

Everything lives in arrays made once (``VectorState``): the per-environment fields ``E_*``,
the hands' fields ``H_*`` in the order of the box's list, each hand's cards and the dealer's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.simulation.blackjack_kernel import (
    B_FIELDS,
    P_ACE_FACE_DOWN,
    P_ACE_TEN_BJ,
    P_BJ_NET,
    P_BJ_PAID_AT_ONCE,
    P_BURN,
    P_CUT_FROM_BOTTOM,
    P_DENOMINATOR,
    P_DOUBLE_FACE_DOWN,
    P_DRAWS_WHEN_NONE_LEFT,
    P_EVEN_MONEY,
    P_FIELDS,
    P_H17,
    P_HOLE,
    P_INSURANCE,
    P_INSURANCE_NET,
    P_INSURANCE_SHARE,
    P_MAX_HANDS,
    P_SPLIT_BY_RANK,
    R_FIELDS,
    S_FIELDS,
    _best,
    _block_tables,
    _hand_slots,
    can_double,
    can_split,
    can_surrender,
    draw,
    one_box_tables,
    play_one_box,
    settled_net,
    shuffle,
    without_runtime,
)

Array = npt.NDArray[Any]

# Where an environment stands.
PH_BET = 0
PH_INSURANCE = 1
PH_PLAY = 2
PH_DONE = 3

# Catalogue indices (``croupier.envs.actions.BLACKJACK``; a test holds them to it).
A_STAND = 0
A_HIT = 1
A_DOUBLE = 2
A_SPLIT = 3
A_SURRENDER = 4
A_INSURANCE = 5
A_NO_INSURANCE = 6
A_EVEN_MONEY = 7
A_DOUBLE_QUARTERS = 8
"""``double-1/4``, ``-1/2``, ``-3/4``: 8, 9, 10; then ``insurance-1/4`` ... 11, 12, 13."""
A_INSURANCE_QUARTERS = 11
A_BETS = 14
"""``bet-1x`` ... ``bet-16x`` (``BET_MULTIPLES``)."""
N_ACTIONS = 22
BET_MULTIPLES = np.array([1, 2, 3, 4, 6, 8, 12, 16], dtype=np.int64)

# Per-environment fields.
E_PHASE = 0
E_POS = 1
E_BASE = 2
"""The base bet in table units (the reward's unit)."""
E_BET = 3
"""The main bet placed this round, in table units."""
E_HANDS = 4
E_TURN = 5
"""The hand in play: its place in the box's list."""
E_DEALER = 6
E_REVEALED = 7
E_INSURED = 8
"""The insurance taken, in table units."""
E_INSURANCE_SETTLED = 9
E_INSURANCE_NET = 10
E_SETTLED = 11
"""1 once the round is settled (``E_NET`` is its net)."""
E_NET = 12
E_SHOES = 13
E_LIMIT_LOW = 14
"""The betting ladder's limits in table units (``betting``), else 0 and 0: every index deals."""
E_LIMIT_HIGH = 15
E_EXHAUSTED = 16
E_FIELDS = 17

# Per-hand fields, in the order of the box's list (a split hand goes right after its own).
H_HARD = 0
H_ACE = 1
H_N = 2
H_SEVENS = 3
H_STAKE = 4
H_INCREMENT = 5
"""A double's amount, in table units."""
H_SPLIT = 6
H_ACES = 7
H_FINISHED = 8
H_SETTLED = 9
H_DOWN = 10
"""The place of the card dealt face down (-1: none)."""
H_NET = 11
H_NUMBER = 12
"""The hand's number (the engine's: the next free number, whatever its place)."""
H_FIELDS = 13

P_DOUBLE_FOR_LESS = P_FIELDS
"""Appended to the simulator's parameters (``vector_parameters``): the profile takes a
double for less (Peru Art. 12)."""
V_FIELDS = P_FIELDS + 1

MAX_CARDS = 22
MAX_DEALER = 22
MAX_HANDS_VIEW = 8
"""The observation's ``hands`` and ``hand_number`` stop at this many (``CroupierEnv``'s)."""
VIEW = ("phase", "bets", "hand", "total", "soft", "hand_number", "hands", "stake", "dealer", "seen")
"""The observation's arrays, in the order the kernel takes them (``view``)."""


@dataclass
class VectorState:
    """The batch's arrays: per environment (``fields``), per hand (``hands``, ``hand_cards``),
    the dealer's cards, the shoes and their random streams, and the counting tallies."""

    fields: Array
    hands: Array
    hand_cards: Array
    dealer: Array
    shoes: Array
    streams: Array
    seen: Array
    """Ranks seen in earlier rounds of the shoe (2 ... Ace), the burns never."""


def stream_states(seed: int | None, count: int) -> npt.NDArray[np.uint64]:
    """One xoshiro256** state per environment, spawned from ``seed`` with numpy's
    ``SeedSequence`` as the simulator seeds its blocks: independent, reproducible streams. An
    all-zero state, xoshiro's one forbidden state, becomes 1. Nothing here deals a live
    outcome (R1: live shoes come from the OS source)."""
    states = np.empty((count, 4), dtype=np.uint64)
    for i, child in enumerate(np.random.SeedSequence(seed).spawn(count)):
        words = child.generate_state(4, np.uint64)
        if not words.any():
            words[0] = np.uint64(1)
        states[i] = words
    return states


def new_state(num_envs: int, decks: int, max_hands: int) -> VectorState:
    size = 52 * decks
    shoes = np.empty((num_envs, size), dtype=np.int8)
    shoes[:] = np.arange(size, dtype=np.int64) % 52
    fields = np.zeros((num_envs, E_FIELDS), dtype=np.int64)
    fields[:, E_POS] = size  # a shuffle before the first round
    fields[:, E_PHASE] = PH_DONE
    return VectorState(
        fields,
        np.zeros((num_envs, max_hands, H_FIELDS), dtype=np.int64),
        np.zeros((num_envs, max_hands, MAX_CARDS), dtype=np.int8),
        np.zeros((num_envs, MAX_DEALER), dtype=np.int8),
        shoes,
        np.zeros((num_envs, 4), dtype=np.uint64),
        np.zeros((num_envs, 13), dtype=np.int64),
    )


# --- step functions: one environment ------------------------------------------------------------


@njit(inline="always")
def _take(i: int, f: Array, shoes: Array, streams: Array) -> Any:
    card, pos, ran_out = draw(shoes[i], f[i, E_POS], streams[i])
    f[i, E_POS] = pos
    if ran_out:
        f[i, E_EXHAUSTED] = 1
    return card


@njit(inline="always")
def _add_card(  # noqa: PLR0917
    i: int, h: int, card: Any, face_down: bool, hands: Array, hand_cards: Array
) -> None:
    """``card`` onto hand ``h``: its total, an Ace held, the run of sevens (Veintiuno Real)."""
    rank = card >> 2
    v = 1 if rank == 12 else (10 if rank >= 8 else rank + 2)
    x = hands[i, h]
    n = x[H_N]
    if n < MAX_CARDS:
        hand_cards[i, h, n] = card
    if face_down:
        x[H_DOWN] = n
    x[H_HARD] += v
    if v == 1:
        x[H_ACE] = 1
    if v == 7 and x[H_SEVENS] == n:
        x[H_SEVENS] += 1
    x[H_N] = n + 1


@njit(inline="always")
def _card_value(card: Any) -> Any:
    rank = card >> 2
    return 1 if rank == 12 else (10 if rank >= 8 else rank + 2)


@njit(inline="always")
def _is_pair(i: int, h: int, hand_cards: Array, p: Array) -> Any:
    first = hand_cards[i, h, 0]
    second = hand_cards[i, h, 1]
    if p[P_SPLIT_BY_RANK] != 0:
        return (first >> 2) == (second >> 2)
    return _card_value(first) == _card_value(second)


@njit(inline="always")
def _dealer_total(i: int, f: Array, dealer: Array) -> Any:
    hard = 0
    ace = False
    for k in range(f[i, E_DEALER]):
        v = _card_value(dealer[i, k])
        hard += v
        ace |= v == 1
    return hard, ace


@njit(inline="always")
def _dealer_blackjack(i: int, f: Array, dealer: Array) -> Any:
    if f[i, E_DEALER] < 2:
        return False
    hard = _card_value(dealer[i, 0]) + _card_value(dealer[i, 1])
    return hard == 11 and (_card_value(dealer[i, 0]) == 1 or _card_value(dealer[i, 1]) == 1)


@njit(inline="always")
def _dealer_card(i: int, f: Array, dealer: Array, shoes: Array, streams: Array) -> None:
    card = _take(i, f, shoes, streams)
    n = f[i, E_DEALER]
    if n < MAX_DEALER:
        dealer[i, n] = card
    f[i, E_DEALER] = n + 1


@njit(inline="always")
def open_round(  # noqa: PLR0917
    i: int, p: Array, f: Array, shoes: Array, streams: Array, seen: Array
) -> None:
    """The betting step of a new round: a new shoe first when the cut card came out in the
    last round (its burns leave it), as the single environment keeps its shoe."""
    size = shoes.shape[1]
    if f[i, E_POS] >= size - p[P_CUT_FROM_BOTTOM] or f[i, E_EXHAUSTED] != 0:
        shuffle(shoes[i], streams[i])
        f[i, E_POS] = p[P_BURN]
        f[i, E_SHOES] += 1
        seen[i, :] = 0
    f[i, E_EXHAUSTED] = 0
    f[i, E_PHASE] = PH_BET
    f[i, E_SETTLED] = 0
    f[i, E_NET] = 0
    f[i, E_HANDS] = 0
    f[i, E_DEALER] = 0


@njit(inline="always")
def _deal(  # noqa: PLR0917
    i: int, bet: int, p: Array, f: Array, hands: Array, hand_cards: Array, dealer: Array,
    shoes: Array, streams: Array,
) -> None:  # fmt: skip
    """The deal: a card to the box, the up card, the box's second, the hole card where the
    profile deals one."""
    f[i, E_BET] = bet
    f[i, E_HANDS] = 1
    f[i, E_TURN] = 0
    f[i, E_REVEALED] = 0
    f[i, E_INSURED] = 0
    f[i, E_INSURANCE_SETTLED] = 0
    f[i, E_INSURANCE_NET] = 0
    hands[i, 0, :] = 0
    hands[i, 0, H_STAKE] = bet
    hands[i, 0, H_DOWN] = -1
    _add_card(i, 0, _take(i, f, shoes, streams), False, hands, hand_cards)
    _dealer_card(i, f, dealer, shoes, streams)
    _add_card(i, 0, _take(i, f, shoes, streams), False, hands, hand_cards)
    if p[P_HOLE] != 0:
        _dealer_card(i, f, dealer, shoes, streams)


@njit(inline="always")
def _is_blackjack(i: int, h: int, hands: Array, p: Array) -> Any:
    x = hands[i, h]
    if not (x[H_N] == 2 and x[H_ACE] != 0 and x[H_HARD] == 11):
        return False
    return x[H_SPLIT] == 0 or (p[P_ACE_TEN_BJ] != 0 and x[H_ACES] != 0)


@njit(inline="always")
def _most_insurance(i: int, p: Array, f: Array) -> Any:
    """Art. 10: up to ``insurance_max`` of the original bet, in whole units."""
    return f[i, E_BET] * p[P_INSURANCE_SHARE] // p[P_DENOMINATOR]


@njit(inline="always")
def _settle_now(i: int, h: int, net: Any, hands: Array) -> None:
    hands[i, h, H_FINISHED] = 1
    hands[i, h, H_SETTLED] = 1
    hands[i, h, H_NET] = net


@njit(inline="always")
def _settle_insurance(i: int, p: Array, f: Array, dealer: Array) -> None:
    if f[i, E_INSURED] > 0 and f[i, E_INSURANCE_SETTLED] == 0:
        won = _dealer_blackjack(i, f, dealer)
        per_unit = p[P_INSURANCE_NET] if won else -p[P_DENOMINATOR]
        f[i, E_INSURANCE_NET] = f[i, E_INSURED] * per_unit
        f[i, E_INSURANCE_SETTLED] = 1


@njit(inline="always")
def _after_insurance(i: int, p: Array, f: Array, hands: Array, dealer: Array) -> Any:
    """The peek and the blackjacks paid at once, once insurance is decided (or not asked):
    True when the dealer's blackjack ended the round, else the box's turns begin."""
    up = _card_value(dealer[i, 0])
    peeks = p[P_HOLE] == 2 and (up == 1 or up == 10)  # noqa: PLR1714 - numba
    if peeks and _dealer_blackjack(i, f, dealer):
        # The peek: the dealer's blackjack ends the round before anyone plays.
        f[i, E_REVEALED] = 1
        _settle_insurance(i, p, f, dealer)
        _settle(i, p, f, hands, dealer)
        return True
    if peeks:
        _settle_insurance(i, p, f, dealer)
    at_once = p[P_BJ_PAID_AT_ONCE] != 0 and up != 1 and up != 10  # noqa: PLR1714 - numba
    if at_once and hands[i, 0, H_SETTLED] == 0 and _is_blackjack(i, 0, hands, p):
        _settle_now(i, 0, p[P_BJ_NET] * hands[i, 0, H_STAKE], hands)
    f[i, E_PHASE] = PH_PLAY
    return False


@njit(inline="always")
def _close_if_nothing_to_decide(  # noqa: PLR0917
    i: int, h: int, p: Array, f: Array, hands: Array, hand_cards: Array
) -> None:
    x = hands[i, h]
    total = _best(x[H_HARD], x[H_ACE] != 0)
    if total > 21 and x[H_DOWN] >= 0:
        x[H_FINISHED] = 1  # a bust under a face-down card waits for the dealer
    elif total > 21:
        _settle_now(i, h, -(x[H_STAKE] + x[H_INCREMENT]) * p[P_DENOMINATOR], hands)
    elif total == 21:
        x[H_FINISHED] = 1
    elif (
        x[H_ACES] != 0
        and x[H_N] >= 2
        and not can_split(_is_pair(i, h, hand_cards, p), f[i, E_HANDS], True, p)
    ):
        x[H_FINISHED] = 1  # Art. 11: split Aces take one card each


@njit(inline="always")
def _next_turn(  # noqa: PLR0917
    i: int, p: Array, f: Array, hands: Array, hand_cards: Array, dealer: Array, shoes: Array,
    streams: Array,
) -> None:  # fmt: skip
    """On to the next hand that needs a decision (a split hand's second card when its turn
    comes); the dealer and settlement once none does."""
    for h in range(f[i, E_HANDS]):
        x = hands[i, h]
        if x[H_FINISHED] != 0:
            continue
        if x[H_N] == 1:
            face_down = x[H_ACES] != 0 and p[P_ACE_FACE_DOWN] != 0
            _add_card(i, h, _take(i, f, shoes, streams), face_down, hands, hand_cards)
        _close_if_nothing_to_decide(i, h, p, f, hands, hand_cards)
        if x[H_FINISHED] == 0:
            f[i, E_TURN] = h
            return
    _play_dealer(i, p, f, hands, dealer, shoes, streams)
    _settle(i, p, f, hands, dealer)


@njit(inline="always")
def _play_dealer(  # noqa: PLR0917
    i: int, p: Array, f: Array, hands: Array, dealer: Array, shoes: Array, streams: Array
) -> None:
    """Art. 14: the dealer reveals and draws to 17 (nothing when no hand waits on him, where
    the profile says so; his second card still when an insurance bet waits on it)."""
    f[i, E_REVEALED] = 1
    hands_left = p[P_DRAWS_WHEN_NONE_LEFT] != 0
    for h in range(f[i, E_HANDS]):
        hands_left |= hands[i, h, H_SETTLED] == 0
    insurance_left = f[i, E_INSURED] > 0 and f[i, E_INSURANCE_SETTLED] == 0
    if f[i, E_DEALER] == 1 and (hands_left or insurance_left):
        _dealer_card(i, f, dealer, shoes, streams)
    _settle_insurance(i, p, f, dealer)
    if not hands_left or _dealer_blackjack(i, f, dealer):
        return
    while True:
        hard, ace = _dealer_total(i, f, dealer)
        total = _best(hard, ace)
        soft = ace and hard + 10 <= 21
        if total > 17 or (total == 17 and not (soft and p[P_H17] != 0)):
            return
        _dealer_card(i, f, dealer, shoes, streams)


@njit(inline="always")
def _settle(i: int, p: Array, f: Array, hands: Array, dealer: Array) -> None:
    dealer_bj = _dealer_blackjack(i, f, dealer)
    hard, ace = _dealer_total(i, f, dealer)
    d_total = _best(hard, ace)
    net = f[i, E_INSURANCE_NET]
    for h in range(f[i, E_HANDS]):
        x = hands[i, h]
        if x[H_SETTLED] == 0:
            x[H_NET] = settled_net(
                x[H_HARD], x[H_ACE] != 0, x[H_N], x[H_SEVENS], x[H_STAKE] + x[H_INCREMENT],
                x[H_STAKE], x[H_SPLIT] != 0, x[H_ACES] != 0, h == 0, dealer_bj, d_total, p,
            )  # fmt: skip
            x[H_SETTLED] = 1
            x[H_FINISHED] = 1
        net += x[H_NET]
    f[i, E_NET] = net
    f[i, E_SETTLED] = 1
    f[i, E_PHASE] = PH_DONE


# --- the agent's actions -------------------------------------------------------------------------


@njit(inline="always")
def mask_of(  # noqa: PLR0917
    i: int, p: Array, f: Array, hands: Array, hand_cards: Array, mask: Array
) -> None:
    """Row ``i`` of the action mask: the legal catalogue indices now (the engine's
    ``legal_actions`` through ``croupier.envs.actions.legal_mask``)."""
    mask[i, :] = 0
    phase = f[i, E_PHASE]
    if phase == PH_BET:
        low = f[i, E_LIMIT_LOW]
        high = f[i, E_LIMIT_HIGH]
        if high == 0:
            mask[i, :] = 1  # a fixed bet: every index deals it
            return
        for k in range(BET_MULTIPLES.size):
            stake = BET_MULTIPLES[k] * f[i, E_BASE]
            if low <= stake <= high:
                mask[i, A_BETS + k] = 1
        return
    if phase == PH_INSURANCE:
        most = _most_insurance(i, p, f)
        if most >= 1:
            mask[i, A_INSURANCE] = 1
            for k in range(3):
                units = (most * (k + 1)) // 4
                if 1 <= units < most:
                    mask[i, A_INSURANCE_QUARTERS + k] = 1
        mask[i, A_NO_INSURANCE] = 1
        if p[P_EVEN_MONEY] != 0 and _is_blackjack(i, 0, hands, p):
            mask[i, A_EVEN_MONEY] = 1
        return
    if phase != PH_PLAY:
        return
    h = f[i, E_TURN]
    x = hands[i, h]
    if x[H_ACES] == 0:
        mask[i, A_HIT] = 1
    mask[i, A_STAND] = 1
    if can_double(x[H_N], x[H_HARD], x[H_ACE] != 0, x[H_SPLIT] != 0, x[H_ACES] != 0, p):
        mask[i, A_DOUBLE] = 1
        if p[P_DOUBLE_FOR_LESS] != 0:
            for k in range(3):
                units = (x[H_STAKE] * (k + 1)) // 4
                if 1 <= units < x[H_STAKE]:
                    mask[i, A_DOUBLE_QUARTERS + k] = 1
    if x[H_N] == 2 and can_split(_is_pair(i, h, hand_cards, p), f[i, E_HANDS], x[H_ACES] != 0, p):
        mask[i, A_SPLIT] = 1
    if can_surrender(x[H_N], x[H_SPLIT] != 0, p):
        mask[i, A_SURRENDER] = 1


@without_runtime
def act(  # noqa: PLR0917
    i: int, action: Any, p: Array, f: Array, hands: Array, hand_cards: Array, dealer: Array,
    shoes: Array, streams: Array,
) -> None:  # fmt: skip
    """Apply a legal ``action`` (the caller checked it against ``mask_of``) and play on to
    the next decision or the round's end. One compiled function: every step function below
    it is inlined, each once (the turns and the dealer are reached by one path)."""
    phase = f[i, E_PHASE]
    if phase == PH_BET:
        multiple = 1
        if f[i, E_LIMIT_HIGH] != 0:
            multiple = BET_MULTIPLES[action - A_BETS]
        _deal(i, f[i, E_BASE] * multiple, p, f, hands, hand_cards, dealer, shoes, streams)
        if p[P_INSURANCE] != 0 and _card_value(dealer[i, 0]) == 1:
            f[i, E_PHASE] = PH_INSURANCE  # Art. 10: insurance when the up card is an Ace
            return
    elif phase == PH_INSURANCE:
        most = _most_insurance(i, p, f)
        if action == A_INSURANCE:
            f[i, E_INSURED] = most
        elif action >= A_INSURANCE_QUARTERS:
            f[i, E_INSURED] = (most * (action - A_INSURANCE_QUARTERS + 1)) // 4
        elif action == A_EVEN_MONEY:
            # Art. 13: even money, 1:1 at once.
            _settle_now(i, 0, f[i, E_BET] * p[P_DENOMINATOR], hands)
    if phase != PH_PLAY:
        if _after_insurance(i, p, f, hands, dealer):
            return
    else:
        h = f[i, E_TURN]
        x = hands[i, h]
        if action == A_HIT:
            _add_card(i, h, _take(i, f, shoes, streams), False, hands, hand_cards)
        elif action == A_STAND:
            x[H_FINISHED] = 1
        elif action == A_DOUBLE or A_DOUBLE_QUARTERS <= action < A_INSURANCE_QUARTERS:
            amount = x[H_STAKE]
            if action != A_DOUBLE:
                amount = (x[H_STAKE] * (action - A_DOUBLE_QUARTERS + 1)) // 4
            x[H_INCREMENT] = amount
            face_down = p[P_DOUBLE_FACE_DOWN] != 0
            _add_card(i, h, _take(i, f, shoes, streams), face_down, hands, hand_cards)
            x[H_FINISHED] = 1
        elif action == A_SPLIT:
            _split(i, h, p, f, hands, hand_cards)
            face_down = x[H_ACES] != 0 and p[P_ACE_FACE_DOWN] != 0
            _add_card(i, h, _take(i, f, shoes, streams), face_down, hands, hand_cards)
        elif action == A_SURRENDER:
            # docs/rules.md#D-BJ-32: half the bet back, settled at once.
            _settle_now(i, h, -(x[H_STAKE] * p[P_DENOMINATOR] // 2), hands)
        if action != A_SURRENDER:
            _close_if_nothing_to_decide(i, h, p, f, hands, hand_cards)
    _next_turn(i, p, f, hands, hand_cards, dealer, shoes, streams)


@njit(inline="always")
def _split(  # noqa: PLR0917
    i: int, h: int, p: Array, f: Array, hands: Array, hand_cards: Array
) -> None:
    """Art. 11: the second card starts a new hand, with an equal bet, right after this one."""
    last = f[i, E_HANDS]
    for t in range(last, h + 1, -1):  # element by element: a slice copy would allocate
        for k in range(H_FIELDS):
            hands[i, t, k] = hands[i, t - 1, k]
        for k in range(MAX_CARDS):
            hand_cards[i, t, k] = hand_cards[i, t - 1, k]
    number = 0
    for t in range(last):
        number = max(number, hands[i, t, H_NUMBER])
    x = hands[i, h]
    aces = _card_value(hand_cards[i, h, 0]) == 1
    second = hand_cards[i, h, 1]
    new = hands[i, h + 1]
    new[:] = 0
    new[H_STAKE] = x[H_STAKE]
    new[H_SPLIT] = 1
    new[H_ACES] = aces
    new[H_DOWN] = -1
    new[H_NUMBER] = number + 1
    _add_card(i, h + 1, second, False, hands, hand_cards)
    first = hand_cards[i, h, 0]
    stake, number_kept = x[H_STAKE], x[H_NUMBER]
    x[:] = 0
    x[H_STAKE] = stake
    x[H_NUMBER] = number_kept
    x[H_SPLIT] = 1
    x[H_ACES] = aces
    x[H_DOWN] = -1
    _add_card(i, h, first, False, hands, hand_cards)
    f[i, E_HANDS] = last + 1


# --- the batch ------------------------------------------------------------------------------------


@without_runtime
def step_batch(  # noqa: PLR0917
    actions: Array, p: Array, f: Array, hands: Array, hand_cards: Array, dealer: Array,
    shoes: Array, streams: Array, seen: Array, mask: Array, rewards: Array, terminated: Array,
    view: Any,
) -> int:  # fmt: skip
    """One action for each environment (next-step autoreset: an environment whose round ended
    at the last step opens its next round's betting step and ignores its action), then its
    mask and its row of the observation ``view``, in one pass. Returns the first environment
    whose action the mask refuses (-1: none), having changed nothing at all."""
    n = f.shape[0]
    for i in range(n):
        if f[i, E_PHASE] != PH_DONE:
            a = actions[i]
            if a < 0 or a >= N_ACTIONS or mask[i, a] == 0:
                return i
    for i in range(n):
        rewards[i] = 0.0
        terminated[i] = False
        if f[i, E_PHASE] == PH_DONE:
            _count_round(i, f, hands, hand_cards, dealer, seen)
            open_round(i, p, f, shoes, streams, seen)
        else:
            act(i, actions[i], p, f, hands, hand_cards, dealer, shoes, streams)
            if f[i, E_PHASE] == PH_DONE:
                rewards[i] = f[i, E_NET] / (f[i, E_BASE] * p[P_DENOMINATOR])
                terminated[i] = True
        mask_of(i, p, f, hands, hand_cards, mask)
        _observe(i, p, f, hands, hand_cards, dealer, seen, view)
    return -1


@njit(inline="always")
def _count_round(  # noqa: PLR0917
    i: int, f: Array, hands: Array, hand_cards: Array, dealer: Array, seen: Array
) -> None:
    """The ranks of a finished round, every card face up by then, into the shoe's tally."""
    if f[i, E_HANDS] == 0:
        return
    for h in range(f[i, E_HANDS]):
        for k in range(min(hands[i, h, H_N], MAX_CARDS)):
            seen[i, hand_cards[i, h, k] >> 2] += 1
    for k in range(min(f[i, E_DEALER], MAX_DEALER)):
        seen[i, dealer[i, k] >> 2] += 1
    f[i, E_HANDS] = 0


@without_runtime
def reset_batch(  # noqa: PLR0917
    p: Array, f: Array, shoes: Array, streams: Array, seen: Array, mask: Array,
                hands: Array, hand_cards: Array) -> None:  # fmt: skip
    """Every environment at a new round's betting step, on a new shoe."""
    for i in range(f.shape[0]):
        f[i, E_EXHAUSTED] = 1  # a new shoe
        open_round(i, p, f, shoes, streams, seen)
        mask_of(i, p, f, hands, hand_cards, mask)


@njit(inline="always")
def _observe(  # noqa: PLR0917
    i: int, p: Array, f: Array, hands: Array, hand_cards: Array, dealer: Array, seen: Array,
    view: Any,
) -> None:  # fmt: skip
    """Row ``i`` of the observation ``view`` (``VIEW``'s arrays, in its order), written whole:
    the single environment's (``CroupierEnv``'s ``_blackjack_observation``), the hand in play
    (the first once the round is over), a card dealt face down as 0 while the turns last, the
    dealer's up card and the hole card as 0 until it is turned."""
    phase, bets, hand, total, soft, hand_number, hand_count, stake, dealer_view, seen_view = view
    max_hands_view = MAX_HANDS_VIEW
    ph = f[i, E_PHASE]
    phase[i] = 0 if ph == PH_BET else (2 if ph == PH_DONE else 1)
    n_hands = f[i, E_HANDS] if ph != PH_BET else 0
    bets[i, :] = 0.0
    hand[i, :] = 0
    dealer_view[i, :] = 0
    total[i] = 0
    soft[i] = 0
    hand_number[i] = 0
    stake[i, 0] = 0.0
    hand_count[i] = min(n_hands, max_hands_view)
    if ph != PH_BET:
        bets[i, 0] = f[i, E_BET] / f[i, E_BASE]
    hidden = ph == PH_INSURANCE or ph == PH_PLAY  # noqa: PLR1714 - numba
    if n_hands > 0:
        h = f[i, E_TURN] if ph == PH_PLAY else 0
        x = hands[i, h]
        n = min(x[H_N], MAX_CARDS)
        for k in range(n):
            hand[i, k] = hand_cards[i, h, k] + 1
        down = x[H_DOWN] >= 0 and hidden
        if down:
            hand[i, x[H_DOWN]] = 0
        else:
            t = _best(x[H_HARD], x[H_ACE] != 0)
            total[i] = min(t, 31)
            soft[i] = 1 if (x[H_ACE] != 0 and x[H_HARD] + 10 <= 21) else 0
        hand_number[i] = min(x[H_NUMBER], max_hands_view - 1)
        stake[i, 0] = (x[H_STAKE] + x[H_INCREMENT]) / f[i, E_BASE]
    nd = min(f[i, E_DEALER], MAX_DEALER) if ph != PH_BET else 0
    for k in range(nd):
        dealer_view[i, k] = dealer[i, k] + 1
    if nd > 1 and p[P_HOLE] != 0 and f[i, E_REVEALED] == 0:
        dealer_view[i, 1] = 0
    if seen_view.shape[0] > 0:
        for k in range(13):
            seen_view[i, k] = seen[i, k]
        if ph != PH_BET:
            for h in range(n_hands):
                x = hands[i, h]
                for k in range(min(x[H_N], MAX_CARDS)):
                    if not (hidden and k == x[H_DOWN]):
                        seen_view[i, hand_cards[i, h, k] >> 2] += 1
            for k in range(nd):
                if not (k == 1 and p[P_HOLE] != 0 and f[i, E_REVEALED] == 0):
                    seen_view[i, dealer[i, k] >> 2] += 1


@without_runtime
def observe_batch(  # noqa: PLR0917
    p: Array, f: Array, hands: Array, hand_cards: Array, dealer: Array, seen: Array, view: Any
) -> None:
    """Every row of the observation ``view`` (``_observe``)."""
    for i in range(f.shape[0]):
        _observe(i, p, f, hands, hand_cards, dealer, seen, view)


# --- a chart played inside the kernel -------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def rollout_chart(p: Array, rounds: int, shoes: Array, streams: Array, chart: Any) -> Any:
    """``rounds`` rounds on each of ``shoes`` (a box at its own table, with its own row of
    ``streams``), every decision by the ``chart``'s arrays (``blackjack_sim.chart_tables``)
    read from their tables at a count of 0 (``one_box_tables``): the simulator's one-box loop
    (``play_one_box``), the round played by the same step functions as ``play_block``'s, on
    shoes shuffled and cut as ``open_round`` does. ``p``: the simulator's parameters without
    a count, a trace or 21+3. Returns the rounds' nets summed and their squares summed (in
    ``1 / denominator`` of a unit)."""
    _, value_of, dealer_stands = _block_tables(p)
    size = shoes.shape[1]
    no_count = np.zeros(13, dtype=np.int64)
    betting = (no_count, np.zeros(1), np.ones(1, dtype=np.int64), -np.inf, -np.inf)
    totals = np.zeros(2, dtype=np.int64)
    outputs = (
        np.zeros((4, 3), dtype=np.int64), totals, np.zeros(S_FIELDS, dtype=np.int64),
        np.zeros((1, 3), dtype=np.int64), np.zeros(0, dtype=np.int64),
        np.zeros(0, dtype=np.int64), np.zeros((0, 1), dtype=np.int64),
    )  # fmt: skip
    logs = (
        np.zeros((0, size), dtype=np.int8), np.zeros((0, R_FIELDS), dtype=np.int64),
        np.zeros((0, B_FIELDS), dtype=np.int64), np.zeros((0, 3), dtype=np.int64),
    )  # fmt: skip
    max_hands = p[P_MAX_HANDS]
    results = _hand_slots(max_hands)  # the box's hands' rows, for settlement
    waiting = np.zeros(max_hands, dtype=np.int64)
    waiting_aces = np.zeros(max_hands, dtype=np.bool_)
    side_net = np.zeros((1, 2), dtype=np.int64)
    tables = one_box_tables(p, no_count, chart, False)
    for i in range(shoes.shape[0]):
        play_one_box(
            p, streams[i], rounds, (shoes[i], value_of, dealer_stands), tables, chart, 0.0,
            side_net, betting, outputs, logs, results, waiting, waiting_aces,
        )  # fmt: skip
    return totals[0], totals[1]
