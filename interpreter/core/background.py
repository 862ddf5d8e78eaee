"""Work a command need not wait for, done after it by a detached copy of its process.

Keeping a compiled game for the next run (compile/gamecache.py) first compiles every
function the game has not called yet, so that reading the entry back is one quick read:
for The Wall is Down about 2 s of CPU, more than the compile itself. A person who types
`gamedef run twid` need wait for none of it. So in a process that runs one command and
ends (the command line's, interpreter/cli, `allow`), such work is kept (`later`) and, as
the process ends, handed to one copy of it, detached as git's automatic maintenance is:
the command's prompt comes back at once and the copy writes the entries beside it. Until
it has, a new run finds no entry and compiles again (as every run did before the first was
kept); an entry is written whole or not at all (core/cache.py), so a reader never sees
half of one.

Only where it is safe: the system can fork, and no other thread runs (a lock another
thread held would stay held in the copy); otherwise, and if the fork fails, the work is
done in place as the process ends, as before. A server's process (the web table, the
language server) does not allow it (`forbid`): it keeps running, and its next load would
otherwise find nothing kept. The copy runs in a session of its own (a Ctrl-C at the
terminal is not for it), with its standard streams on the null device (a caller reading
the command's output is not kept waiting), at a lower priority, and is stopped by an
alarm after `BUDGET` seconds. It never runs the process's other exit handlers.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable

BUDGET = 120  # seconds the detached copy may take before its alarm ends it
_allowed = [False]
_kept: list[Callable[[], object]] = []  # work kept for the end of the process, in order


def allow() -> None:
    """This process runs one command and ends: work it need not wait for may be left to
    a detached copy of it (`later`)."""
    _allowed[0] = True


def forbid() -> None:
    """This process keeps running (a server): work is done when asked (`later` says no)."""
    _allowed[0] = False


def later(work: Callable[[], object]) -> bool:
    """Keep `work` for the end of the process, to be done there by a detached copy of it
    (or in place if a copy can't be made then), and return True; False, doing nothing, if
    this process does not allow it (the caller then does the work now)."""
    if not (_allowed[0] and hasattr(os, "fork")):
        return False
    if not _kept:
        atexit.register(_at_exit)
    _kept.append(work)
    return True


def _at_exit() -> None:
    """The work kept, by a detached copy, or here if none can be made."""
    work, _kept[:] = list(_kept), []
    if not work:
        return
    if threading.active_count() > 1 or not _detached(work):
        _run(work)


def _run(work: list[Callable[[], object]]) -> None:
    for item in work:
        with contextlib.suppress(Exception):  # (kept work is a cache's: its failure is only a miss)
            item()


def _detached(work: list[Callable[[], object]]) -> bool:
    """Run `work` in a detached copy of this process; False if the fork fails."""
    for stream in (sys.stdout, sys.stderr):  # (what is buffered is written once, by this process)
        with contextlib.suppress(Exception):
            stream.flush()
    try:
        child = os.fork()
    except OSError:
        return False
    if child:
        # The first copy forks the one that works and ends at once: the worker belongs to no
        # process that would have to wait for it.
        with contextlib.suppress(ChildProcessError, InterruptedError):
            os.waitpid(child, 0)
        return True
    try:
        os.setsid()
        if os.fork():
            os._exit(0)
        _quiet()
        _run(work)
    finally:
        os._exit(0)


def _quiet() -> None:
    """The worker's streams on the null device, its signals as a new process's, a lower
    priority, and its alarm."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    with contextlib.suppress(OSError):
        os.nice(10)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(BUDGET)
