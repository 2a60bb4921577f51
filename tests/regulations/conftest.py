"""Helpers for regulation tests: settle a round written as a ``croupier settle`` document."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.settle import settle_document


class Settler:
    """``settle(rules, shoe, seats)`` deals a stacked shoe through the settle contract."""

    def __call__(self, rules: str, shoe: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
        document = {"game": "blackjack", "rules": rules, "shoe": shoe.split(), "seats": seats}
        return settle_document(document)

    @staticmethod
    def seat(output: dict[str, Any], seat: int) -> dict[str, Any]:
        return next(entry for entry in output["seats"] if entry["seat"] == seat)

    @classmethod
    def hands(cls, output: dict[str, Any], seat: int = 1) -> list[tuple[str, int, str, Any]]:
        """Each hand as (cards, bet, result, payout), in the order the hands were played."""
        return [
            (" ".join(hand["cards"]), hand["bet"], hand["result"], hand["payout"])
            for hand in cls.seat(output, seat)["hands"]
        ]

    @classmethod
    def money(cls, output: dict[str, Any], seat: int = 1) -> tuple[Any, Any, Any]:
        entry = cls.seat(output, seat)
        return entry["staked"], entry["returned"], entry["net"]

    @staticmethod
    def kinds(output: dict[str, Any]) -> list[str]:
        return [item["kind"] for item in output["events"]]


@pytest.fixture
def settle() -> Settler:
    return Settler()
