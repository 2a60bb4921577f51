"""Dragon Six, Peru 2016, Art. 12: "El personal de la Sala de Juego procurará corregir en forma
inmediata los errores detectados en las partidas." A card found face up in the shoe is burnt
(docs/rules.md#D-GEN-11) as its own event; the coup is dealt face up and plays itself out, so
no card can be exposed in error (docs/rules.md#D-BAC-9) and none is dealt after the coup."""

from __future__ import annotations

import pytest

from croupier.errors import IllegalActionError
from croupier.games.baccarat import BaccaratRound
from croupier.games.replay import replay
from croupier.rules.baccarat import BaccaratRules
from croupier.shoe import Shoe


def test_art12_d_gen_11_a_card_face_up_in_the_shoe_is_burnt_and_the_coup_uses_the_next(
    profile: BaccaratRules,
):
    # Kh found face up: burnt. Player 9s 9d = 8 (a natural), Banker 2c 3c = 5: Player wins.
    coup = BaccaratRound(profile, Shoe.parse("Kh 9s 2c 9d 3c 7h", decks=8))
    coup.place_bet(1, "player", 10)
    assert [e.to_json() for e in coup.face_up()] == [
        {"kind": "CardDrawn", "card": "Kh", "purpose": "shown-burn"},
        {"kind": "CardFoundFaceUp", "card": "Kh", "disposal": "burnt"},
    ]
    coup.deal()
    assert [(w.seat, w.wager, w.result, w.payout) for w in coup.results().wagers] == [
        (1, "player", "win", 20)
    ]
    assert coup.view(None)["player"]["cards"] == ["9s", "9d"]
    assert replay(coup.events).events == coup.events


def test_d_bac_9_no_card_is_exposed_and_none_dealt_in_error_after_the_coup(
    profile: BaccaratRules,
):
    coup = BaccaratRound(profile, Shoe.parse("9s 2c 9d 3c 7h", decks=8))
    coup.place_bet(1, "player", 10)
    with pytest.raises(IllegalActionError) as refused:
        coup.exposed("player 1")
    assert refused.value.code == "nothing_dealt_yet"
    coup.deal()
    before = list(coup.events)
    for correction in (lambda: coup.exposed("player 1"), coup.dealt_in_error, coup.confused_deal):
        with pytest.raises(IllegalActionError) as refused:
            correction()
        assert refused.value.code == "round_over"
    assert coup.events == before
