"""The Ray cluster of `gamedef simulate --ray` and `gamedef balance --ray`: started (a local
instance) or reached (an address) by the command, handed to `interpreter.play.simulate`
as the `Workers` that play its chunks of seeds, and shut down when the command ends.

Ray is an optional extra (`gamedef[ray]`, a large install most designers never need), so
it is imported only here, and only for --ray; play/ never imports it: Ray's workers run
`simulate.remote_chunk`, found by its module as any pickled function is.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from interpreter.core.errors import UsageError
from interpreter.play.simulate import Setup, remote_chunk

LOCAL_RAY = "local"  # `--ray` without an address: Ray's own name for "start a new local instance"


def import_ray() -> Any:
    """The `ray` module, or the UsageError that says how to install it: Ray is an optional
    extra (a large install most designers never need), so it is imported only for --ray."""
    try:
        import ray
    except ImportError:
        raise UsageError(
            "--ray needs Ray, which is not installed", 'pip install ".[ray]" (or pip install "ray>=2.9")'
        ) from None
    return ray


def _unreachable(address: str) -> str | None:
    """Why a `HOST:PORT` address cannot be reached, or None (and None for the forms Ray
    resolves itself, `auto` and `ray://...`): Ray's own connection retries for minutes,
    where a refused connection is known at once."""
    import socket

    host, sep, port = address.rpartition(":")
    if "://" in address or not sep or not host or not port.isdigit():
        return None
    try:
        with socket.create_connection((host, int(port)), timeout=5):
            return None
    except OSError as err:
        return err.strerror or str(err) or type(err).__name__


def start_ray(address: str, jobs: int) -> int:
    """Start a local Ray instance of `jobs` CPUs, or connect to the cluster at `address`;
    returns the CPUs the games may use (to size the chunks).

    The local instance is started quiet and lean (no dashboard, the workers' output not
    copied here, Ray's own messages only when they are errors): it is a pool of workers for
    one command, torn down at its end."""
    import logging

    ray = import_ray()
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    hint = "start one with `ray start --head` and give its address, or give --ray alone for a local instance"
    if address == LOCAL_RAY:
        ray.init(address=LOCAL_RAY, num_cpus=jobs, **quiet)
        return jobs
    why = _unreachable(address)
    if why is not None:
        raise UsageError(f"--ray {address}: cannot reach a Ray cluster there ({why})", hint)
    try:
        ray.init(address=address, **quiet)
    except (ConnectionError, ValueError, RuntimeError) as err:
        why = (str(err).splitlines() or [type(err).__name__])[0].strip("'\"")
        raise UsageError(f"--ray {address}: cannot reach a Ray cluster there ({why})", hint) from None
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


class RayWorkers:
    """The `Workers` of a Ray session the command has open: each chunk a Ray task of
    `remote_chunk`, the setup sent to the object store once, not with every chunk."""

    def __init__(self, ray: Any):
        self.ray = ray

    def cpus(self) -> int:
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def play(self, setup: Setup, chunks: Sequence[Sequence[int]]) -> Generator[tuple[int, Any], None, None]:
        ray = self.ray
        task = ray.remote(remote_chunk)
        setup_ref = ray.put(setup)
        pending = {task.remote(setup_ref, chunk): chunk[0] for chunk in chunks}
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    first = pending.pop(ref)
                    yield first, ray.get(ref)
        finally:  # closed early (a failed game, Ctrl-C): the chunks not yet played are dropped
            for ref in pending:
                ray.cancel(ref)


@contextmanager
def ray_workers(address: str, jobs: int) -> Iterator[RayWorkers]:
    """One Ray session for the whole command (a local instance of `jobs` CPUs started
    once, or the cluster at `address` reached once, for every count of a report and its
    base), shut down at the end; a session already open is used as it is and left open."""
    ray = import_ray()
    if ray.is_initialized():  # a session the caller opened (a test, a notebook): used, left open
        yield RayWorkers(ray)
        return
    start_ray(address, jobs)
    try:
        yield RayWorkers(ray)
    finally:
        ray.shutdown()
