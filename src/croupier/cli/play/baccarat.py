"""``croupier play baccarat``: Dragon Six Baccarat Plus in the terminal, one player, one zone.

The player types the round's bets as wager/amount pairs (``banker 10 tie 2``; ``p b t pp bp``
abbreviate them), an empty line repeats the last bets and ``q`` leaves. The cards are shown as
they leave the shoe, then the winner and each wager's payout. The shoe is prepared by Art. 6
(shuffle, cut, cut card, burn) and prepared again after the round in which the cut card came
out. Chance comes from the OS source, or from ``--seed`` for a replayable session.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich.console import Console
from rich.table import Table

from croupier.cards import Card
from croupier.errors import BetError, CroupierError, InsufficientFunds, ProfileError
from croupier.games.baccarat import BaccaratRound, LastRoundOfShoe, NewShoe, new_shoe
from croupier.games.events import CardDrawn, Event
from croupier.hands.baccarat import burn_count
from croupier.money import is_ascii_number, json_number
from croupier.randomness import RandomSource, SeededRandomSource, SystemRandomSource
from croupier.rules.baccarat import BaccaratRules, BaccaratWager
from croupier.rules.base import Profile
from croupier.shoe import Shoe

ZONE = 1
"""The terminal player sits at zone 1 (Art. 7 a): one player per zone)."""

ABBREVIATIONS = {
    "p": BaccaratWager.PLAYER,
    "b": BaccaratWager.BANKER,
    "t": BaccaratWager.TIE,
    "pp": BaccaratWager.PLAYER_PAIR,
    "bp": BaccaratWager.BANKER_PAIR,
}
QUIT = frozenset({"q", "quit", "exit"})


def parse_bets(line: str) -> dict[BaccaratWager, int]:
    """``"banker 10 tie 2"`` -> ``{BANKER: 10, TIE: 2}``; amounts are checked by the round."""
    words = line.split()
    if len(words) % 2:
        raise BetError(f"bets come in pairs 'wager amount', not {line.strip()!r}")
    bets: dict[BaccaratWager, int] = {}
    for name, amount in zip(words[::2], words[1::2], strict=True):
        wager = ABBREVIATIONS.get(name.lower())
        if wager is None:
            try:
                wager = BaccaratWager(name.lower())
            except ValueError:
                known = ", ".join(BaccaratWager)
                raise BetError(f"unknown wager {name!r} (known: {known})") from None
        if not is_ascii_number(amount):
            raise BetError(f"{wager.value}: amount {amount!r} is not a whole number of units")
        bets[wager] = int(amount)
    return bets


def show_card(card: Card) -> str:
    colour = "red" if card.suit.symbol in "hd" else "bold"
    return f"[{colour}]{card}[/{colour}]"


def prepare_shoe(console: Console, profile: BaccaratRules, source: RandomSource) -> Shoe:
    """Art. 6: shuffle, cut, cut card, burn; tell the table what was done."""
    shoe, events = new_shoe(profile, source)
    for event in events:
        if isinstance(event, NewShoe):
            console.print(
                f"[bold]New shoe[/bold]: {event.decks} decks ({event.cards} cards) shuffled "
                f"and cut; the cut card goes {event.cut_card_from_bottom} cards from the bottom."
            )
    burnt = [event.card for event in events if isinstance(event, CardDrawn)]
    if burnt:
        console.print(
            f"Burn (Art. 6 d)): the first card {show_card(burnt[0])} burns "
            f"{burn_count(burnt[0])} more."
        )
    return shoe


def show_paytable(console: Console, profile: BaccaratRules) -> None:
    table = Table("wager", "type", "pays", "limits", title=profile.title)
    paytable = profile.paytable
    pays = {
        BaccaratWager.PLAYER: str(paytable.player),
        BaccaratWager.BANKER: f"{paytable.banker} ({paytable.banker_win_with_six} on a 6)",
        BaccaratWager.TIE: str(paytable.tie),
        BaccaratWager.PLAYER_PAIR: str(paytable.player_pair),
        BaccaratWager.BANKER_PAIR: str(paytable.banker_pair),
    }
    short = {wager: name for name, wager in ABBREVIATIONS.items()}
    for wager in BaccaratWager:
        limits = profile.limits[wager]
        table.add_row(wager.value, short[wager], pays[wager], f"{limits.minimum}-{limits.maximum}")
    console.print(table)
    console.print("Player and Banker may not be bet together (Art. 8).")


def show_deal(console: Console, events: Sequence[Event]) -> None:
    for event in events:
        if isinstance(event, CardDrawn):
            console.print(f"  {event.purpose.capitalize():<7} {show_card(event.card)}")
        elif isinstance(event, LastRoundOfShoe):
            console.print("  [yellow]The cut card is out: this is the shoe's last round.[/yellow]")


def play(profile: Profile, balance: int, seed: str | None) -> None:
    """One player at zone 1 with ``balance`` units, until ``q``, end of input or no money."""
    if not isinstance(profile, BaccaratRules):
        raise ProfileError(f"profile {profile.name!r} is not a baccarat profile")
    console = Console(highlight=False)
    source: RandomSource = SeededRandomSource(seed) if seed is not None else SystemRandomSource()
    show_paytable(console, profile)
    shoe = prepare_shoe(console, profile, source)
    money = Fraction(balance)
    last_bets: dict[BaccaratWager, int] = {}
    while money > 0:
        console.print(f"\nBalance: [bold]{json_number(money)}[/bold]")
        try:
            line = console.input("Bets ('banker 10 tie 2', empty: same again, q: leave): ")
        except EOFError:
            break
        if line.strip().lower() in QUIT:
            break
        try:
            bets = parse_bets(line) if line.strip() else dict(last_bets)
            if not any(bets.values()):
                raise BetError("place at least one bet")
            staked = sum(bets.values())
            if staked > money:
                raise InsufficientFunds(f"bets of {staked} exceed the balance of {money}")
            coup = BaccaratRound(profile, shoe)
            for wager, amount in bets.items():
                coup.place_bet(ZONE, wager.value, amount)
        except CroupierError as error:
            console.print(f"[red]Refused:[/red] {error}")
            continue
        last_bets = bets
        money -= staked
        console.print("No more bets (Art. 7 d)).")
        show_deal(console, coup.deal())
        console.print(
            f"Player {coup.player_total}, Banker {coup.banker_total}: "
            f"[bold]{'Tie' if coup.winner.value == 'tie' else coup.winner.value.capitalize()}"
            f"{' wins' if coup.winner.value != 'tie' else ''}[/bold]"
        )
        if coup.winner.value == "banker" and coup.banker_total == 6:
            console.print("Banker wins with 6: Banker bets are paid half (Art. 8 b)).")
        result = coup.results()
        table = Table("wager", "bet", "result", "returns")
        for settled in result.wagers:
            table.add_row(
                settled.wager,
                str(json_number(settled.stake)),
                settled.result,
                str(json_number(settled.payout)),
            )
        console.print(table)
        money += result.returned(ZONE)
        if coup.is_last_round_of_shoe:
            shoe = prepare_shoe(console, profile, source)
    console.print(f"\nYou leave the table with [bold]{json_number(money)}[/bold].")
