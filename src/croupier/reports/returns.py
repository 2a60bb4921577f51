"""Each wager's return to player and variance, from the exact analysis of a table's own rules.

The figures are those ``croupier analyze PROFILE --json`` prints (``analysis.profile_analysis``)
and they come from the same disk cache (``analysis.result_cache``: the same key, the same
document), so a profile analysed once, by the command or by a server, is read from the disk
ever after. ``Returns.of`` never computes: it answers from memory or from the disk, and where
neither has the profile it answers ``None`` and (when asked to, ``background=True``) has the
analysis computed in a process of its own (spawned: numba and a forked pool do not mix,
STACK.md), whose document lands in the cache and in memory. A server warms every open
table's profile at its start and a new table's at its opening, so a request reads a figure
and never waits on the math (``Returns.compute`` is the CLI's way: here and now).

Blackjack's figures assume the basic strategy the analysis prints (``"play": "basic"``; the
chart is ``strategy``), and are per initial bet: doubles and splits are inside the main
wager's edge and variance, insurance is a wager of its own (the chart never takes it).
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from typing import Any

from croupier.analysis import result_cache
from croupier.rules import Profile

log = logging.getLogger(__name__)

PLAY = "basic"
"""The player's strategy the figures assume (blackjack's basic strategy chart)."""


@dataclass(frozen=True)
class WagerReturn:
    """One wager per initial unit staked: ``house_edge`` (expected loss), ``variance`` (of
    the net result), ``exact`` (the analysis says the edge is exact)."""

    wager: str
    house_edge: float
    variance: float
    exact: bool

    @property
    def return_to_player(self) -> float:
        return 1.0 - self.house_edge


@dataclass(frozen=True)
class TableReturns:
    """Every wager of one profile. ``strategy`` is blackjack's basic strategy chart (as
    ``croupier analyze --json`` prints it), ``None`` elsewhere."""

    profile: str
    game: str
    wagers: Mapping[str, WagerReturn]
    strategy: Mapping[str, Any] | None = None

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> TableReturns:
        """From the analysis's JSON (``ProfileAnalysis.as_json``)."""
        figures = dict(document["bets"])
        if isinstance(document.get("insurance"), dict):
            figures["insurance"] = document["insurance"]  # blackjack's own wager beside main
        wagers = {
            name: WagerReturn(
                wager=name,
                house_edge=float(item["house_edge"]),
                variance=float(item["std_dev"]) ** 2,
                exact=bool(item.get("exact", False)) or "house_edge_exact" in item,
            )
            for name, item in figures.items()
        }
        strategy = document.get("strategy")
        return cls(
            profile=str(document["profile"]),
            game=str(document["game"]),
            wagers=wagers,
            strategy=strategy if isinstance(strategy, dict) else None,
        )


def _key(profile: Profile) -> str:
    return result_cache.document_key(profile, None, PLAY)


def _memo(profile: Profile) -> str:
    """The profile without its table limits: no figure of the analysis depends on them (it
    is per unit staked), so an operator's new limits find the figures already in memory."""

    def without_limits(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                name: without_limits(item)
                for name, item in value.items()
                if not str(name).endswith("limits")
            }
        return value

    return json.dumps(without_limits(profile.model_dump(mode="json")), sort_keys=True)


def compute_document(profile: Profile) -> dict[str, Any]:
    """Analyse ``profile`` as ``croupier analyze PROFILE --json`` does and keep the document
    in the disk cache. Module level, so that a spawned process can run it."""
    from croupier.analysis.profile_analysis import analyse_profile

    document = analyse_profile(profile).as_json()
    result_cache.store_document(_key(profile), document)
    return document


@dataclass
class Returns:
    """The figures of every profile met so far, kept in memory over the disk cache."""

    background: bool = False
    """Compute a missing profile in a spawned process (a server); ``False``: answer ``None``."""
    _known: dict[str, TableReturns] = field(default_factory=dict)
    _pending: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _pool: Pool | None = None

    def of(self, profile: Profile) -> TableReturns | None:
        """``profile``'s figures from memory or the disk cache, or ``None`` (then computed in
        the background, if this keeps a background)."""
        memo = _memo(profile)
        known = self._known.get(memo)
        if known is not None:
            return known
        document = result_cache.load_document(_key(profile))
        if document is not None:
            returns = TableReturns.from_document(document)
            self._known[memo] = returns
            return returns
        if self.background:
            self._schedule(profile, memo)
        return None

    def compute(self, profile: Profile) -> TableReturns:
        """``profile``'s figures, computed here if neither memory nor the disk has them."""
        found = self.of(profile)
        if found is not None:
            return found
        returns = TableReturns.from_document(compute_document(profile))
        self._known[_memo(profile)] = returns
        return returns

    def warm(self, profiles: Iterable[Profile]) -> None:
        """Have each profile's figures ready (read now, or computed in the background)."""
        for profile in profiles:
            self.of(profile)

    def _schedule(self, profile: Profile, memo: str) -> None:
        def done(document: dict[str, Any]) -> None:
            self._known[memo] = TableReturns.from_document(document)
            with self._lock:
                self._pending.discard(memo)

        def failed(error: BaseException) -> None:  # the next request schedules it again
            log.error("the analysis of %s failed: %s", profile.name, error)
            with self._lock:
                self._pending.discard(memo)

        with self._lock:
            if memo in self._pending:
                return
            if self._pool is None:
                self._pool = multiprocessing.get_context("spawn").Pool(1)
            self._pending.add(memo)
            self._pool.apply_async(
                compute_document, (profile,), callback=done, error_callback=failed
            )

    def close(self) -> None:
        """Stop the background process (a server's shutdown): work under way is dropped,
        and computed again at the next start."""
        with self._lock:
            pool, self._pool = self._pool, None
            self._pending.clear()
        if pool is not None:
            pool.terminate()
            pool.join()


def posted_returns(document: dict[str, Any], returns: TableReturns | None) -> dict[str, Any]:
    """The table's posted rules (``rules.posted``) with each wager's ``return_to_player``
    (1 minus its exact house edge; ``None`` until the analysis is ready): on every line of
    ``limits``, on each paytable of a wager and on baccarat's lines that are wagers. Beside
    them, ``returns``: whether the figures are ready, the play they assume (``"basic"``
    for blackjack, ``None`` where a game has no decision the player must get right) and
    blackjack's basic strategy chart (``croupier analyze --json``'s ``strategy``)."""

    def of(wager: str) -> float | None:
        if returns is None or wager not in returns.wagers:
            return None
        return returns.wagers[wager].return_to_player

    posted = dict(document)
    posted["limits"] = [
        {**limit, "return_to_player": of(limit["wager"])} for limit in document["limits"]
    ]
    paytables = []
    for listed in document["paytables"]:
        table = dict(listed)
        if returns is not None and table["wager"] in returns.wagers:
            table["return_to_player"] = of(table["wager"])
        elif returns is not None and any(line["hand"] in returns.wagers for line in table["lines"]):
            table["lines"] = [
                {**line, "return_to_player": of(line["hand"])}
                if line["hand"] in returns.wagers
                else line
                for line in table["lines"]
            ]
        paytables.append(table)
    posted["paytables"] = paytables
    strategy = None if returns is None else returns.strategy
    posted["returns"] = {
        "ready": returns is not None,
        "play": PLAY if document["game"] == "blackjack" else None,
        "strategy": strategy,
    }
    return posted
