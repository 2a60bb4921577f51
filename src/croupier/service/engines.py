"""How the table server reaches a game's engine, whatever the game (no game special cases).

What a table needs to know of a game is in the profile's common table record
(``Profile.table``: decks, seats, seats per player, minimum players, back betting, the shoe)
and in the game's round class (``GameRound``: what its constructor takes, ``stakes()``,
``results()``, ``apply`` of a typed command).
"""

from __future__ import annotations

from fractions import Fraction

from croupier import resident
from croupier.games.base import GameRound, random_round, round_class_of
from croupier.randomness import SeededRandomSource
from croupier.rules.base import Profile
from croupier.service import table_rules
from croupier.shoe import Shoe


def rules_version(profile: Profile) -> str:
    """The profile's name and a digest of every rule in it: what a round was dealt under."""
    return table_rules.version_of(profile.name, table_rules.document(profile))


def round_class(profile: Profile) -> type[GameRound]:
    return round_class_of(profile.game)


def open_shoe(profile: Profile, seed: bytes) -> Shoe:
    """The shoe shuffled from ``seed`` and cut; its new-shoe procedure (the burns) is the
    first round's (``new_round``)."""
    table = profile.table
    source = SeededRandomSource(seed)
    return Shoe.shuffled(table.decks, source, cut_card_from_bottom=table.cut_card_from_bottom)


def shoe_at(profile: Profile, seed: bytes, position: int) -> Shoe:
    """The shoe of ``seed`` (``open_shoe``) taken up again where its record left it: its
    first ``position`` cards out."""
    shoe = open_shoe(profile, seed)
    while shoe.position < position:
        shoe.draw()
    return shoe


_WARM_GAMES: set[str] = set()
"""The games whose engines this process has warmed up."""


def warm_up(profile: Profile) -> None:
    """Deal and settle one seeded round of ``profile`` off the record, so that what an engine
    loads on first use (the poker evaluator's compiled code: about a second) is ready before
    the first player at a live table waits on it.

    A game's first warm-up makes what it loads resident (``resident.loading``): Casino
    Hold'em's evaluator is some 94,000 objects that live as long as the process. Made after
    the server's start (a table opened by the operator), they were scanned by every full
    collection until the server froze its survivors thirty seconds later: under load, two or
    three pauses of every table, 75-290 ms each (timed by ``gc.callbacks`` put in for that
    run), and a cluster of the players' slowest requests behind each (benchmarks/load.py's
    p99, issue 28, item 8: docs/reliability.md). What other threads hold at
    that moment is frozen with it: freed by reference counting when it goes, as everything
    is, but a cycle among it never collected; once per game in a process's life."""
    if profile.game in _WARM_GAMES:
        _deal_one_round(profile)
        return
    with resident.loading():
        _deal_one_round(profile)
    _WARM_GAMES.add(profile.game)


def _deal_one_round(profile: Profile) -> None:
    shoe, source = open_shoe(profile, b"warm-up"), SeededRandomSource(b"warm-up")
    game_round = random_round(profile, shoe, source)
    for seat in range(profile.table.seats + 1):
        game_round.view(seat or None)


def new_round(profile: Profile, shoe: Shoe, meter: Fraction | None = None) -> GameRound:
    """A round dealt from ``shoe``. The first round of a shoe runs the game's new-shoe
    procedure (its burns); a game with a progressive meter starts from ``meter`` (``None``:
    the profile's seed)."""
    # A physical shoe's burns are the dealer's, entered before its first round opens.
    new_shoe = shoe.position == 0 and not shoe.is_physical
    return round_class(profile).opened(profile, shoe, new_shoe=new_shoe, meter=meter)
