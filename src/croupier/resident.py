"""What a process loads once and keeps until it ends: a command's modules, numba's
dispatchers, the rules' models, an engine's compiled code loaded on a live table's first use
(``service.engines.warm_up``). ``with loading(): import ...`` makes them with the cyclic
garbage collector paused and then moves them out of its sight (``gc.freeze``).

Why: the imports of a warm ``croupier analyze`` (typer, pydantic, numpy, numba and its
typing tables) allocate hundreds of thousands of objects, which trigger full collections
while they are made, each scanning every object made so far, and one more collection at
the interpreter's exit scans them all again. None of it is garbage: these objects live until
the process ends. Measured interleaved against the code before (best of 7, load 7), that was
0.22 of the 1.61 CPU-seconds of a warm ``analyze peru-2016 --json``. Frozen objects are still freed by
reference counting when they go; only the collector no longer scans them, as
``serve_command`` does for the server's start-up for the same reason.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def loading() -> Iterator[None]:
    """Collection paused inside, what was made inside frozen after (the collector's state
    restored: a caller that had disabled it keeps it disabled)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
