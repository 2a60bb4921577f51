"""``croupier play casino-holdem``: Casino Hold'em in the terminal, against the dealer.

Art. 9 needs at least two players for a game, so a computer player sits at zone 2 beside
you (zone 1, the dealer's left) and stakes the table minimum each game, with the
progressive bet. Its strategy is deliberately simple and public: it **calls with a pair or
better on its two cards and the flop, or with an Ace or a King in its hand, and folds
otherwise** (``computer_decision``).

Each game: type your Ante (``10``), add ``p`` for the 1-unit progressive (``10 p``); an
empty line repeats the last bets and ``q`` leaves. After the flop answer ``c`` (call: the
Bet, twice the Ante) or ``f`` (fold). The table is drawn from ``view(1)``, what zone 1 may
see (R6): the computer's and the dealer's cards stay face down until the dealer reveals.
The progressive meter carries from game to game (it starts at the profile's seed). A fresh
deck is shuffled and cut every game (Art. 7), from the OS source or from ``--seed``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table

from croupier.cards import Card, Rank
from croupier.errors import BetError, CroupierError, InsufficientFunds, ProfileError
from croupier.games.base import Action
from croupier.games.casino_holdem import (
    CALL,
    FOLD,
    CasinoHoldemRound,
    ProgressivePrizeWon,
    new_shoe,
)
from croupier.games.events import Event
from croupier.hands.poker import evaluate
from croupier.money import is_ascii_number, json_number
from croupier.randomness import RandomSource, SeededRandomSource, SystemRandomSource
from croupier.rules.base import Profile
from croupier.rules.casino_holdem import (
    AnteWhenDealerDoesNotQualify,
    CasinoHoldemRules,
    PokerCategory,
)

YOU = 1
COMPUTER = 2
QUIT = frozenset({"q", "quit", "exit"})
WAGER_NAMES = {"ante": "Ante", "bet": "Bet", "progressive": "Progressive"}


def computer_decision(hole: Sequence[Card], flop: Sequence[Card]) -> Action:
    """The computer player's rule: call with a pair or better, or an Ace or King in hand."""
    if evaluate([*hole, *flop]).category is not PokerCategory.HIGH_CARD:
        return CALL
    if any(card.rank in (Rank.ACE, Rank.KING) for card in hole):
        return CALL
    return FOLD


def parse_bets(line: str, profile: CasinoHoldemRules) -> tuple[int, int]:
    """``"10 p"`` -> (Ante 10, progressive 1); the round checks the limits."""
    words = line.lower().split()
    progressive = 0
    if words and words[-1] in ("p", "progressive"):
        progressive = profile.progressive.bet
        words = words[:-1]
    if len(words) != 1 or not is_ascii_number(words[0]):
        raise BetError(f"type the Ante as a whole number, e.g. '10' or '10 p', not {line!r}")
    if int(words[0]) == 0:
        raise BetError("to play, a player places the Ante (Art. 9 e)")
    return int(words[0]), progressive


def show_cards(cards: Sequence[str]) -> str:
    shown = []
    for card in cards:
        if card == "??":
            shown.append("[on blue] ?? [/on blue]")
        else:
            colour = "red" if card[-1] in "hd" else "bold"
            shown.append(f"[{colour}]{card}[/{colour}]")
    return " ".join(shown) if shown else "-"


def show_table(console: Console, view: dict[str, Any]) -> None:
    """The table as zone 1 sees it (``view(1)``): nothing hidden is drawn."""
    table = Table("", "cards", "stakes", title=f"{view['phase']} - meter {view['meter']}")
    dealer = view["dealer"]
    hand = f" ({dealer['hand']})" if dealer["hand"] else ""
    table.add_row("Dealer", show_cards(dealer["cards"]) + hand, "")
    table.add_row("Board", show_cards(view["board"]), "")
    for zone in view["seats"]:
        name = "You" if zone["seat"] == YOU else "Computer"
        bets = zone["bets"]
        stakes = f"Ante {bets['ante']}" + (" + progressive" if bets.get("progressive") else "")
        for shown in zone["hands"]:
            if shown["bet"] != bets["ante"]:
                stakes += f", bet {shown['bet'] - bets['ante']}"
            result = f", {shown['result']}" if shown["result"] else ""
            table.add_row(name, show_cards(shown["cards"]), stakes + result)
        if not zone["hands"]:
            table.add_row(name, show_cards([]), stakes)
    console.print(table)


def show_progressive(console: Console, events: Sequence[Event]) -> None:
    for item in events:
        if isinstance(item, ProgressivePrizeWon):
            who = "You win" if item.seat == YOU else "The computer wins"
            console.print(
                f"[green]{who} the progressive: {item.category}, "
                f"{json_number(item.amount)} units[/green]"
            )


def show_paytables(console: Console, profile: CasinoHoldemRules) -> None:
    table = Table("hand", "Ante pays", "progressive pays", title=profile.title)
    high_card = profile.ante_paytable[PokerCategory.HIGH_CARD]
    for category in PokerCategory:
        prize = profile.progressive.paytable.get(category)
        if prize is None:
            progressive = "-"
        elif prize.meter_share is not None:
            progressive = f"{prize.meter_share * 100}% of the meter"
        else:
            progressive = f"{prize.units} units"
        table.add_row(
            category.value, str(profile.ante_paytable.get(category, high_card)), progressive
        )
    console.print(table)
    not_qualified = (
        "the Ante pays 1:1"
        if profile.ante_when_dealer_does_not_qualify is AnteWhenDealerDoesNotQualify.EVEN_MONEY
        else "the Ante pays by the table"
    )
    console.print(
        f"The Bet pays {profile.call_pays}. The dealer qualifies with a "
        f"{profile.dealer_qualifier.category.value} of "
        f"{profile.dealer_qualifier.pair_rank_at_least}s or better; if not, {not_qualified} "
        "and the Bet is returned. The progressive pays on your cards and the flop."
    )


def ask_decision(console: Console) -> Action | None:
    while True:
        try:
            answer = console.input("Call (the Bet, 2x your Ante) or fold? \\[c/f]: ")
        except EOFError:
            return None
        choice = answer.strip().lower()
        if choice in ("c", "call"):
            return CALL
        if choice in ("f", "fold"):
            return FOLD
        console.print("[red]Answer c (call) or f (fold).[/red]")


def play(profile: Profile, balance: int, seed: str | None) -> None:
    """You at zone 1 with ``balance`` units, until ``q``, end of input or no money."""
    if not isinstance(profile, CasinoHoldemRules):
        raise ProfileError(f"profile {profile.name!r} is not a casino-holdem profile")
    console = Console(highlight=False)
    source: RandomSource = SeededRandomSource(seed) if seed is not None else SystemRandomSource()
    show_paytables(console, profile)
    console.print(
        "A computer player sits at zone 2 (Art. 9: two players at least); it calls with a "
        "pair or better, or an Ace or King in hand."
    )
    money = Fraction(balance)
    meter = Fraction(profile.progressive.meter_seed)
    last: tuple[int, int] | None = None
    while money > 0:
        console.print(f"\nBalance: [bold]{json_number(money)}[/bold]")
        try:
            line = console.input("Ante ('10', '10 p' with the progressive, empty: same, q): ")
        except EOFError:
            break
        if line.strip().lower() in QUIT:
            break
        try:
            if line.strip():
                ante, progressive = parse_bets(line, profile)
            elif last is not None:
                ante, progressive = last
            else:
                raise BetError("type an Ante first, e.g. '10'")
            exposure = ante * (1 + profile.call_multiple) + progressive
            if exposure > money:
                raise InsufficientFunds(
                    f"an Ante of {ante} needs {exposure} units to call; the balance is "
                    f"{json_number(money)}"
                )
            game = CasinoHoldemRound(profile, new_shoe(source), meter=meter)
            game.place_bet(YOU, "ante", ante)
            game.place_bet(YOU, "progressive", progressive)
            game.place_bet(COMPUTER, "ante", profile.ante_limits.minimum)
            game.place_bet(COMPUTER, "progressive", profile.progressive.bet)
            dealt = game.deal()
        except CroupierError as error:
            console.print(f"[red]Refused:[/red] {error}")
            continue
        last = (ante, progressive)
        show_progressive(console, dealt)
        show_table(console, game.view(YOU))
        action = ask_decision(console)
        if action is None:
            action = FOLD  # end of input at the decision: the default, as at a deadline
        game.act(YOU, action)
        game.act(COMPUTER, computer_decision(game.hole_cards[COMPUTER], game.board[:3]))
        show_table(console, game.view(YOU))
        result = game.results()
        yours = game.hand_of(YOU)
        qualifies = "qualifies" if game.dealer_qualifies else "does not qualify"
        console.print(f"Your hand: {yours}. The dealer {qualifies}.")
        for wager in result.wagers:
            if wager.seat == YOU:
                console.print(
                    f"  {WAGER_NAMES[wager.wager]:<12} {json_number(wager.stake):>6} -> "
                    f"{json_number(wager.payout):>8}  {wager.result}"
                )
        net = result.net(YOU)
        money += net
        meter = game.meter
        verdict = "won" if net > 0 else "lost" if net < 0 else "broke even"
        console.print(f"[bold]You {verdict} {json_number(abs(net))}[/bold].")
    console.print(f"Final balance: [bold]{json_number(money)}[/bold]")
