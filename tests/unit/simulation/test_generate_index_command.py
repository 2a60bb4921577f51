"""``croupier simulate --generate-index``: the notation, its errors, and the JSON."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from croupier.cli.main import app
from croupier.simulation.blackjack_sim import SimulationError

runner = CliRunner()


def test_generate_index_json() -> None:
    result = runner.invoke(
        app,
        ["simulate", "spain-1979", "--count", "hi-lo", "--generate-index", "16vT:S/H",
         "--rounds", "300000", "--seed", "1", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["cell"] == "hard 16 v T" and document["plays"] == ["S", "H"]
    assert document["probes"] > 2_000
    assert sum(row["probes"] for row in document["by_true_count"]) <= document["probes"]


def test_generate_index_errors() -> None:
    for args, message in (
        (["--count", "hi-lo", "--generate-index", "16vX:S/H"], "TOTALvUP"),
        (["--generate-index", "16vT:S/H"], "--count"),
    ):
        result = runner.invoke(app, ["simulate", "peru-2016", "--rounds", "10", *args])
        assert isinstance(result.exception, SimulationError)
        assert message in str(result.exception)


def test_generate_insurance_index_json() -> None:
    result = runner.invoke(
        app,
        ["simulate", "peru-2016", "--count", "hi-lo", "--generate-index", "insurance",
         "--rounds", "300000", "--seed", "1", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["cell"] == "insurance" and document["plays"] == ["insure", "decline"]
    assert document["probes"] > 20_000  # an Ace up about once in 13 rounds
    assert document["index"] is not None


def test_generate_index_soft_and_pair_cells() -> None:
    """``A7v2`` is soft 18 against a 2, ``TTv6`` a pair of tens against a 6, ``22v5`` a
    pair of twos (not a hard 22); a split is only for a pair."""
    for cell, name, plays in (
        ("A7v2:D/S", "soft 18 v 2", ["D", "S"]),
        ("TTv6:P/S", "pair T v 6", ["P", "S"]),
        ("22v5:P/H", "pair 2 v 5", ["P", "H"]),
    ):
        result = runner.invoke(
            app,
            ["simulate", "peru-2016", "--count", "hi-lo", "--generate-index", cell,
             "--rounds", "100000", "--seed", "1", "--json"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        document = json.loads(result.stdout)
        assert document["cell"] == name and document["plays"] == plays
        assert document["probes"] > 30
    result = runner.invoke(
        app,
        ["simulate", "peru-2016", "--count", "hi-lo", "--generate-index", "16vT:P/H",
         "--rounds", "10"],
    )  # fmt: skip
    assert isinstance(result.exception, SimulationError)
    assert "pair" in str(result.exception)


def test_generate_a_surrender_index_json() -> None:
    """``15vT:R/H``: late surrender against a hit, on a profile with late surrender
    (docs/rules.md#D-BJ-32). A surrender nets exactly -1/2 and a hit of hard 15 -1, 0 or +1
    (no chart doubles a three-card hand), so each count's mean difference lies in
    [-1.5, 0.5]; peru-2016, without surrender, refuses ``R`` by name."""
    result = runner.invoke(
        app,
        ["simulate", "tests/oracles/six-deck-s17-das-peek-late-surrender.toml", "--count",
         "hi-lo", "--generate-index", "15vT:R/H", "--rounds", "300000", "--seed", "1",
         "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["cell"] == "hard 15 v T" and document["plays"] == ["R", "H"]
    assert document["probes"] > 3_000
    for row in document["by_true_count"]:
        assert -1.5 <= row["difference"] <= 0.5
    refused = runner.invoke(
        app, ["simulate", "peru-2016", "--count", "hi-lo", "--generate-index", "15vT:R/H"]
    )
    assert isinstance(refused.exception, SimulationError)
    assert "no late surrender" in str(refused.exception)
