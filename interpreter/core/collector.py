"""Python's cycle collector around a load: held off while it runs, and what it made moved
out of the young generations as it ends.

A load (parse, check, compile) makes hundreds of thousands of objects and keeps most of
them: with the collector on, each collection would walk them all for nothing (none of the
trees is in a cycle), and held off (`limits.no_collection`), the first young collection
after the load would still walk every one of them (0.15 s for The Wall is Down). So as
the outermost load ends, what it made is moved to the collector's oldest generation in
two list splices (`gc.freeze`, then `gc.unfreeze`) and kept in the order it was made,
near each other in memory: a later full collection walks them in that order, and freeing
the game takes 0.2 s instead of 0.5 s (benchmarks/README.md).

A collection of the oldest generation comes when enough objects have survived the young
ones; objects moved so are not counted, so a process that loads and drops games over and
over would grow. So at most `MAX_MOVED` objects are moved between two full collections;
past that a load's objects age as any others.

A process that sets objects aside itself (`gc.freeze`: the command line's, interpreter/cli)
keeps them aside: `gc.unfreeze` would give them back. There a load's objects are set aside
with them (`gc.freeze` alone), as what the command made before it was. Objects set aside
are never walked again, so a cycle among them that is dropped is never freed: at most
`MAX_MOVED` are set aside over the process's life (a language server loading at every
edit sets aside its first loads' only).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

from interpreter.core.limits import no_collection

MAX_MOVED = 500_000  # about one compile of the largest bundled game with its program
# Objects moved since the collector's last full collection, and that collection's number;
# objects set aside for good in a process that sets its own aside, over its life.
_moved = [0, -1]
_set_aside = [0]


@contextlib.contextmanager
def loading() -> Iterator[None]:
    """The collector held off while a load runs (`no_collection`); as the outermost load
    ends, what it made moved out of the young generations (`kept_old`)."""
    outermost = gc.isenabled()
    with no_collection():
        yield
        if outermost:
            kept_old()


def kept_old() -> None:
    """Every object the collector tracks in its young generations moved to its oldest
    one, or set aside with what the process set aside; within the bounds above."""
    made = gc.get_count()[0] + len(gc.get_objects(1))
    if gc.get_freeze_count():
        if _set_aside[0] + made <= MAX_MOVED:
            _set_aside[0] += made
            gc.freeze()
        return
    full = gc.get_stats()[-1]["collections"]
    if full != _moved[1]:
        _moved[:] = [0, full]
    if _moved[0] + made > MAX_MOVED:
        return
    _moved[0] += made
    gc.freeze()
    gc.unfreeze()
