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
    """One pass: renew, then take free tables up to this process's share, or give surplus
    tables up between rounds. Returns what was done (for the start's notes)."""
    processes, tables, renewed = leases.renew()
    share = math.ceil(tables / processes)
    notes: list[str] = []
    # A table this process created since the count (its lease granted in the creating
    # transaction, on another thread) is held but not counted: taking, count it (take fewer);
    # giving up, do not (the tables renewed are those counted), or it would look surplus and
    # be given up the instant it opened.
    held = len(leases.held)
    if held < share:
        for table_id in leases.take(share - held):
            notes += adopt(casino, leases, table_id)
            if time.monotonic() - leases.renewed_at >= leases.renew_seconds:
                leases.renew()  # rebuilding many tables must not let the others' leases lapse
    elif len(renewed) > share:
        for table_id in sorted(renewed, reverse=True)[: len(renewed) - share]:
            live = casino.tables.get(table_id)
            if live is None:
                continue
            with live.lock:
                if between_rounds(casino, table_id):
                    leases.give_up(table_id)
                    notes.append(f"table {live.name}: given up to another process")
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
    """The leases' thread: a pass every ``renew_seconds`` until ``stop`` is set."""
    if not isinstance(leases, TableLeases):
        return
    while not stop.wait(leases.renew_seconds):
        try:
            for note in balance(casino, leases):
                log.warning("%s", note)
        except Exception as error:  # the next pass tries again; the fence keeps money safe
            log.warning("table leases: pass failed (%s)", str(error).splitlines()[0])
