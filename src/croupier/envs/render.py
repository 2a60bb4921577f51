"""The table as text (``render_mode="ansi"``): what the box sees, for a person or an LLM agent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from croupier.envs.table import CroupierEnv

PHASES = ("betting", "your decision", "round over")


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def table_text(env: CroupierEnv) -> str:
    """Lines: the profile, the house's cards, the box's hands and bets, the legal actions
    (index and name) and, at the end, every wager settled."""
    from croupier.envs.table import AGENT_SEAT, Stage

    game_round = env.game_round
    lines = [f"{env.profile.title} ({env.profile.name}): {PHASES[env.stage]}"]
    if game_round is not None:
        view: dict[str, Any] = game_round.view(AGENT_SEAT)
        for key in ("dealer", "player", "banker"):
            if isinstance(view.get(key), dict):
                lines.append(f"{key}: {_cards(view[key]['cards'])}")
        if view.get("board") is not None:
            lines.append(f"board: {_cards(view['board'])}")
        for seat in view["seats"]:
            if seat["seat"] != AGENT_SEAT:
                continue
            bets = ", ".join(f"{wager} {amount}" for wager, amount in seat["bets"].items())
            lines.append(f"your bets: {bets}")
            for hand in seat["hands"]:
                total = "" if hand.get("total") is None else f" ({hand['total']})"
                lines.append(f"your hand {hand['hand']}: {_cards(hand['cards'])}{total}")
        if env.stage == Stage.DONE:
            for wager in view["results"]:
                if wager["seat"] == AGENT_SEAT:
                    lines.append(
                        f"{wager['wager']}: {wager['result']}, stake {wager['stake']}, "
                        f"returns {wager['payout']}"
                    )
    if env.stage == Stage.BET:
        lines.append(f"base bet: {env.bet} units")
    legal = [f"{index} {env.catalogue.names[index]}" for index in env.mask.nonzero()[0]]
    if legal:
        lines.append("legal: " + ", ".join(legal))
    return "\n".join(lines) + "\n"
