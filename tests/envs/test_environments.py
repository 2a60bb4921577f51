"""The Gymnasium environments (issue 30, item 1): the API, the masks against the engine's own
legality, the rewards against ``croupier settle``, and seeded reproduction."""

from __future__ import annotations

import math
from fractions import Fraction

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import croupier.envs
from croupier.envs.actions import Kind, catalogue_of
from croupier.envs.table import AGENT_SEAT, CroupierEnv, Stage
from croupier.errors import IllegalActionError
from croupier.games.commands import Action
from croupier.rules.registry import shipped_profile_names
from croupier.settle import settle_document

PROFILES = shipped_profile_names()
PROFILE_FILE = "src/croupier/rules/profiles/spain-1979.toml"


@pytest.mark.parametrize("env_id", sorted(croupier.envs.ENVIRONMENTS))
def test_check_env_passes_for_every_id(env_id):
    options = {"profile": PROFILE_FILE} if env_id == "croupier/table-v0" else {}
    env = gym.make(env_id, **options)
    check_env(env.unwrapped)
    env.close()


def test_every_shipped_profile_has_its_id():
    assert {f"croupier/{name}-v0" for name in PROFILES} | {"croupier/table-v0"} == set(
        croupier.envs.ENVIRONMENTS
    )


def test_make_imports_the_package_from_the_id():
    env = gym.make("croupier.envs:croupier/peru-2016-v0")
    assert env.unwrapped.profile.name == "peru-2016"


def test_table_takes_a_profile_file():
    env = gym.make("croupier/table-v0", profile=PROFILE_FILE)
    assert env.unwrapped.profile.name == "spain-1979"


# --- masks: exactly the engine's legal actions ----------------------------------------------


def _engine_action(env: CroupierEnv, index: int) -> Action | None:
    """What catalogue entry ``index`` asks the engine for, computed from the round itself
    (the hand's stake, the box's most insurance), not from the legal list."""
    entry = env.catalogue.entries[index]
    game_round = env.game_round
    assert game_round is not None
    if entry.kind is not Kind.DECISION:
        return None
    if entry.fraction is None:
        return Action(entry.action)
    if entry.action == "double":
        turn = game_round.current()  # type: ignore[attr-defined]
        most = 0 if turn is None else turn[1].stake
    else:
        most = game_round.max_insurance(AGENT_SEAT)  # type: ignore[attr-defined]
    units = math.floor(entry.fraction * most)
    return Action(entry.action, units) if 1 <= units < most else None


def _check_mask(env: CroupierEnv, mask: np.ndarray) -> None:
    game_round = env.game_round
    assert game_round is not None
    double_for_less = getattr(env.profile, "double_for_less", False)
    for index in range(len(env.catalogue)):
        action = _engine_action(env, index)
        allowed = action is not None and game_round.can_act(AGENT_SEAT, action)
        if action is not None and action.name == "double" and action.amount is not None:
            allowed = allowed and double_for_less
        assert bool(mask[index]) == allowed, (env.catalogue.names[index], str(action))
    # and every legal option of the engine has its index
    names = {env.catalogue.entries[i].action for i in np.flatnonzero(mask)}
    assert names == {action.name for action in game_round.legal_actions()}


def _walk(profile: str, decisions: int, seed: int) -> int:
    # A base of 3 units: some quarters of a stake or of the most insurance round to nothing.
    env = CroupierEnv(profile, bet=3, betting=True, side_bets=_side_bets(profile))
    env.action_space.seed(seed)
    _, info = env.reset(seed=seed)
    checked = 0
    while checked < decisions:
        mask = info["action_mask"]
        if env.stage == Stage.DECIDE:
            _check_mask(env, mask)
            checked += 1
            illegal = np.flatnonzero(mask == 0)
            if illegal.size:
                before = list(env.game_round.events)
                with pytest.raises(IllegalActionError, match="is not legal now; legal: "):
                    env.step(int(illegal[checked % illegal.size]))
                assert env.game_round.events == before
        _, _, done, _, info = env.step(int(env.action_space.sample(mask=mask)))
        if done:
            _, info = env.reset()
    return checked


def _side_bets(profile: str) -> dict[str, int]:
    if profile == "peru-2016":
        return {"21+3": 8}
    if profile.startswith("casino-holdem"):
        return {"progressive": 1}
    return {}


@pytest.mark.parametrize("profile", [p for p in PROFILES if not p.startswith("dragon")])
def test_masks_are_the_engines_legal_actions(profile):
    assert _walk(profile, 300, seed=30) == 300


@pytest.mark.slow
@pytest.mark.parametrize("profile", [p for p in PROFILES if not p.startswith("dragon")])
def test_masks_are_the_engines_legal_actions_on_100000_states(profile):
    assert _walk(profile, 100_000, seed=31) == 100_000


def test_baccarat_steps_are_wagers_and_every_wager_is_legal():
    """Dragon Six Art. 8: the five wagers; nobody decides after the deal (Arts. 10-11)."""
    env = CroupierEnv("dragon-six-peru-2016")
    _, info = env.reset(seed=1)
    legal = [env.catalogue.names[i] for i in np.flatnonzero(info["action_mask"])]
    assert legal == ["player", "banker", "tie", "player_pair", "banker_pair"]
    with pytest.raises(IllegalActionError, match=r"action 5 \(bet-1x\) is not legal now"):
        env.step(5)
    _, _, done, _, info = env.step(env.catalogue.index("tie"))
    assert done and not info["action_mask"].any()


def test_a_betting_step_offers_the_ladder_within_the_table_limits():
    """Spain 1979 limits the main bet to 1..200 units: with a base of 20, 12x and 16x are out."""
    env = CroupierEnv("spain-1979", bet=20, betting=True)
    _, info = env.reset(seed=2)
    legal = [env.catalogue.names[i] for i in np.flatnonzero(info["action_mask"])]
    assert legal == ["bet-1x", "bet-2x", "bet-3x", "bet-4x", "bet-6x", "bet-8x"]
    observation, *_ = env.step(env.catalogue.index("bet-4x"))
    assert observation["bets"][0] == 4.0


def test_an_action_after_the_end_asks_for_reset():
    env = CroupierEnv("dragon-six-peru-2016")
    env.reset(seed=1)
    env.step(0)
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        env.step(0)


# --- rewards: the engine's settlement, as croupier settle gives it ------------------------------


def _play(profile: str, shoe: str, actions: list[str], **options: object) -> tuple[float, dict]:
    env = CroupierEnv(profile, **options)  # type: ignore[arg-type]
    env.reset(seed=0, options={"shoe": shoe})
    catalogue = env.catalogue
    _, reward, done, _, info = env.step(catalogue.index(actions[0]))
    for name in actions[1:]:
        assert not done
        _, reward, done, _, info = env.step(catalogue.index(name))
    assert done
    return float(reward), info


def _settled_net(profile: str, shoe: str, bets: dict[str, int], actions: list[str]) -> Fraction:
    document = {
        "game": "blackjack",
        "rules": profile,
        "shoe": shoe.split(),
        "seats": [{"seat": 1, "bets": bets, "actions": actions}],
    }
    return Fraction(settle_document(document)["seats"][0]["net"])


CASES = [
    # (article, profile, shoe, the env's actions, the settle document's, side bets, net)
    # Peru 2016 Art. 12: a double for less (half of 8) takes one card: 21 against a bust.
    ("art12", "peru-2016", "Th 9c 2d 7s 9h Ts", ["double-1/2"], ["double 4"], {}, 12),
    # Art. 12: the full double.
    ("art12", "peru-2016", "Th 9c 2d 7s 9h Ts", ["double"], ["double"], {}, 16),
    # Art. 11: a pair of 8s split, each hand stands; the dealer's 19 beats both.
    (
        "art11", "peru-2016", "8h 9c 8d Ts 3c 2s Kd 9d",
        ["split", "stand", "stand"], ["split", "stand", "stand"], {}, -16,
    ),
    # Art. 10: the most insurance (half the bet) pays 2:1 on the dealer's blackjack: even.
    ("art10", "peru-2016", "Th As 9d Kc", ["insurance", "stand"], ["insurance", "stand"], {}, 0),
    # Art. 10: a quarter of the most (1 unit) pays 2, the main bet loses 8.
    (
        "art10", "peru-2016", "Th As 9d Kc",
        ["insurance-1/4", "stand"], ["insurance 1", "stand"], {}, -6,
    ),
    # Arts. 18-20: 21+3 rides with the main bet: a flush pays 5:1, the main bet wins 8.
    ("art18", "peru-2016", "2h 9h 7h 7s 9c Ts", ["stand"], ["stand"], {"21+3": 8}, 48),
    # Spain 1979 Art. 03 (docs/rules.md#D-BJ-17): the dealer's blackjack takes the double too.
    (
        "art03", "spain-1979", "6h As 5d 9c Kd",
        ["no-insurance", "double"], ["no-insurance", "double"], {}, -16,
    ),
    # Veintiuno Real item 8: a double on 11 makes 21 against the dealer's bust.
    ("item8", "veintiuno-real", "5h 9c 6d 7s Th Ts", ["double"], ["double"], {}, 16),
]  # fmt: skip


@pytest.mark.parametrize(
    ("article", "profile", "shoe", "env_actions", "settle_actions", "side_bets", "expected"),
    CASES,
)
def test_reward_is_croupier_settles_net(  # noqa: PLR0917 - one case per row
    article, profile, shoe, env_actions, settle_actions, side_bets, expected
):
    reward, info = _play(profile, shoe, ["bet-1x", *env_actions], side_bets=side_bets)
    net = _settled_net(profile, shoe, {"main": 8, **side_bets}, settle_actions)
    assert net == expected
    assert info["net"] == net / 8
    assert reward == float(net / 8)


def test_reward_of_a_casino_holdem_call_is_settle_s_net():
    """Casino Hold'em Art. 13 d (call: the Bet is twice the Ante), g (qualifier)."""
    shoe = "Kh 2c 4s Kd 7c 4d 3s  Ks 9h 2d  5c  Jc Qd"
    reward, info = _play("casino-holdem-peru-2007", shoe, ["bet-1x", "call"])
    document = {
        "game": "casino-holdem",
        "rules": "casino-holdem-peru-2007",
        "shoe": shoe.split(),
        "seats": [
            {"seat": 1, "bets": {"ante": 8}, "actions": ["call"]},
            {"seat": 2, "bets": {"ante": 1}, "actions": ["fold"]},
        ],
    }
    net = Fraction(settle_document(document)["seats"][0]["net"])
    assert net == 8 * 3  # three kings beat the dealer's pair of 4s: Ante 1:1, Bet 1:1
    assert info["net"] == net / 8 and reward == 3.0


# --- seeds ------------------------------------------------------------------------------------


def _trajectory(profile: str, seed: int, episodes: int) -> list[object]:
    env = CroupierEnv(profile, counting=True, betting=True)
    env.action_space.seed(seed)
    observation, info = env.reset(seed=seed)
    seen: list[object] = [{k: np.array(v).tolist() for k, v in observation.items()}]
    for _ in range(episodes):
        done = False
        while not done:
            action = int(env.action_space.sample(mask=info["action_mask"]))
            observation, reward, done, _, info = env.step(action)
            seen.append(
                (action, float(reward), {k: np.array(v).tolist() for k, v in observation.items()})
            )
        observation, info = env.reset()
    return seen


@pytest.mark.parametrize("profile", ["peru-2016", "dragon-six-peru-2016", "casino-holdem-standard"])
def test_a_seed_reproduces_the_trajectory(profile):
    first = _trajectory(profile, 5, 40)
    assert _trajectory(profile, 5, 40) == first
    assert _trajectory(profile, 6, 40) != first


def test_the_shoe_lives_across_episodes_until_the_cut_card():
    """Peru 2016 Art. 8: one burn opens a shoe; the round in which the cut card comes out is
    its last (docs/rules.md §6): the seen counts restart with the next shoe."""
    env = CroupierEnv("peru-2016", counting=True)
    env.reset(seed=3)
    shoes, previous_total = 0, -1
    for _ in range(200):
        observation, _ = env.reset()
        total = int(observation["seen"].sum())
        if total < previous_total or previous_total < 0:
            shoes += 1
            assert total == 0  # a new shoe: nothing seen, its burn is face down
        done = False
        while not done:
            _, _, done, _, _ = env.step(int(env.action_space.sample(mask=info_mask(env))))
        previous_total = int(env.seen().total())
        assert env._shoe is not None and env._shoe.position >= previous_total
    assert shoes >= 2


def info_mask(env: CroupierEnv) -> np.ndarray:
    return env.sampling_mask()


def test_render_ansi_shows_the_table():
    env = CroupierEnv("peru-2016", render_mode="ansi")
    env.reset(seed=0, options={"shoe": "Th 9c 2d 7s 9h Ts"})
    env.step(env.catalogue.index("bet-1x"))
    text = env.render()
    assert text is not None
    assert "dealer: 9c ??" in text and "your hand 0: Th 2d (12)" in text
    assert "legal: 0 stand, 1 hit, 2 double" in text


def test_catalogue_names_are_stable():
    """Other environments (vector, PettingZoo) and trained policies rely on these indices."""
    assert catalogue_of("blackjack").names[:8] == (
        "stand", "hit", "double", "split", "surrender", "insurance", "no-insurance", "even-money",
    )  # fmt: skip
    assert catalogue_of("casino-holdem").names[:2] == ("call", "fold")
    assert catalogue_of("baccarat").names[:5] == (
        "player", "banker", "tie", "player_pair", "banker_pair",
    )  # fmt: skip
