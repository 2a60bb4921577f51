"""Baccarat's roads (issue 13, item 4: "baccarat roads (bead plate and big road at least) from
the shoe's rounds"): each coup read from its recorded events, laid out as a scoreboard does."""

from __future__ import annotations

from croupier.games.baccarat import BaccaratRound
from croupier.games.baccarat_roads import Coup, bead_plate, big_road, coup_of, roads_document
from croupier.games.events import Event
from croupier.rules.baccarat import BaccaratRules
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe

PROFILE = load_profile_of("baccarat", "dragon-six-peru-2016")
assert isinstance(PROFILE, BaccaratRules)


def _coups(winners: str) -> list[Coup]:
    return [Coup(winner=w, player_total=0, banker_total=5) for w in winners]


def _cells(winners: str) -> list[tuple[int, int, str, int]]:
    return [(c.column, c.row, c.winner, c.ties) for c in big_road(_coups(winners))]


def test_a_coup_is_read_from_its_recorded_events() -> None:
    """Art. 11 as dealt: P Ks 2d (2), B 4h 2c (6); the Player draws 3c (5) and the Banker on 6
    stands against a third card 3: the Banker wins with 6. Then a pair of Kings and a natural."""
    coup = BaccaratRound(PROFILE, Shoe.parse("Ks 4h 2d 2c 3c 9s"))
    coup.deal()
    events = [Event.from_json(event.to_json()) for event in coup.events]
    assert coup_of(events, round_id=7) == Coup(winner="B", player_total=5, banker_total=6, round=7)
    paired = BaccaratRound(PROFILE, Shoe.parse("Ks 9h Kd Tc"))
    paired.deal()
    assert coup_of(paired.events) == Coup(
        winner="B", player_total=0, banker_total=9, player_pair=True, natural=True
    )


def test_the_bead_plate_fills_columns_of_six_in_order() -> None:
    beads = bead_plate(_coups("PBTPBBP"))
    assert [(b.column, b.row, b.winner) for b in beads] == [
        (0, 0, "P"),
        (0, 1, "B"),
        (0, 2, "T"),
        (0, 3, "P"),
        (0, 4, "B"),
        (0, 5, "B"),
        (1, 0, "P"),
    ]
    assert beads[1].total == 5 and beads[0].total == 0  # the winner's total


def test_the_big_road_starts_a_column_per_run_and_marks_ties_on_the_entry_before() -> None:
    assert _cells("BBPTTPB") == [
        (0, 0, "B", 0),
        (0, 1, "B", 0),
        (1, 0, "P", 2),
        (1, 1, "P", 0),
        (2, 0, "B", 0),
    ]
    leading = big_road(_coups("TTP"))
    assert [(c.winner, c.ties_before, c.ties) for c in leading] == [("P", 2, 0)]


def test_a_run_past_six_turns_right_and_the_next_run_bends_under_its_tail() -> None:
    """The dragon tail: the seventh Banker goes right along the sixth row; a Player run of
    seven in the next column meets that tail at row 6 and turns right at row 5."""
    cells = _cells("BBBBBBBB" + "PPPPPPP")
    assert cells[5:8] == [(0, 5, "B", 0), (1, 5, "B", 0), (2, 5, "B", 0)]
    assert cells[8:] == [
        (1, 0, "P", 0),
        (1, 1, "P", 0),
        (1, 2, "P", 0),
        (1, 3, "P", 0),
        (1, 4, "P", 0),
        (2, 4, "P", 0),
        (3, 4, "P", 0),
    ]
    places = [(column, row) for column, row, _winner, _ties in cells]
    assert len(places) == len(set(places))  # no two entries on one cell


def test_the_document_counts_each_side_and_marks_a_banker_six() -> None:
    """Dragon Six Art. 8: a Banker win with 6 is the one paid half; the road marks it."""
    coups = [*_coups("PT"), Coup(winner="B", player_total=4, banker_total=6)]
    document = roads_document(coups)
    assert document["coups"] == 3
    assert document["counts"] == {"P": 1, "B": 1, "T": 1}
    assert [cell["banker_six"] for cell in document["big_road"]] == [False, True]
