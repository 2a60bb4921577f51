"""Where a table's requests come from, as its owner counts them (``service.leases.Arrivals``):
what decides that a table follows its requests to another process (issue 29, item 2)."""

from __future__ import annotations

from croupier.service.leases import FADING, MOVE_AFTER, Arrivals, is_process_name, process_name


def counted(direct: int = 0, **via: int) -> Arrivals:
    arrivals = Arrivals()
    for _ in range(direct):
        arrivals.arrived(7, None)
    for peer, count in via.items():
        for _ in range(count):
            arrivals.arrived(7, peer)
    return arrivals


def test_a_table_is_wanted_by_the_peer_most_of_its_requests_come_through() -> None:
    assert counted(b=3, c=5).wanted() == {7: "c"}


def test_a_few_requests_move_nothing() -> None:
    assert MOVE_AFTER == 3
    assert counted(b=2).wanted() == {}
    assert counted(b=3).wanted() == {7: "b"}


def test_requests_spread_evenly_over_the_processes_move_nothing() -> None:
    """A ``leastconn`` balancer: as many directly as through each peer (or half as many)."""
    assert counted(direct=4, b=4, c=4).wanted() == {}
    assert counted(direct=4, b=8).wanted() == {}
    assert counted(direct=4, b=9).wanted() == {7: "b"}


def test_counts_fade_each_pass_and_go() -> None:
    assert FADING == 0.5
    arrivals = counted(direct=1, b=6)
    arrivals.forwarded(9)
    assert arrivals.wanted() == {7: "b"} and arrivals.asked_here() == [9]
    arrivals.fade()  # b: 3, direct: 0.5, sent for 9: 0.5
    assert arrivals.wanted() == {7: "b"} and arrivals.direct == {7: 0.5}
    assert arrivals.asked_here() == [9]
    arrivals.fade()  # b: 1.5; direct and sent under a half: gone
    assert arrivals.wanted() == {} and arrivals.direct == {} and arrivals.asked_here() == []
    arrivals.fade()
    arrivals.fade()
    assert arrivals.via == {}


def test_a_table_handed_over_or_lost_is_forgotten() -> None:
    arrivals = counted(direct=1, b=6)
    arrivals.forget(7)
    assert arrivals.wanted() == {} and arrivals.direct == {}
    arrivals.forwarded(9)
    assert arrivals.forwarded_in_all == 1


def test_the_tables_asked_here_most_come_first() -> None:
    """What this process takes first among free tables (``TableLeases.take``)."""
    arrivals = Arrivals()
    for table_id, count in ((3, 1), (5, 4), (4, 2)):
        for _ in range(count):
            arrivals.forwarded(table_id)
    assert arrivals.asked_here() == [5, 4, 3]


def test_a_table_whose_requests_come_here_is_settled_here() -> None:
    """What a process above its share keeps (``sharing.balance``): a table whose requests
    the balancer sends to it, not one whose requests it shares with its peers."""
    assert counted(direct=3).settled_here() == {7}
    assert counted(direct=2).settled_here() == set()  # too few to say
    assert counted(direct=9, b=4).settled_here() == {7}
    assert counted(direct=8, b=2, c=2).settled_here() == set()  # leastconn: spread over all


def test_only_a_name_shaped_as_a_process_name_counts_as_a_peer() -> None:
    """What a forwarding peer sends (``process_name``) passes; what only a client would send
    (too long, spaces in the host, no pid, a random part not hex) does not."""
    assert is_process_name(process_name())
    assert is_process_name("croupier-2.example.org pid 4242 0a1b2c3d")
    for name in ["", "1", "x" * 300 + " pid 1 0a1b2c3d", "a b pid 1 0a1b2c3d",
                 "host pid 12 0A1B2C3D", "host pid 12 0a1b2c3d extra", "host 12 0a1b2c3d"]:  # fmt: skip
        assert not is_process_name(name), name
