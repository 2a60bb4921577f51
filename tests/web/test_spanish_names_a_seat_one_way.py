"""Issue 26, item 7: Spanish calls a seat (the numbered box a player plays in front of) by one
word on every page. One page said "puesto", "casilla" and "casillero" for it side by side.

The word is "casilla", the Spanish regulation's own (spain-1979, Art. 03 IV.a: "el jugador
situado en primera línea delante de cada casilla será el que mande en la misma"). The other
texts in docs/regulations say otherwise for the same thing: the Veintiuno Real sheet
"casillero", the Peruvian rules of baccarat and Casino Hold'em "zona de apuesta", and
spain-1979 itself once "plaza" and once "puesto"; the pages are shared by every game, so one
word serves them all. Read from the catalogue each page draws its words from."""

from __future__ import annotations

import json
import re
from pathlib import Path

CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "croupier" / "web" / "i18n"
ENGLISH: dict[str, str] = json.loads((CATALOGUES / "en.json").read_text(encoding="utf-8"))
SPANISH: dict[str, str] = json.loads((CATALOGUES / "es.json").read_text(encoding="utf-8"))

OTHER_WORDS = re.compile(r"\b(puestos?|casilleros?|asientos?|plazas?|zonas?)\b", re.IGNORECASE)
"""Every other word a Spanish page has used, or a regulation uses, for a seat."""

A_SEAT_BY_NUMBER = re.compile(r"\b(seats?|box|boxes|zone)\s+\{(seat|seats|turn)\}", re.IGNORECASE)


def test_no_spanish_message_calls_a_seat_anything_but_casilla() -> None:
    mixed = {key: text for key, text in SPANISH.items() if OTHER_WORDS.search(text)}
    assert mixed == {}


def test_every_seat_named_by_its_number_is_a_casilla_in_spanish() -> None:
    named = {key: text for key, text in ENGLISH.items() if A_SEAT_BY_NUMBER.search(text)}
    assert len(named) > 20  # the table, the errors, the recall's events, the dealer's console
    for key, english in named.items():
        for match in A_SEAT_BY_NUMBER.finditer(english):
            placeholder = "{" + match.group(2) + "}"
            said = re.search(
                r"casillas?\s+(?:de\s+la\s+)?" + re.escape(placeholder), SPANISH[key], re.I
            )
            assert said, f"{key}: {english!r} -> {SPANISH[key]!r}"
