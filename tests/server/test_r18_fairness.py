"""R18: provable fairness with a finite shoe - a SHA-256 commitment published before the
shoe deals, revealed after, and a public verifier (``croupier verify``): every revealed shoe
verifies, and every mutation of its seed, order, rules version or rounds is caught."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from server_support import Api, Table, one_deck_profile

from croupier.fairness import verify_export
from croupier.server.app import playable_profiles

pytestmark = pytest.mark.skipif(
    "veintiuno-real" not in playable_profiles(), reason="blackjack has not landed yet"
)


def mutations(export: dict[str, Any]) -> list[dict[str, Any]]:
    variants = []
    seed = copy.deepcopy(export)
    seed["revealed"]["seed"] = ("0" if seed["revealed"]["seed"][0] != "0" else "1") + seed[
        "revealed"
    ]["seed"][1:]
    variants.append(seed)
    order = copy.deepcopy(export)
    order["revealed"]["order"][0], order["revealed"]["order"][1] = (
        order["revealed"]["order"][1],
        order["revealed"]["order"][0],
    )
    variants.append(order)
    version = copy.deepcopy(export)
    version["revealed"]["rules_version"] += "x"
    variants.append(version)
    dealt = copy.deepcopy(export)
    for event in dealt["rounds"][0]["events"]:
        if event["kind"] == "CardDrawn":
            event["card"] = "As" if event["card"] != "As" else "Ks"
            break
    variants.append(dealt)
    commitment = copy.deepcopy(export)
    commitment["commitment"] = "0" * 64
    variants.append(commitment)
    return variants


def test_each_shoe_is_committed_before_dealing_and_verifies_when_revealed(
    api: Api, tmp_path: Path
) -> None:
    table = Table(api, one_deck_profile(tmp_path), ["ann", "ben"])
    token = table.tokens["ann"]
    committed: dict[int, str] = {}
    for _ in range(10):
        shoe = table.state()["table"]["shoe"]
        document = api.get(f"/shoes/{shoe}", token).json()
        assert not document["is_revealed"] and "revealed" not in document
        committed.setdefault(shoe, document["commitment"])
        assert api.get(f"/shoes/{shoe}/export", token).status_code == 409  # not before it ends
        table.play_round()
    revealed = [
        shoe for shoe in committed if api.get(f"/shoes/{shoe}", token).json()["is_revealed"]
    ]
    assert len(revealed) >= 2
    for shoe in revealed:
        export = api.get(f"/shoes/{shoe}/export", token).json()
        assert export["commitment"] == committed[shoe]  # the commitment did not change
        assert verify_export(export) == []
        for variant in mutations(export):
            assert verify_export(variant), "a mutated export verified"
    path = tmp_path / "shoe.json"
    path.write_text(json.dumps(api.get(f"/shoes/{revealed[0]}/export", token).json()))
    verified = subprocess.run(
        [sys.executable, "-c", "from croupier.cli.main import main; main()", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert verified.returncode == 0 and verified.stdout.startswith("verified"), verified
    path.write_text(json.dumps(mutations(api.get(f"/shoes/{revealed[0]}/export", token).json())[0]))
    failed = subprocess.run(
        [sys.executable, "-c", "from croupier.cli.main import main; main()", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert failed.returncode == 1 and "FAILED" in failed.stdout
