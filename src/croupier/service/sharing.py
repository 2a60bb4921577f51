"""What the leases do to a process's live tables (issue 29): take this process's share of
them, rebuild each one taken from its record, give surplus ones up between rounds, drop the
ones lost (``service.leases`` holds the leases themselves; this module wires them to the
``Casino``).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable

from croupier.service import engines
from croupier.service.leases import Ownership, TableLeases, TableMoved
from croupier.service.tables import Casino

log = logging.getLogger("croupier.leases")


def between_rounds(casino: Casino, table_id: int) -> bool:
    live = casino.tables.get(table_id)
    return live is None or (
        (live.round is None or live.round.is_betting) and not live.held and not live.back_bets
    )


def balance(casino: Casino, leases: TableLeases) -> list[str]:
    """One pass: renew; rebuild the tables peers handed here; take free tables up to this
    process's share, or hand surplus tables over between rounds (but those whose requests
    come here); hand tables whose requests come through a peer to that peer
    (``follow_requests``). Returns what was done (for the start's notes)."""
    processes, tables, renewed = leases.renew()
    share = math.ceil(tables / processes)
    notes: list[str] = []
    notes += adopt_handed(casino, leases)
    # A table this process created since the count (its lease granted in the creating
    # transaction, on another thread) is held but not counted: taking, count it (take fewer);
    # giving up, do not (the tables renewed are those counted), or it would look surplus and
    # be given up the instant it opened.
    held = len(leases.held)
    if held < share:
        # Held while taking: a request's ``adopt_handed`` would take a table just taken here,
        # whose epoch was raised as a handed one's is, for one to rebuild too.
        with leases.adopting:
            while held < share:
                taken = leases.take(share - held)
                for table_id in taken:
                    notes += adopt(casino, leases, table_id)
                    if time.monotonic() - leases.renewed_at >= leases.renew_seconds:
                        leases.renew()  # rebuilding many tables must not let others' lapse
                if not taken:
                    break
                # Counted again after the rebuilds: a process that died as this pass began
                # was counted live, and the share left its other tables free until the next
                # pass, which the rebuilds delayed by seconds (fail-over p99 11 s under load).
                processes, tables, _ = leases.renew()
                share, held = math.ceil(tables / processes), len(leases.held)
    elif len(renewed) > share:
        # A table whose requests come through a peer goes to that peer; then the highest ids;
        # never one whose requests the balancer sends here (it would be forwarded back).
        wanted, settled = leases.arrivals.wanted(), leases.arrivals.settled_here()
        surplus = sorted(
            (table_id for table_id in renewed if table_id not in settled),
            key=lambda table_id: (table_id not in wanted, -table_id),
        )
        for table_id in surplus[: len(renewed) - share]:
            live = casino.tables.get(table_id)
            if live is None:
                continue
            with live.lock:
                if not between_rounds(casino, table_id):
                    continue
                if table_id in wanted and leases.hand_over(table_id, wanted[table_id]):
                    notes.append(f"table {live.name}: handed to the process its requests reach")
                    continue
                # Straight to a process below its share: a table given up is run by nobody
                # until a pass takes it (a second at most; its players meanwhile hear 503).
                peer = leases.peer_below(share)
                if peer is not None and leases.hand_over(table_id, peer):
                    notes.append(f"table {live.name}: handed to a process below its share")
                else:
                    leases.give_up(table_id)
                    notes.append(f"table {live.name}: given up to another process")
    notes += follow_requests(casino, leases)
    leases.arrivals.fade()
    return notes


def follow_requests(casino: Casino, leases: TableLeases) -> list[str]:
    """Hand each table whose requests come mostly through one live peer (``Arrivals.wanted``)
    to that peer, between rounds, whatever the peer's share: the balancer sends them there,
    and there they stay (``service.leases``)."""
    notes: list[str] = []
    for table_id, peer in sorted(leases.arrivals.wanted().items()):
        live = casino.tables.get(table_id)
        if live is None or table_id not in leases.held:
            continue
        with live.lock:
            if between_rounds(casino, table_id) and leases.hand_over(table_id, peer):
                notes.append(f"table {live.name}: handed to the process its requests reach")
    return notes


def adopt_handed(casino: Casino, leases: TableLeases) -> list[str]:
    """Rebuild the tables peers handed to this process (``TableLeases.hand_over``): at each
    pass, and at once when a request for one arrives first (``server.forwarding``), so that
    no player waits for the pass; one at a time (``leases.adopting``)."""
    notes: list[str] = []
    with leases.adopting:
        for table_id in leases.handed_to_me():
            notes += adopt(casino, leases, table_id)
            notes.append(f"table {table_id}: handed here by the process that ran it")
    return notes


def adopt(casino: Casino, leases: TableLeases, table_id: int) -> list[str]:
    """Bring a table whose lease this process just took back from the database, fenced."""
    try:
        notes = casino.registry.load_table(
            table_id, lambda session: leases.fencing.verify(session, table_id)
        )
    except TableMoved:
        return [f"table {table_id}: lost again before it was loaded"]
    except Exception:
        log.exception("table %s: could not be loaded; given up", table_id)
        leases.give_up(table_id)
        return []
    live = casino.tables.get(table_id)
    if live is not None:
        casino.publish(live)
        # Its engine ready before its next player waits on it, off the leases' thread.
        threading.Thread(target=engines.warm_up, args=(live.profile,), daemon=True).start()
    return notes


def forgetter(casino: Casino) -> Callable[[int], None]:
    def forget(table_id: int) -> None:
        live = casino.tables.pop(table_id, None)
        if live is not None:
            # Its sockets on this process hear it and close (the client reconnects).
            casino.broadcaster.publish(table_id)

    return forget


def install(casino: Casino, leases: Ownership) -> list[str]:
    """Wire ``leases`` to the casino; on a shared database, take this process's share now."""
    casino.leases = leases
    if not isinstance(leases, TableLeases):
        return casino.load()
    leases.forget = forgetter(casino)
    return balance(casino, leases)


def keep_forever(casino: Casino, leases: Ownership, stop: threading.Event) -> None:
    """The leases' thread: a pass every ``renew_seconds`` until ``stop`` is set; and, the
    moment a round ends whose table's requests come through a peer (``leases.nudged``), that
    table handed over (the next round's first bet would hold it here another round)."""
    if not isinstance(leases, TableLeases):
        return
    next_pass = time.monotonic() + leases.renew_seconds
    while not stop.is_set():
        nudged = leases.nudged.wait(max(0.0, next_pass - time.monotonic()))
        if stop.is_set():
            return
        notes: list[str] = []
        try:
            if nudged:
                leases.nudged.clear()
                notes += follow_requests(casino, leases)
            if time.monotonic() >= next_pass:
                next_pass = time.monotonic() + leases.renew_seconds
                notes += balance(casino, leases)
            for note in notes:
                log.warning("%s", note)
        except Exception as error:  # the next pass tries again; the fence keeps money safe
            log.warning("table leases: pass failed (%s)", str(error).splitlines()[0])
