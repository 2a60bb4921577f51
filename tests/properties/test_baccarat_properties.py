"""Dragon Six Baccarat Plus over whole seeded shoes with random legal bets (R5, R9, R12, R14).

Each example plays one shoe from its Art. 6 preparation to the round in which the cut card
comes out (about 80 rounds), so 40 examples deal some 3,000 rounds. Checked on
every round: money is conserved, every payout is one the paytable allows for that outcome,
each card of the shoe is dealt exactly once in its order, the coup matches the pure tableau,
the public view shows no card not yet dealt, and the record replays to itself (also through
JSON).
"""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card
from croupier.errors import CroupierError
from croupier.games.baccarat import BaccaratRound, LastRoundOfShoe, new_shoe
from croupier.games.events import BetPlaced, CardDrawn, Event, Settled
from croupier.games.replay import replay
from croupier.hands.baccarat import play_coup, points
from croupier.randomness import SeededRandomSource
from croupier.rules.baccarat import BaccaratRules
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe

HOUSE = 0
PROFILE = load_profile_of("baccarat", "dragon-six-peru-2016")
assert isinstance(PROFILE, BaccaratRules)

amounts = st.one_of(st.integers(1, 20), st.integers(1, 10_000))
zone_bets = st.fixed_dictionaries(
    {},
    optional={
        "side": st.sampled_from(["player", "banker"]),
        "tie": amounts,
        "player_pair": amounts,
        "banker_pair": amounts,
    },
).flatmap(
    lambda plan: st.fixed_dictionaries(
        {
            **({plan["side"]: amounts} if "side" in plan else {}),
            **{wager: st.just(amount) for wager, amount in plan.items() if wager != "side"},
        }
    )
)
table_bets = st.dictionaries(st.integers(1, PROFILE.zones), zone_bets, max_size=PROFILE.zones)

# What a winning or losing wager may return, per unit staked, by the coup's outcome (Art. 8).
ALLOWED = {
    "player": {"player": {2}, "banker": {0}, "tie": {1}},
    "banker": {"player": {0}, "banker": {2, Fraction(3, 2)}, "tie": {1}},
    "tie": {"player": {0}, "banker": {0}, "tie": {9}},
    "player_pair": {"player": {0, 12}, "banker": {0, 12}, "tie": {0, 12}},
    "banker_pair": {"player": {0, 12}, "banker": {0, 12}, "tie": {0, 12}},
}


def check_round(coup: BaccaratRound, balances: dict[int, Fraction]) -> None:
    result = coup.results()
    # Money: every stake left a balance and every payout returned to it; the house's net
    # is exactly what the zones lost.
    # Stakes and payouts are taken from the events alone (the ledger's view) and must agree
    # with the round's result.
    stakes: dict[tuple[int, str], Fraction] = {}
    for event in coup.events:
        if isinstance(event, BetPlaced):
            stakes[(event.seat, event.wager)] = event.amount
    settled = [event for event in coup.events if isinstance(event, Settled)]
    for zone in range(1, PROFILE.zones + 1):
        zone_stake = sum((a for (z, _), a in stakes.items() if z == zone), Fraction(0))
        zone_return = sum((e.payout for e in settled if e.seat == zone), Fraction(0))
        assert (zone_stake, zone_return) == (result.staked(zone), result.returned(zone))
        balances[zone] += zone_return - zone_stake
        balances[HOUSE] -= zone_return - zone_stake
    staked = sum(stakes.values(), Fraction(0))
    returned = sum((e.payout for e in settled), Fraction(0))
    assert result.house_net == staked - returned
    assert [(e.seat, e.wager, e.stake, e.payout) for e in settled] == [
        (w.seat, w.wager, w.stake, w.payout) for w in result.wagers
    ]
    placed = {
        (zone, str(wager)): units
        for zone, bets in coup.bets.items()
        for wager, units in bets.items()
    }
    assert placed == {(w.seat, w.wager): int(w.stake) for w in result.wagers}
    # The coup is the pure tableau's, and each payout one the paytable allows for it.
    dealt = [e.card for e in coup.events if isinstance(e, CardDrawn)]
    outcome = play_coup([points(card) for card in dealt])
    assert outcome.cards_used == len(dealt)
    assert (outcome.player_total, outcome.banker_total) == (coup.player_total, coup.banker_total)
    assert outcome.winner == coup.winner.value
    for wager in result.wagers:
        assert wager.payout / wager.stake in ALLOWED[wager.wager][outcome.winner]
        if wager.wager == "banker" and outcome.winner == "banker":
            six = outcome.banker_total == 6
            assert wager.payout / wager.stake == (Fraction(3, 2) if six else 2)
    # Nothing of the shoe leaks into the public view: every card it shows was dealt.
    view = coup.view(None)
    shown = view["player"]["cards"] + view["banker"]["cards"]
    assert sorted(shown) == sorted(str(card) for card in dealt)
    # The record replays to itself through JSON (what is stored is what replays).
    stored = json.loads(json.dumps([event.to_json() for event in coup.events]))
    assert replay([Event.from_json(item) for item in stored], PROFILE).events == coup.events


# 40 shoes of about 80 rounds: some 3,000 rounds, a few seconds.
@settings(max_examples=40)
@given(seed=st.binary(min_size=1, max_size=8), plans=st.lists(table_bets, min_size=1, max_size=12))
def test_a_whole_shoe_deals_each_card_once_conserves_money_and_replays(
    seed: bytes, plans: list[dict[int, dict[str, int]]]
) -> None:
    shoe, preparation = new_shoe(PROFILE, SeededRandomSource(seed))
    drawn: list[Card] = [e.card for e in preparation if isinstance(e, CardDrawn)]
    balances = dict.fromkeys([HOUSE, *range(1, PROFILE.zones + 1)], Fraction(0))
    rounds = 0
    while True:
        coup = BaccaratRound(PROFILE, shoe)
        for zone, bets in plans[rounds % len(plans)].items():
            for wager, amount in bets.items():
                coup.place_bet(zone, wager, amount)
        coup.deal()
        rounds += 1
        check_round(coup, balances)
        drawn.extend(e.card for e in coup.events if isinstance(e, CardDrawn))
        if coup.is_last_round_of_shoe:
            break
        assert not any(isinstance(e, LastRoundOfShoe) for e in coup.events)
    # Each card of the shoe exactly once, in the shoe's order, and nothing after the round
    # in which the cut card came out (Art. 6).
    assert drawn == list(shoe.peek_order()[: shoe.position])
    assert shoe.cut_card_at is not None
    assert shoe.cut_card_at <= shoe.position < shoe.cut_card_at + 6
    assert rounds >= 60
    # Conservation across the shoe: what the zones won, the house lost, unit for unit.
    assert sum(balances.values(), Fraction(0)) == 0


wagers = st.one_of(
    st.sampled_from(["player", "banker", "tie", "player_pair", "banker_pair"]),
    st.text(max_size=6),
)
wild_amounts = st.one_of(
    st.integers(-5, 10_005),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.none(),
    st.booleans(),
    st.fractions(),
)


@given(
    bets=st.lists(st.tuples(st.integers(-1, PROFILE.zones + 1), wagers, wild_amounts), max_size=25)
)
def test_a_refused_bet_changes_nothing(bets: list[tuple[int, str, object]]) -> None:
    """R12: every bet is either taken, or refused with a typed error and no trace."""
    coup = BaccaratRound(PROFILE, Shoe.parse("9s 7h Ts Kh"))
    for zone, wager, amount in bets:
        before = (list(coup.events), {z: dict(b) for z, b in coup.bets.items()})
        allowed = coup.can_bet(zone, wager, amount)
        try:
            coup.place_bet(zone, wager, amount)  # type: ignore[arg-type]
        except CroupierError:
            assert not allowed
            assert (coup.events, coup.bets) == before
        else:
            assert allowed
    for zone, bets_of_zone in coup.bets.items():
        assert not {"player", "banker"} <= set(bets_of_zone)
        assert all(1 <= units <= 10_000 for units in bets_of_zone.values())
        assert 1 <= zone <= PROFILE.zones
    coup.deal()
    assert replay(coup.events, PROFILE).events == coup.events
