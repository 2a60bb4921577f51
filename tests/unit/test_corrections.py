"""The dealer's corrections as commands of the one round mechanism (docs/rules.md#D-GEN-14):
a notation that round-trips, stored steps, the ``settle`` document's ``corrections`` (and
``document_of`` writing them), rules stored before corrections, and profile validation."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from croupier.cli.main import main
from croupier.errors import IllegalActionError, NotationError, ProfileError, SettleInputError
from croupier.games.commands import (
    ConfusedDeal,
    DealtInError,
    Exposed,
    FaceUp,
    from_step,
    parse_command,
    to_step,
)
from croupier.games.replay import replay
from croupier.games.settle_document import document_of
from croupier.rules import load_profile
from croupier.rules.registry import parse_profile
from croupier.settle import settle_document
from croupier.shoe import Shoe
from round_support import play

CORRECTED = Path(__file__).parents[1] / "playthroughs" / "blackjack" / "peru-2016-corrected.json"


@pytest.mark.parametrize(
    "text",
    [
        "face-up",
        "face-up Td",
        "dealt-in-error",
        "dealt-in-error 9c",
        "exposed hole",
        "exposed seat 2 hand 1",
        "exposed dealer 1",
        "confused-deal",
    ],
)
def test_d_gen_14_the_correction_notation_round_trips(text: str) -> None:
    command = parse_command(text)
    assert str(command) == text
    assert eval(repr(command), {"parse_command": parse_command}) == command
    assert from_step(json.loads(json.dumps(to_step(command)))) == command


def test_d_gen_14_the_corrections_are_typed_commands() -> None:
    assert parse_command("face-up") == FaceUp()
    assert parse_command("dealt-in-error 9c") == DealtInError(Shoe.parse("9c", 1).draw())
    assert parse_command("exposed hole") == Exposed("hole")
    assert parse_command("confused-deal") == ConfusedDeal()


@pytest.mark.parametrize("text", ["face-up Xx", "face-up Td 9c", "exposed", "confused-deal now"])
def test_d_gen_14_bad_correction_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_command(text)


EXPOSED_HOLE: dict[str, Any] = {
    "game": "blackjack",
    "rules": "peru-2016",
    "shoe": ["Th", "9c", "7d", "5s", "8h"],
    "seats": [{"seat": 1, "bets": {"main": 10}, "actions": ["stand"]}],
    "corrections": [{"after": 0, "correction": "exposed hole"}],
}


def test_d_bj_31_settle_takes_a_document_with_a_correction() -> None:
    # The hole card 5s is exposed right after the deal and replaced by 8h: 17 against 17.
    settled = settle_document(EXPOSED_HOLE)
    assert (settled["dealer"]["cards"], settled["dealer"]["total"]) == (["9c", "8h"], 17)
    assert [(s["seat"], s["net"]) for s in settled["seats"]] == [(1, 0)]
    kinds = [event["kind"] for event in settled["events"]]
    assert kinds.count("CardExposed") == 1
    # Without the correction the same shoe gives the dealer 9c 5s 8h = 22: the box wins.
    plain = settle_document({k: v for k, v in EXPOSED_HOLE.items() if k != "corrections"})
    assert [(s["seat"], s["net"]) for s in plain["seats"]] == [(1, 10)]


def test_d_gen_14_document_of_writes_the_corrections_and_settle_reads_them_back() -> None:
    # Kh face up before the deal (burnt); box Th 4d against 9c and a hole 8s; the box hits
    # 2d (16); 6c leaves the shoe in error (burnt); the box hits 5h: 21 against 17.
    profile = load_profile("peru-2016")
    commands = ["bet 1 main 10", "face-up", "deal", "act 1 hit", "dealt-in-error", "act 1 hit"]
    game = play(
        profile, Shoe.parse("Kh Th 9c 4d 8s 2d 6c 5h", 6), [parse_command(c) for c in commands]
    )
    assert game.results().net(1) == 10
    document = document_of(game.events)
    assert document["corrections"] == [
        {"after": "bets", "correction": "face-up Kh"},
        {"after": 1, "correction": "dealt-in-error 6c"},
    ]
    settled = settle_document(document)
    assert [(s["seat"], s["net"]) for s in settled["seats"]] == [(1, 10)]
    assert settled["seats"][0]["hands"][0]["cards"] == ["Th", "4d", "2d", "5h"]
    assert replay(game.events).events == game.events


def test_d_gen_14_a_document_without_corrections_is_settled_as_before() -> None:
    document = {k: v for k, v in EXPOSED_HOLE.items() if k != "corrections"}
    assert "corrections" not in document_of(replay_events(document))


def replay_events(document: dict[str, Any]) -> list[Any]:
    from croupier.games.events import Event

    return [Event.from_json(event) for event in settle_document(document)["events"]]


@pytest.mark.parametrize(
    ("corrections", "message"),
    [
        ([{"after": 5, "correction": "face-up"}], "was not reached"),
        ([{"after": -1, "correction": "face-up"}], "'after' is 'bets'"),
        ([{"after": 0, "correction": "deal"}], "unknown correction"),
        ([{"after": 0}], "an object with 'after' and 'correction'"),
        (
            [{"after": 1, "correction": "face-up"}, {"after": 0, "correction": "face-up"}],
            "in the order",
        ),
        ("face-up", "must be a list"),
    ],
)
def test_d_gen_14_bad_settle_corrections_are_refused(corrections: Any, message: str) -> None:
    with pytest.raises(SettleInputError, match=message):
        settle_document({**EXPOSED_HOLE, "corrections": corrections})


def test_d_gen_14_an_illegal_correction_in_a_document_is_refused() -> None:
    with pytest.raises(IllegalActionError):
        settle_document(
            {**EXPOSED_HOLE, "corrections": [{"after": "bets", "correction": "exposed hole"}]}
        )


def test_d_gen_14_rules_stored_before_corrections_take_only_a_void() -> None:
    old = load_profile("peru-2016").model_copy(update={"corrections": None})
    game = play(old, Shoe.parse("Th 9c 7d 5s 8h", 6), [parse_command("bet 1 main 10")])
    with pytest.raises(IllegalActionError) as refused:
        game.face_up()
    assert refused.value.code == "no_corrections_in_rules"
    game.apply(parse_command("void the dealer cannot finish"))
    assert game.results().net(1) == 0


def test_d_bj_31_exposed_card_none_only_where_no_card_is_face_down() -> None:
    from importlib import resources

    text = (resources.files("croupier.rules") / "profiles" / "peru-2016.toml").read_text()
    with pytest.raises(ProfileError, match="exposed_card"):
        parse_profile(text.replace('exposed_card = "replaced"', 'exposed_card = "none"'), "x")
    text = (
        resources.files("croupier.rules") / "profiles" / "casino-holdem-peru-2007.toml"
    ).read_text()
    with pytest.raises(ProfileError, match="exposed_card"):
        parse_profile(text.replace('exposed_card = "void"', 'exposed_card = "replaced"'), "x")


def test_d_gen_14_croupier_settle_reads_a_file_with_corrections(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line, on the golden corrected round (tests/playthroughs/blackjack)."""
    stored = json.loads(CORRECTED.read_text(encoding="utf-8"))
    round_file = tmp_path / "round.json"
    round_file.write_text(json.dumps(stored["round"]), encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["croupier", "settle", str(round_file)])
    try:
        main()
    except SystemExit as exit_:
        assert exit_.code in (0, None)
    assert json.loads(capsys.readouterr().out) == stored["settled"]


def test_d_gen_14_every_disposal_and_outcome_is_worded_in_both_languages() -> None:
    from croupier.rules.base import ExposedCardRule, FaceUpCardRule
    from croupier.web.language import Catalogue

    for language in ("en", "es"):
        messages = Catalogue.load(language).messages
        for rule in FaceUpCardRule:
            assert f"disposal.{rule}" in messages, (language, rule)
        for outcome in set(ExposedCardRule) - {ExposedCardRule.NONE}:
            assert f"outcome.{outcome}" in messages, (language, outcome)
        for purpose in ("removed", "shown-burn"):
            assert f"purpose.{purpose}" in messages, (language, purpose)


@pytest.mark.parametrize("name", ["peru-2016", "dragon-six-peru-2016", "casino-holdem-peru-2007"])
def test_d_gen_6_a_void_is_checked_and_made_through_the_one_command_table(name: str) -> None:
    """docs/rules.md#D-GEN-6: a void is a correction like any, checked by ``can_correct`` and
    made by ``correct`` through the round's table of commands, whose reason is the dealer's
    (a game's own ``verify_void`` takes it too: baccarat's once did not, and raised)."""
    from croupier.cards import FULL_DECK
    from croupier.games.base import round_class_of
    from croupier.games.commands import Void
    from croupier.rules import load_profile
    from croupier.shoe import Shoe

    profile = load_profile(name)
    decks = profile.table.decks
    game = round_class_of(profile.game)(profile, Shoe.stacked(list(FULL_DECK) * decks, decks))
    assert game.can_correct(Void("the shoe fell"))
    assert [item.kind for item in game.correct(Void("the shoe fell"))] == [
        "RoundVoided",
        "RoundEnded",
    ]
    assert not game.can_correct(Void("again"))
