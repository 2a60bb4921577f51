"""The return posted at the table (issue 27, item 5; UKGC RTS 14): ``GET /tables/{id}/rules``
gives each wager's ``return_to_player``, 1 minus the exact house edge of the table's own
rules, read from the analysis made at the table's opening, never computed in the request."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from report_support import DAY_START, GAMING_DAY
from server_support import Api, make_api

from croupier.analysis import result_cache
from croupier.analysis.profile_analysis import analyse_profile
from croupier.clock import ManualClock
from croupier.rules import load_profile


def _rules(api: Api, table: int) -> dict[str, Any]:
    answer = api.get(f"/tables/{table}/rules", api.player(f"reader-{time.monotonic_ns()}"))
    assert answer.status_code == 200, answer.text
    document: dict[str, Any] = answer.json()
    return document


def _open(api: Api, profile: str) -> int:
    from server_support import OPERATOR_TOKEN

    created = api.post(
        "/operator/tables", OPERATOR_TOKEN, {"name": f"rtp-{profile}", "profile": profile}
    )
    assert created.status_code == 201, created.text
    table: int = created.json()["table"]
    return table


def test_blackjack_posts_its_return_under_the_basic_strategy_it_shows(api: Api) -> None:
    """Veintiuno Real: the main bet's return is 1 minus the house edge ``croupier analyze``
    computes for these rules, insurance's its own, with the basic strategy chart the figure
    assumes."""
    profile = load_profile("veintiuno-real")
    analysis = analyse_profile(profile)
    # In the cache as `croupier analyze veintiuno-real --json` (or a server's opening) leaves it.
    result_cache.store_document(
        result_cache.document_key(profile, None, "basic"), analysis.as_json()
    )
    table = _open(api, "veintiuno-real")

    document = _rules(api, table)
    assert [(line["wager"], line["return_to_player"]) for line in document["limits"]] == [
        ("main", 1 - analysis.bets["main"].house_edge)
    ]
    insurance = next(t for t in document["paytables"] if t["wager"] == "insurance")
    assert analysis.blackjack is not None
    assert insurance["return_to_player"] == 1 - analysis.blackjack.insurance.house_edge
    assert document["returns"]["ready"] is True and document["returns"]["play"] == "basic"
    assert document["returns"]["strategy"] == analysis.blackjack.strategy.as_json()


@pytest.fixture
def background_api(database_url: str, cache: Path) -> Any:
    yield from make_api(
        database_url,
        clock=ManualClock(DAY_START),
        gaming_day=GAMING_DAY,
        analyse_returns=True,
    )


def test_a_new_tables_return_is_computed_in_the_background(background_api: Api) -> None:
    """No analysis of Dragon Six in the cache: the table's opening has it computed in a
    process of its own; until then the rules say so (``null``, ``ready: false``) at once,
    and then give every wager's exact return."""
    table = _open(background_api, "dragon-six-peru-2016")
    first = _rules(background_api, table)
    assert first["returns"]["ready"] is False
    assert {line["return_to_player"] for line in first["limits"]} == {None}
    deadline = time.monotonic() + 120
    document = first
    while not document["returns"]["ready"]:
        assert time.monotonic() < deadline, "the background analysis did not finish"
        time.sleep(0.2)
        document = _rules(background_api, table)
    analysis = analyse_profile(load_profile("dragon-six-peru-2016"))
    assert {line["wager"]: line["return_to_player"] for line in document["limits"]} == {
        wager: 1 - figures.house_edge for wager, figures in analysis.bets.items()
    }
    coup = document["paytables"][0]
    banker = next(line for line in coup["lines"] if line["hand"] == "banker")
    assert banker["return_to_player"] == 1 - analysis.bets["banker"].house_edge
    assert document["returns"]["play"] is None and document["returns"]["strategy"] is None
