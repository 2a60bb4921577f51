"""PettingZoo tables (issue 30 item 5): PettingZoo's own API tests for every shipped profile,
rewards that are the engine's settlement on stacked shoes, Spain's back bets, Casino
Hold'em's two-player minimum, seeds that reproduce, and no card an agent may not see in any
observation (R6, tested as ``tests/server/test_r06_no_leaks.py`` does: one-deck games, so
that a card's name is unique within its shoe and a sighting is proof)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test  # type: ignore[import-untyped]

from croupier.cards import FULL_DECK, Card
from croupier.envs.actions import catalogue_of
from croupier.envs.pettingzoo import PLACES, TableEnv, env, parallel_env, raw_env
from croupier.errors import IllegalActionError, ProfileError
from croupier.games.base import GameRound
from croupier.games.events import CardDrawn, Purpose
from croupier.randomness import SeededRandomSource, uniform_below
from croupier.rules import BlackjackRules, load_profile
from croupier.rules.registry import shipped_profile_names
from croupier.shoe import Shoe

SEATING: dict[str, dict[str, Any]] = {
    "spain-1979": {"players": 3, "backers": {2: 0}},  # Art. 03 IV.a-b: player_2 backs box 1
}


@pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo's notes on Dict observations
@pytest.mark.parametrize("name", shipped_profile_names())
def test_pettingzoo_api_tests_pass(name: str) -> None:
    options = SEATING.get(name, {"players": 3})
    api_test(env(profile=name, **options), num_cycles=200)
    parallel_api_test(parallel_env(profile=name, **options), num_cycles=200)
    api_test(env(profile=name, betting=True, **options), num_cycles=200)


def _index(game: str, name: str) -> int:
    return catalogue_of(game).index(name)


def test_rewards_are_the_engines_settlement_per_initial_bet() -> None:
    """peru-2016, two boxes: box 1's blackjack is paid 3:2 (Art. 13), box 2's 18 beats the
    dealer's 17 (Art. 14): rewards 1.5 and 1, and nothing before the round ends."""
    table = env(profile="peru-2016", players=2)
    # box 1, box 2, the dealer's up card, box 1, box 2, the hole card
    table.reset(options={"shoe": Shoe.parse("As 9c Kd Kh 9d 7s", decks=6)})
    assert table.agent_selection == "player_1"  # box 1 has blackjack: nothing to decide
    assert table.rewards == {"player_0": 0.0, "player_1": 0.0}
    table.step(_index("blackjack", "stand"))
    assert all(table.terminations.values())
    assert table.rewards == {"player_0": 1.5, "player_1": 1.0}


def test_a_back_bet_shares_its_boxs_return() -> None:
    """spain-1979 Art. 03 IV.a-b, docs/rules.md#D-BJ-28: player_2 backs box 1, which doubles
    its 11 (V.1.c) and wins: the owner nets two bets, the back bet its stake times the box's
    return (32 back on 16 staked), one bet."""
    table = env(profile="spain-1979", players=3, backers={2: 0})
    # box 1, box 2, dealer, box 1, box 2; box 1's double; the dealer's 6 + K + 8 busts
    table.reset(options={"shoe": Shoe.parse("6c 9c 6d 5d 9d Th Kh 8s", decks=6)})
    assert table.agent_selection == "player_0"
    table.step(_index("blackjack", "double"))
    assert table.agent_selection == "player_1"
    table.step(_index("blackjack", "stand"))
    assert table.rewards == {"player_0": 2.0, "player_1": 1.0, "player_2": 1.0}


def test_a_backer_never_decides_and_sees_its_box() -> None:
    table = raw_env(profile="spain-1979", players=3, backers={2: 0})
    table.reset(options={"shoe": Shoe.parse("6c 9c 6d 5d 9d Th Kh 8s", decks=6)})
    seen = table.observe("player_2")
    assert not seen["action_mask"].any()
    own = {FULL_DECK[i] for i in np.flatnonzero(seen["observation"][PLACES.index("own")])}
    assert own == {Card.parse("6c"), Card.parse("5d")}


def test_back_bets_only_where_the_profile_allows_them() -> None:
    with pytest.raises(ProfileError, match="does not allow back bets"):
        env(profile="peru-2016", players=3, backers={2: 0})


def test_casino_holdem_needs_two_players() -> None:
    """Art. 9: at least two players at the table."""
    with pytest.raises(ProfileError, match=r"at least 2 players.*Art\. 9"):
        env(profile="casino-holdem-peru-2007", players=1)
    env(profile="casino-holdem-peru-2007", players=2).reset(seed=1)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    table = raw_env(profile="peru-2016", players=2)
    table.reset(options={"shoe": Shoe.parse("As 9c Kd Kh 9d 7s", decks=6)})
    before = table.observe("player_1")
    with pytest.raises(IllegalActionError, match=r"insurance.*not legal"):
        table.step(_index("blackjack", "insurance"))  # Art. 10: only under a dealer's Ace
    after = table.observe("player_1")
    assert (before["observation"] == after["observation"]).all()
    assert table.agent_selection == "player_1"


def test_baccarat_agents_choose_their_wagers() -> None:
    table = raw_env(profile="dragon-six-peru-2016", players=2)
    table.reset(seed=3)
    for wager in ("banker", "tie"):
        assert table.observe(table.agent_selection)["action_mask"][:5].tolist() == [1] * 5
        table.step(_index("baccarat", wager))
    game = table.table.current()
    assert game.is_done
    assert {seat: list(bets) for seat, bets in game.bets.items()} == {1: ["banker"], 2: ["tie"]}


def _trajectory(seed: int) -> list[tuple[str, int, float]]:
    table = raw_env(profile="peru-2016", players=3)
    source = SeededRandomSource("actions")
    steps = []
    for episode in range(20):
        table.reset(seed=seed if episode == 0 else None)
        while not all(table.terminations.values()):
            agent = table.agent_selection
            legal = np.flatnonzero(table.observe(agent)["action_mask"])
            action = int(legal[uniform_below(source, len(legal))])
            table.step(action)
            steps.append((agent, action, 0.0))
        steps += [(agent, -1, reward) for agent, reward in table.rewards.items()]
    return steps


def test_the_same_seed_deals_the_same_rounds() -> None:
    assert _trajectory(11) == _trajectory(11)
    assert _trajectory(11) != _trajectory(12)


# --- R6: no card an agent may not see ------------------------------------------------------------


def _one_deck(name: str) -> Any:
    profile = load_profile(name)
    if isinstance(profile, BlackjackRules):
        rules = profile.model_dump()  # validated again: the table record follows the decks
        rules["decks"] = 1
        rules["shoe"] = {**rules["shoe"], "cut_card_from_bottom": 20, "burn_on_new_shoe": 1}
        return BlackjackRules.model_validate(rules)
    return profile  # Casino Hold'em deals every round from one fresh deck


CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")


def _hidden_from(game: GameRound, seat: int | None) -> set[Card]:
    """The cards ``seat`` may not see now, from the record and the shoe alone: the shoe's
    undealt cards, its burns, a card face down until the event that turns it (the hole card,
    the Casino Hold'em dealer's cards) and another seat's private cards (Art. 9 d); ``None``:
    the public, to whom every seat's private cards are hidden."""
    kinds = {type(item).__name__ for item in game.events}
    hidden = set(game.shoe.undealt())
    for item in game.events:
        if not isinstance(item, CardDrawn):
            continue
        turned = game.face_down_until.get(str(item.purpose))
        if item.purpose is Purpose.BURN or (turned is not None and turned not in kinds):
            hidden.add(item.card)
        if str(item.purpose) in game.private_card_purposes and item.seat != seat:
            hidden.add(item.card)
    return hidden


@pytest.mark.parametrize("name", ["peru-2016", "casino-holdem-standard"])
def test_no_observation_holds_a_card_its_agent_may_not_see(name: str) -> None:
    table: TableEnv = raw_env(profile=_one_deck(name), players=3, render_mode="ansi")
    source = SeededRandomSource(f"r6-{name}")
    checked = sightings = 0
    for episode in range(40):
        table.reset(seed=episode if episode == 0 else None)
        while True:
            game = table.table.current()
            for agent in table.agents:
                seat = table.table.seat_of[agent]
                seen = table.observe(agent)["observation"]
                cards = {FULL_DECK[i] for i in np.flatnonzero(seen.sum(axis=0))}
                leaked = cards & _hidden_from(game, seat)
                assert not leaked, f"{agent} (box {seat}) sees {sorted(map(str, leaked))}"
                checked += 1
                sightings += len(cards)
            shown = table.render()
            assert shown is not None
            public = {Card.parse(text) for text in CARD.findall(shown)}
            leaked = public & _hidden_from(game, None)
            assert not leaked, f"the rendered table shows {sorted(map(str, leaked))}"
            if all(table.terminations.values()):
                break
            legal = np.flatnonzero(table.observe(table.agent_selection)["action_mask"])
            table.step(int(legal[uniform_below(source, len(legal))]))
    assert checked > 300 and sightings > 1000  # the agents did see their own cards


def test_a_back_bet_stays_within_the_box_maximum() -> None:
    """docs/rules.md#D-BJ-28: the owner's stake and the back bets together stay within the
    box maximum (spain-1979: 200). The owner bets 16 x 8 = 128; its backer may then stake
    up to 72: 8 x 8 = 64, not 12 x 8 = 96."""
    table = raw_env(profile="spain-1979", players=2, backers={1: 0}, betting=True)
    table.reset(seed=5)
    names = catalogue_of("blackjack").names
    assert table.agent_selection == "player_0"
    owner_mask = table.observe("player_0")["action_mask"]
    assert owner_mask[names.index("bet-16x")]  # 128 + the backer's 8 at least: within 200
    table.step(names.index("bet-16x"))
    assert table.agent_selection == "player_1"
    allowed = [names[i] for i in np.flatnonzero(table.observe("player_1")["action_mask"])]
    assert allowed == ["bet-1x", "bet-2x", "bet-3x", "bet-4x", "bet-6x", "bet-8x"]
    with pytest.raises(ProfileError, match="exceed the box maximum 200"):
        env(profile="spain-1979", players=3, backers={1: 0, 2: 0}, bet=80)
