"""``croupier play blackjack``: one player, one box, a balance, a real shoe.

The table is drawn from ``BlackjackRound.view(1)``, so the terminal shows exactly what the
seat may see (the hole card stays hidden until the dealer turns it). At each step the
options offered are the round's ``legal_actions()``; the wallet only refuses what the balance
cannot cover. The shoe is shuffled from the OS source, or from ``--seed`` for a replayable
game, and a new shoe (with its burn cards) starts once the cut card has come out.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import click
import typer
from rich.console import Console
from rich.table import Table

from croupier.errors import CroupierError
from croupier.games.base import Action
from croupier.games.blackjack import (
    DOUBLE,
    INSURANCE,
    MAIN,
    SPLIT,
    TWENTY_ONE_PLUS_THREE,
    BlackjackRound,
)
from croupier.games.commands import Decision
from croupier.money import is_ascii_number, json_number
from croupier.randomness import RandomSource, SeededRandomSource, SystemRandomSource
from croupier.rules.base import Profile
from croupier.rules.blackjack import BlackjackRules
from croupier.shoe import Shoe

SEAT = 1


def play(profile: Profile, balance: int, seed: str | None) -> None:
    """Play rounds until the player stops (a bet of 0, or end of input) or cannot bet."""
    if not isinstance(profile, BlackjackRules):
        raise CroupierError(f"profile {profile.name} is not a blackjack profile")
    console = Console(highlight=False)
    source: RandomSource = SystemRandomSource() if seed is None else SeededRandomSource(seed)
    table = _Table(profile, source, console)
    wallet = Fraction(balance)
    console.print(f"[bold]{profile.title}[/bold] — balance {balance}. A bet of 0 leaves the table.")
    try:
        while wallet >= profile.limits.minimum:
            net = table.play_round(wallet)
            if net is None:
                break
            wallet += net
            console.print(f"Balance: [bold]{json_number(wallet)}[/bold]")
    except (typer.Abort, click.exceptions.Abort):
        console.print()  # end of input: the player walks away
    console.print(f"You leave the table with {json_number(wallet)}.")


class _Table:
    def __init__(self, profile: BlackjackRules, source: RandomSource, console: Console) -> None:
        self.profile = profile
        self.source = source
        self.console = console
        self.shoe = self._new_shoe()
        self.starts_shoe = True

    def _new_shoe(self) -> Shoe:
        return Shoe.shuffled(
            self.profile.decks,
            self.source,
            cut_card_from_bottom=self.profile.shoe.cut_card_from_bottom,
        )

    # --- one round ---------------------------------------------------------------------
    def play_round(self, balance: Fraction | int) -> Fraction | None:
        """Play one round; the player's net, or ``None`` when the player leaves."""
        game = BlackjackRound(self.profile, self.shoe, new_shoe=self.starts_shoe)
        if self.starts_shoe:
            self.console.print(
                f"New shoe: {self.profile.decks} decks, "
                f"{self.profile.shoe.burn_on_new_shoe} card(s) burnt."
            )
            self.starts_shoe = False
        if not self._take_bets(game, balance):
            return None
        game.deal()
        while not game.is_done:
            self._show(game)
            decision = game.pending()
            assert decision is not None
            self._decide(game, decision, balance)
        self._show(game)
        result = game.results()
        for wager in result.wagers:
            hand = "" if wager.hand is None else f" (hand {wager.hand + 1})"
            self.console.print(
                f"  {wager.wager}{hand}: {wager.result}, staked {json_number(wager.stake)}, "
                f"returned {json_number(wager.payout)}"
            )
        net = result.net(SEAT)
        self.console.print(f"Net this round: [bold]{json_number(net)}[/bold]")
        if game.is_last_round_of_shoe:
            self.console.print("The cut card came out: that was the last round of this shoe.")
            self.shoe = self._new_shoe()
            self.starts_shoe = True
        return net

    def _take_bets(self, game: BlackjackRound, balance: Fraction | int) -> bool:
        limits = self.profile.limits
        while True:
            amount = typer.prompt(f"Bet ({limits.minimum}-{limits.maximum}, 0 to leave)", type=int)
            if amount == 0:
                return False
            if amount > balance:
                self.console.print(f"[red]Your balance is {json_number(balance)}.[/red]")
                continue
            try:
                game.place_bet(SEAT, MAIN, amount)
            except CroupierError as error:
                self.console.print(f"[red]{error}[/red]")
                continue
            break
        side = self.profile.twenty_one_plus_three
        while side is not None:
            extra = typer.prompt(
                f"21+3 side bet ({side.limits.minimum}-{side.limits.maximum}, 0 for none)",
                type=int,
                default=0,
            )
            if extra + amount > balance:
                self.console.print(f"[red]Your balance is {json_number(balance)}.[/red]")
                continue
            try:
                game.place_bet(SEAT, TWENTY_ONE_PLUS_THREE, extra)
            except CroupierError as error:
                self.console.print(f"[red]{error}[/red]")
                continue
            break
        return True

    def _decide(self, game: BlackjackRound, decision: Decision, balance: Fraction | int) -> None:
        options = [_describe(option) for option in decision.legal]
        question = "Insurance?" if decision.question == "insurance" else "Your move"
        while True:
            text = typer.prompt(f"{question} [{' / '.join(options)}]").strip()
            if is_ascii_number(text) and 1 <= int(text) <= len(options):
                action = decision.legal[int(text) - 1]
                action = Action(action.name) if action.amount is not None else action
            else:
                try:
                    action = Action.parse(text)
                except CroupierError as error:
                    self.console.print(f"[red]{error}[/red]")
                    continue
            if not decision.allows(action):
                self.console.print(f"[red]{action} is not one of: {', '.join(options)}[/red]")
                continue
            extra = _extra_stake(game, decision, action)
            if _staked(game) + extra > balance:
                self.console.print(f"[red]Your balance does not cover {action}.[/red]")
                continue
            try:
                game.act(decision.seat, action)
            except CroupierError as error:
                self.console.print(f"[red]{error}[/red]")
                continue
            return

    # --- drawing the table from the seat's view ----------------------------------------
    def _show(self, game: BlackjackRound) -> None:
        view = game.view(SEAT)
        dealer = view["dealer"]
        table = Table(title=f"{self.profile.title} — {view['phase'].replace('_', ' ')}")
        table.add_column("")
        table.add_column("cards")
        table.add_column("total", justify="right")
        table.add_column("bet", justify="right")
        table.add_column("result")
        table.add_row("Dealer", " ".join(dealer["cards"]), str(dealer["total"] or ""), "", "")
        for box in view["seats"]:
            for hand in box["hands"]:
                table.add_row(
                    f"Hand {hand['hand'] + 1}",
                    " ".join(hand["cards"]),
                    "" if hand["total"] is None else str(hand["total"]),
                    str(hand["bet"]),
                    _result(hand),
                )
        self.console.print(table)


def _describe(option: Action) -> str:
    if option.amount is None:
        return option.name
    return f"{option.name} [1-{option.amount}]"


def _result(hand: dict[str, Any]) -> str:
    if hand["result"] is None:
        return ""
    return f"{hand['result']} ({hand['payout']})"


def _staked(game: BlackjackRound) -> Fraction:
    box = game.boxes.get(SEAT)
    if box is None:
        return Fraction(0)
    hands = sum(hand.total_stake for hand in box.hands)
    return Fraction(hands + box.bets.get(TWENTY_ONE_PLUS_THREE, 0) + box.insurance)


def _extra_stake(game: BlackjackRound, decision: Decision, action: Action) -> int:
    """What ``action`` adds to the player's stakes (a double, a split, insurance)."""
    if action.name == INSURANCE:
        return action.amount if action.amount is not None else game.max_insurance(decision.seat)
    turn = game.current()
    if turn is None:
        return 0
    hand = turn[1]
    if action.name == DOUBLE:
        return hand.stake if action.amount is None else action.amount
    if action.name == SPLIT:
        return hand.stake
    return 0
