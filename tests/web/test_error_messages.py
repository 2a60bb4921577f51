"""Issue 13, item 6: every error the server can answer carries a stable ``code`` and its
``params``, and both catalogues (English, Spanish) say each code in words, with the same
placeholders, none of them a parameter the raise site does not give.

The codes are read from the source itself (an error class's ``code = "..."``, a raise site's
``code="..."`` and the parameters beside it), so a new code without its words fails here."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

from croupier.errors import BetError, InsufficientFunds
from croupier.rules.blackjack import ThreeCardHand
from croupier.rules.registry import shipped_profile_names
from croupier.server.errors import HTTP_CODES, HTTP_OTHER, error_body
from croupier.web.language import LANGUAGES, Catalogue

SOURCE = Path(__file__).resolve().parents[2] / "src" / "croupier"
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def _codes_in_source() -> dict[str, list[set[str]]]:
    """code -> the parameter names of each place that raises it."""
    found: dict[str, list[set[str]]] = defaultdict(list)
    for path in SOURCE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for statement in node.body:
                    if (
                        isinstance(statement, ast.Assign)
                        and [getattr(t, "id", None) for t in statement.targets] == ["code"]
                        and isinstance(statement.value, ast.Constant)
                    ):
                        # A class's own code: its parameters are those its __init__ gives.
                        given = {
                            keyword.arg
                            for call in ast.walk(node)
                            if isinstance(call, ast.Call)
                            for keyword in call.keywords
                            if keyword.arg and keyword.arg != "code"
                        }
                        found[statement.value.value].append(given)
            if isinstance(node, ast.Call):
                keywords = {keyword.arg: keyword.value for keyword in node.keywords}
                code = keywords.get("code")
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    found[code.value].append({name for name in keywords if name and name != "code"})
    for code in (*HTTP_CODES.values(), HTTP_OTHER):
        found[code].append({"status"})
    return found


CODES = _codes_in_source()


def test_the_source_raises_the_codes_of_the_issues_examples() -> None:
    assert {
        "balance_too_low",
        "bet_outside_limits",
        "limits_out_of_order",
        "too_few_players",
    } <= set(CODES)
    assert len(CODES) > 40


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_has_words_in_each_language_with_only_the_params_given(language: str) -> None:
    messages = Catalogue.load(language).messages
    missing = sorted(code for code in CODES if f"error.{code}" not in messages)
    assert missing == []
    for code, sites in CODES.items():
        placeholders = set(PLACEHOLDER.findall(messages[f"error.{code}"]))
        for given in sites:
            assert placeholders <= given, f"error.{code} names {placeholders - given}, not given"


def test_the_two_catalogues_fill_the_same_placeholders() -> None:
    english, spanish = Catalogue.load("en").messages, Catalogue.load("es").messages
    assert english.keys() == spanish.keys()
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(spanish[key])), key


def test_every_21_plus_3_result_and_profile_title_is_in_both_catalogues() -> None:
    for language in LANGUAGES:
        messages = Catalogue.load(language).messages
        for result in ["none", *(str(hand) for hand in ThreeCardHand)]:
            assert f"result.{result}" in messages
        for name in shipped_profile_names():
            assert f"profile.{name}" in messages


def test_an_error_answer_keeps_error_and_detail_and_adds_code_and_params() -> None:
    refused = BetError(
        "seat 3 main: 20000 is outside the limits 1 to 10000",
        code="bet_outside_limits",
        seat=3,
        wager="main",
        amount=20000,
        minimum=1,
        maximum=10000,
    )
    assert error_body(refused) == {
        "error": "BetError",
        "detail": "seat 3 main: 20000 is outside the limits 1 to 10000",
        "code": "bet_outside_limits",
        "params": {"seat": 3, "wager": "main", "amount": 20000, "minimum": 1, "maximum": 10000},
    }
    assert error_body(InsufficientFunds("short"))["code"] == "insufficient_funds"
