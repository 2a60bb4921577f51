"""Tables shared by several server processes: a lease per table, fenced (issue 29, item 1).

On PostgreSQL any number of ``croupier serve`` processes share one database. Each table is
run by one of them at a time, the owner of its lease: a row of ``table_leases`` naming the
owner, an **epoch** and an expiry on the database's clock. The owner renews its leases every
``renew_seconds`` (1 s) for ``lease_seconds`` (5 s); a process that stops renewing (killed,
stopped, cut off from the database) loses its tables to another process when they expire,
which raises the epoch by one and rebuilds each table from its record, as a restart does
(``Registry.load_table``: a round resumes with its full time, or is voided with every stake
returned, R11).

A lease alone is not enough: a process paused past its lease may wake up and commit a
command it began before. So **every table command's transaction checks, last before it
commits, that this process still owns the table at the epoch it took it with**, and bounds
its locks first: the unit of work's ``Fence`` (``service.unit_of_work``, which says how),
whose ``held`` epochs these leases keep. A table found lost there is dropped from this
process's memory and the command refused (``TableMoved``, 503: ``TableLeases.moved``).

Tables are spread over the live processes (``serve_processes``, a heartbeat row each): a
process takes free tables (no lease, or an expired one) while it holds fewer than its share
(the tables divided by the live processes, rounded up; ``FOR UPDATE SKIP LOCKED``, so two
processes never wait on each other for one), and gives surplus tables up only between rounds
(betting, no stake held), never mid-round. On SQLite one process runs every table (the
README's one-process server, ``service.claim``): ``Ownership`` has nothing to fence.

**A table's lease follows its requests.** The load balancer sends every request naming a
table to one process by the table's id (``deploy/cluster.sh``: HAProxy hashes it), which
need not be its owner: such a request is forwarded, one more hop (about 2.5 ms and half a
request's CPU again: docs/benchmarks.md). So each owner counts where its tables' requests
come from (``arrived``: directly, or forwarded by which peer), and between rounds hands a
table whose requests come through one live peer more than twice as often as directly to it
(``hand_over``: a new owner and epoch in one statement, as a take-over; the peer finds it at
its next pass, ``handed_to_me``, and rebuilds it from its record). The peer keeps it even
above its share: a process gives up, above its share, only tables whose requests do not
come to it directly (``Arrivals.settled_here``), so a table moves to where the balancer sends
its requests and stays there. The balancer needs no knowledge of the leases, and the leases
none of the balancer's hashing: with any balancer that keeps a table's requests on one
process, the forwarding stops within a few rounds; with one that spreads them over every
process (``leastconn``) no table follows anything, and the share alone spreads them.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import re
import socket
import threading
import time
import uuid
from collections.abc import Callable

from sqlalchemy import Engine, create_engine, inspect, text
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from croupier.service.errors import Unavailable
from croupier.service.unit_of_work import Fence, on_commit

log = logging.getLogger("croupier.leases")

LEASE_SECONDS = 5.0
"""How long a lease lasts unrenewed: a dead owner's tables move within this plus one pass."""
RENEW_SECONDS = 1.0
"""How often the owner renews its leases, and looks for tables to take or give up."""


class TableMoved(Unavailable):
    """This process no longer runs the table (another took its lease): the command changed
    nothing; the server's own trouble, so 503, and a retry reaches the new owner."""

    code = "table_moved"


def run_elsewhere(table_id: int) -> TableMoved:
    """The refusal of a command for a table another process runs now."""
    return TableMoved(
        f"table {table_id} is run by another server process now; try again", table=table_id
    )


class Ownership:
    """One process runs every table of its database (SQLite: ``service.claim``'s lock):
    nothing to fence (a ``Fence`` without an owner), nothing to share."""

    is_shared = False

    def __init__(self) -> None:
        self.fencing = Fence()
        """What each table command's transaction checks (``UnitOfWork.run``)."""

    def grant(self, session: Session, table_id: int) -> None:
        """The lease of a table this process is creating, in the creating transaction."""

    def renewed_within(self) -> str | None:
        """Why this process cannot be sure of its tables now (readiness), or ``None``."""
        return None

    def round_ended(self, table_id: int) -> None:
        """``table_id``'s round has just ended: the moment it may move (``TableLeases``)."""

    def lost_meanwhile(self, table_id: int) -> TableMoved | None:
        """After a failed command: the refusal to answer instead when the table's lease was
        lost (``TableLeases``); one process never loses one."""
        return None

    def release(self) -> None:
        """Give every table up (a clean stop)."""


GRANT = text(
    "INSERT INTO table_leases (table_id, owner, epoch, expires_at) "
    "VALUES (:table, :owner, 1, clock_timestamp() + make_interval(secs => :seconds))"
)
# The heartbeat, the renewal and the counts for the share, in one statement: one snapshot (a
# table created meanwhile, ``grant`` on another thread, is neither renewed nor counted: it
# cannot look like one above the share), and one implicit transaction that holds no row lock
# while this process could be stopped (``TableLeases.engine``).
RENEW = text(
    "WITH beat AS (INSERT INTO serve_processes (owner, address, expires_at) "
    "VALUES (:owner, :address, clock_timestamp() + make_interval(secs => :seconds)) "
    "ON CONFLICT (owner) DO UPDATE SET address = EXCLUDED.address, "
    "expires_at = EXCLUDED.expires_at RETURNING owner), "
    "renewed AS (UPDATE table_leases "
    "SET expires_at = clock_timestamp() + make_interval(secs => :seconds) "
    "WHERE owner = :owner AND table_id = ANY(CAST(:tables AS integer[])) "
    "RETURNING table_id, epoch) "
    "SELECT (SELECT count(*) FROM serve_processes "
    "WHERE expires_at > clock_timestamp() AND owner <> :owner) + (SELECT count(*) FROM beat), "
    "(SELECT count(*) FROM game_tables), "
    "(SELECT coalesce(array_agg(ARRAY[table_id, epoch]), '{}') FROM renewed)"
)
PROCESS_EXPIRIES = text(
    "SELECT owner, expires_at FROM serve_processes WHERE expires_at > clock_timestamp()"
)
HELD = text(
    "SELECT 1 FROM table_leases WHERE table_id = :table AND owner = :owner AND epoch = :epoch"
)
# The tables whose requests reach this process first (``Arrivals.asked_here``), then by id.
TAKE = text(
    # One statement, so one transaction: the tables never leased yet first, then those whose
    # lease expired, both ``wanted`` at most together. As two statements, each committing on
    # its own, a failure of the second (a lost connection) left the first's leases this
    # process's in the database and unknown to its memory: run by nobody for a lease.
    "WITH fresh AS ("
    "INSERT INTO table_leases (table_id, owner, epoch, expires_at) "
    "SELECT g.id, :owner, 1, clock_timestamp() + make_interval(secs => :seconds) "
    "FROM game_tables g WHERE NOT EXISTS (SELECT 1 FROM table_leases l WHERE l.table_id = g.id) "
    "ORDER BY g.id = ANY(CAST(:asked AS integer[])) DESC, g.id LIMIT :wanted "
    "ON CONFLICT (table_id) DO NOTHING RETURNING table_id, epoch"
    "), taken AS ("
    "UPDATE table_leases SET owner = :owner, epoch = epoch + 1, "
    "expires_at = clock_timestamp() + make_interval(secs => :seconds) "
    "WHERE table_id IN (SELECT table_id FROM table_leases WHERE expires_at < clock_timestamp() "
    "ORDER BY table_id = ANY(CAST(:asked AS integer[])) DESC, table_id "
    "LIMIT greatest(0, :wanted - (SELECT count(*) FROM fresh)) "
    "FOR UPDATE SKIP LOCKED) RETURNING table_id, epoch"
    ") SELECT table_id, epoch, false AS taken_over FROM fresh "
    "UNION ALL SELECT table_id, epoch, true FROM taken"
)
"""Up to ``wanted`` free tables (``TableLeases.take``): each ``(table_id, epoch, taken_over)``."""
GIVE_UP = text(
    "UPDATE table_leases SET expires_at = clock_timestamp() - interval '1 second' "
    "WHERE table_id = :table AND owner = :owner AND epoch = :epoch"
)
GIVE_ALL_UP = text(
    "UPDATE table_leases SET expires_at = clock_timestamp() - interval '1 second' "
    "WHERE owner = :owner"
)
LEAVE = text("DELETE FROM serve_processes WHERE owner = :owner")
HAND_OVER = text(
    "UPDATE table_leases SET owner = :to, epoch = epoch + 1, "
    "expires_at = clock_timestamp() + make_interval(secs => :seconds) "
    "WHERE table_id = :table AND owner = :owner AND epoch = :epoch AND EXISTS "
    "(SELECT 1 FROM serve_processes p WHERE p.owner = :to AND p.expires_at > clock_timestamp()) "
    "RETURNING epoch"
)
HANDED = text(
    "SELECT table_id, epoch FROM table_leases WHERE owner = :owner "
    "AND expires_at > clock_timestamp() AND NOT table_id = ANY(CAST(:tables AS integer[])) "
    # A table being created here is leased at epoch 1 before its creator holds it (``grant``):
    # not handed; a handed one's epoch has been raised.
    "AND epoch > 1"
)
BELOW_SHARE = text(
    "SELECT p.owner FROM serve_processes p LEFT JOIN table_leases l "
    "ON l.owner = p.owner AND l.expires_at > clock_timestamp() "
    "WHERE p.expires_at > clock_timestamp() AND p.owner <> :owner "
    "GROUP BY p.owner HAVING count(l.table_id) < :share ORDER BY count(l.table_id), p.owner LIMIT 1"
)

FADING = 0.5
"""How much of a table's request counts each pass keeps (the rest fades): a table moves on
its recent requests, and counts kept over passes let any pass that falls between rounds
act on them."""
MOVE_AFTER = 3.0
"""Requests (faded) come through one peer before their table moves to it; or directly,
before it stays here above this process's share."""


class Arrivals:
    """Where the requests for each table come from, as the load balancer sends them: to this
    process directly, or forwarded by a peer (``arrived``); and the tables whose requests this
    process forwards (``forwarded``). Counted on the event loop, read by the leases' thread:
    kept under a lock, faded each pass (``FADING``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.direct: dict[int, float] = {}
        self.via: dict[int, dict[str, float]] = {}
        """Table -> the peer that forwarded its requests -> how many (faded)."""
        self.sent_for: dict[int, float] = {}
        """Table -> requests for it this process forwarded (faded): the free tables it
        takes first."""
        self.forwarded_in_all = 0
        """Requests this process forwarded to a table's owner, since it started."""

    def arrived(self, table_id: int, via: str | None) -> None:
        with self._lock:
            if via is None:
                self.direct[table_id] = self.direct.get(table_id, 0.0) + 1
            else:
                peers = self.via.setdefault(table_id, {})
                peers[via] = peers.get(via, 0.0) + 1

    def forwarded(self, table_id: int) -> None:
        with self._lock:
            self.sent_for[table_id] = self.sent_for.get(table_id, 0.0) + 1
            self.forwarded_in_all += 1

    def asked_here(self) -> list[int]:
        """The tables run elsewhere whose requests reach this process, the most asked first."""
        with self._lock:
            return sorted(self.sent_for, key=lambda table_id: -self.sent_for[table_id])

    def wanted(self) -> dict[int, str]:
        """Each table whose requests come through one peer more than twice as often as
        directly (and ``MOVE_AFTER`` of them at least): that peer. Twice, so that a balancer
        that spreads a table's requests over every process (``leastconn``) moves nothing."""
        with self._lock:
            return {
                table_id: peer
                for table_id, peers in self.via.items()
                for peer, count in [max(peers.items(), key=lambda item: item[1])]
                if count >= MOVE_AFTER and count > 2 * self.direct.get(table_id, 0.0)
            }

    def settled_here(self) -> set[int]:
        """The tables whose requests come here directly more than twice as often as through
        every peer together (``MOVE_AFTER`` at least): where the balancer sends them. Kept
        here above this process's share; a balancer that spreads them over every process
        settles none."""
        with self._lock:
            return {
                table_id
                for table_id, count in self.direct.items()
                if count >= MOVE_AFTER and count > 2 * sum(self.via.get(table_id, {}).values())
            }

    def fade(self) -> None:
        with self._lock:
            self.direct = {t: n * FADING for t, n in self.direct.items() if n * FADING >= 0.5}
            self.sent_for = {t: n * FADING for t, n in self.sent_for.items() if n * FADING >= 0.5}
            self.via = {
                t: kept
                for t, peers in self.via.items()
                if (kept := {p: n * FADING for p, n in peers.items() if n * FADING >= 0.5})
            }

    def forget(self, table_id: int) -> None:
        with self._lock:
            self.direct.pop(table_id, None)
            self.via.pop(table_id, None)


def process_name() -> str:
    """This process, as its leases name it: host, pid and a random part (a pid is reused)."""
    return f"{socket.gethostname()} pid {os.getpid()} {uuid.uuid4().hex[:8]}"


PROCESS_NAME = re.compile(r"[^\s]{1,255} pid [0-9]{1,10} [0-9a-f]{8}")
"""What ``process_name`` makes (a host name has no space and at most 255 characters)."""


def is_process_name(text: str) -> bool:
    """Whether ``text`` could name a process: a request's ``X-Croupier-Forwarded`` counted
    as a peer's (``Arrivals``) must, so that a client reaching a process directly with a long
    or new name in each request cannot grow the counts beyond a name's length."""
    return PROCESS_NAME.fullmatch(text) is not None


class TableLeases(Ownership):
    """The leases of one server process on a PostgreSQL database shared with others."""

    is_shared = True

    def __init__(
        self,
        url: str,
        *,
        address: str | None = None,
        lease_seconds: float = LEASE_SECONDS,
        renew_seconds: float = RENEW_SECONDS,
    ) -> None:
        self.owner = process_name()
        self.address = address
        self.lease_seconds = lease_seconds
        self.renew_seconds = renew_seconds
        # Its own small pool: renewal must not queue behind the commands' connections. Every
        # statement its own transaction (autocommit): a process stopped (SIGSTOP, a frozen VM)
        # between two statements of one transaction would hold its leases' rows locked, with
        # no bound, and ``TAKE`` skips locked rows: its tables would wait for it to
        # wake instead of moving when their leases run out. Each pass's statements are each
        # whole on their own (``RENEW`` counts and renews at once).
        self.engine: Engine = create_engine(
            url,
            isolation_level="AUTOCOMMIT",
            pool_size=2,
            max_overflow=2,
            pool_pre_ping=True,
            connect_args={
                "connect_timeout": max(1, math.ceil(lease_seconds / 2)),
                "application_name": f"croupier leases {self.owner}"[:63],
            },
        )
        self.fencing = Fence(self.owner, self.moved)
        self.held = self.fencing.held
        """Table id -> the epoch this process took it at (what the fence checks)."""
        self.renewed_at = -math.inf
        self.taken_over = 0
        """Tables taken from another process whose lease had expired (a fail-over)."""
        self.forget: Callable[[int], None] = lambda _table: None
        """Drops a table from memory once it is lost (set by ``sharing.install``)."""
        self.arrivals = Arrivals()
        """Where this process's tables' requests come from (the forwarding counts them)."""
        self.handed_over = 0
        """Tables handed to another process: the one their requests came through, or one
        below its share (``sharing.balance``)."""
        self.adopting = threading.Lock()
        """Held while the tables handed here are found and rebuilt (``sharing.adopt_handed``)."""
        self.nudged = threading.Event()
        """Set when a table whose requests come through a peer is between rounds: the
        leases' thread hands it over then (``sharing.keep_forever``), not at its next pass,
        when the next round's first bet may already hold it here."""
        self._lock = threading.Lock()

    # --- a table created, or found lost at the fence ---------------------------------------
    def grant(self, session: Session, table_id: int) -> None:
        session.execute(
            GRANT, {"table": table_id, "owner": self.owner, "seconds": self.lease_seconds}
        )

        def granted() -> None:
            with self._lock:
                self.held[table_id] = 1

        on_commit(session, granted)

    def moved(self, table_id: int) -> TableMoved:
        """A table the fence found lost: forgotten here, and the command's refusal."""
        self.lost(table_id)
        return run_elsewhere(table_id)

    def lost_meanwhile(self, table_id: int) -> TableMoved | None:
        """After a command on ``table_id`` failed: if another process holds its lease now,
        the refusal to answer instead (the table forgotten here). A process woken past its
        lease runs a command on memory the new owner has moved past, and that memory can fail
        it before the fence, last before the commit, would refuse it: a stake the escrow no
        longer holds (402), a round never stored (a foreign key, 500), bets closed in a round
        long settled. Such an error is the stale memory's, not the player's; the new owner
        answers the command (the forwarding retries it there). ``None`` while the lease is
        still this process's (the error stands), or when that cannot be read (the database
        away: the error stands too)."""
        epoch = self.held.get(table_id)
        try:
            with self.engine.connect() as connection:
                found = connection.execute(
                    HELD, {"table": table_id, "owner": self.owner, "epoch": epoch}
                ).first()
        except Exception:  # the command's own error is what the caller hears
            return None
        if found is not None:
            return None
        return self.moved(table_id)

    def lost(self, table_id: int) -> None:
        with self._lock:
            if self.held.pop(table_id, None) is not None:
                log.warning("table %s: lease lost to another process", table_id)
        self.forget(table_id)

    # --- every pass ------------------------------------------------------------------------
    def renew(self) -> tuple[int, int, list[int]]:
        """Heartbeat and renew every lease held; drop those lost. Returns (live processes,
        tables, the tables renewed) for the share: counted in one snapshot, since a table
        created meanwhile (``grant``, on another thread) is held already but not counted, and
        would look like one above the share."""
        with self._lock:
            held = dict(self.held)
        started = time.monotonic()
        params = {"owner": self.owner, "seconds": self.lease_seconds, "address": self.address}
        with self.engine.connect() as connection:
            processes, tables, pairs = connection.execute(
                RENEW, {**params, "tables": list(held)}
            ).one()
        kept: dict[int, int] = {int(table_id): int(epoch) for table_id, epoch in pairs}
        self.renewed_at = started
        for table_id, epoch in held.items():
            if kept.get(table_id) != epoch:
                self.lost(table_id)
        return max(1, int(processes)), int(tables), sorted(kept)

    def take(self, wanted: int) -> list[int]:
        """Up to ``wanted`` free tables: never leased yet, or whose lease expired; those whose
        requests reach this process first."""
        params = {
            "owner": self.owner,
            "seconds": self.lease_seconds,
            "wanted": wanted,
            "asked": self.arrivals.asked_here(),
        }
        with self.engine.connect() as connection:
            found = [(int(r[0]), int(r[1]), bool(r[2])) for r in connection.execute(TAKE, params)]
        with self._lock:
            for table_id, epoch, _ in found:
                self.held[table_id] = epoch
        for table_id, epoch, taken_over in found:
            if taken_over:
                self.taken_over += 1
                log.warning("table %s: taken over (epoch %s)", table_id, epoch)
        return [table_id for table_id, _, _ in found]

    def give_up(self, table_id: int) -> None:
        """Let another process take ``table_id`` (called between rounds, under its lock)."""
        epoch = self.held.get(table_id)
        if epoch is None:
            return
        with self.engine.connect() as connection:
            connection.execute(GIVE_UP, {"table": table_id, "owner": self.owner, "epoch": epoch})
        with self._lock:
            self.held.pop(table_id, None)
        self.forget(table_id)

    def round_ended(self, table_id: int) -> None:
        if table_id in self.arrivals.wanted():
            self.nudged.set()

    def handed_to_me(self) -> list[int]:
        """Tables a peer handed to this process (``hand_over``) since the last pass: held
        from now on (the fence's epoch), each still to be rebuilt from its record."""
        with self._lock:
            held = list(self.held)
        with self.engine.connect() as connection:
            found = connection.execute(HANDED, {"owner": self.owner, "tables": held}).all()
        with self._lock:
            for table_id, epoch in found:
                self.held[int(table_id)] = int(epoch)
        return sorted(int(table_id) for table_id, _ in found)

    def peer_below(self, share: int) -> str | None:
        """The live peer that runs the fewest tables, if fewer than ``share``."""
        with self.engine.connect() as connection:
            found = connection.execute(BELOW_SHARE, {"owner": self.owner, "share": share})
            return found.scalar()

    def hand_over(self, table_id: int, peer: str) -> bool:
        """Give ``table_id`` to the live process ``peer``, a new epoch (called between
        rounds, under the table's lock); false if the peer is gone or the table was lost."""
        epoch = self.held.get(table_id)
        if epoch is None:
            return False
        params = {"table": table_id, "owner": self.owner, "epoch": epoch, "to": peer}
        with self.engine.connect() as connection:
            moved = connection.execute(HAND_OVER, {**params, "seconds": self.lease_seconds})
            if moved.first() is None:
                return False
        with self._lock:
            self.held.pop(table_id, None)
        self.arrivals.forget(table_id)
        self.handed_over += 1
        self.forget(table_id)
        return True

    def renewed_within(self) -> str | None:
        if time.monotonic() - self.renewed_at <= self.lease_seconds:
            return None
        return f"the table leases have not been renewed for over {self.lease_seconds:g} s"

    def release(self) -> None:
        with contextlib.suppress(Exception), self.engine.connect() as connection:
            connection.execute(GIVE_ALL_UP, {"owner": self.owner})
            connection.execute(LEAVE, {"owner": self.owner})
        with self._lock:
            self.held.clear()
        self.engine.dispose()


def serving_peers(url: str, *, watch_seconds: float = 2 * RENEW_SECONDS + 0.5) -> list[str]:
    """The processes serving the PostgreSQL database at ``url`` at this moment: each a row of
    ``serve_processes`` that its process renews while this one watches (its expiry moves on
    within ``watch_seconds``; a process renews every ``RENEW_SECONDS``). A row alone is not
    taken for a process: one left behind, or written by hand, does not move on. Empty on
    SQLite, on a database no process has served, or when none renews.

    Why it is asked (``server.app``): a start verifies the whole audit chain (issue 25) to
    refuse a database edited while no server ran on it; a process that joins live peers
    joins a database that has been in service all along (verified by the start of the first
    of them), and is spared that check, which at 750,000 entries takes a minute."""
    if not url.startswith("postgresql"):
        return []
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            if not inspect(connection).has_table("serve_processes"):
                return []
            first = {owner: at for owner, at in connection.execute(PROCESS_EXPIRIES)}
            deadline = time.monotonic() + watch_seconds
            while first and time.monotonic() < deadline:
                time.sleep(RENEW_SECONDS / 4)
                now = connection.execute(PROCESS_EXPIRIES).all()
                renewing = sorted(str(owner) for owner, at in now if at > first.get(owner, at))
                if renewing:
                    return renewing
                connection.rollback()  # each read a fresh snapshot
    finally:
        engine.dispose()
    return []
