"""``croupier.resident.loading``: what a process loads for the whole of its life is made with
the collector paused and frozen after, and the collector's state is given back as it was."""

from __future__ import annotations

import gc

from croupier import resident


class _Node:
    """An object the collector tracks (a cycle, as imported modules and classes make)."""

    def __init__(self) -> None:
        self.me = self


def test_loading_pauses_collection_and_freezes_what_it_made() -> None:
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    made: list[_Node] = []
    with resident.loading():
        assert not gc.isenabled()
        made.extend(_Node() for _ in range(1000))
    assert gc.isenabled()
    # Each node and its attribute dict, at least, left the collector's generations.
    assert gc.get_freeze_count() >= frozen + 1000
    gc.unfreeze()  # the test's own objects go back to the collector


def test_loading_leaves_a_disabled_collector_disabled() -> None:
    gc.disable()
    try:
        with resident.loading():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


def test_loading_restores_the_collector_when_the_import_fails() -> None:
    try:
        with resident.loading():
            raise ImportError("no such module")
    except ImportError:
        pass
    assert gc.isenabled()
    gc.unfreeze()
