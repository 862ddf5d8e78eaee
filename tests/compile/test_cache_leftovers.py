"""The cache directory cleans up after a writer that died (interpreter/core/cache.py): a
half-written `.tmp` file left by a detached copy stopped by its alarm, or by a killed
process, is removed by the next write once it is old; a fresh one, which a writer may
still be filling, is left; and a write that fails leaves no `.tmp` behind."""

from __future__ import annotations

import os
import time

from interpreter.core import cache


def test_an_old_half_written_file_is_removed_by_the_next_write_and_a_fresh_one_is_kept(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    old = folder / "abc123.tmp"
    old.write_bytes(b"half")
    an_hour_ago = time.time() - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    fresh = folder / "def456.tmp"
    fresh.write_bytes(b"being written")
    cache.write_bytes(folder / "entry.tree", b"whole")
    assert (folder / "entry.tree").read_bytes() == b"whole"
    assert not old.exists()
    assert fresh.exists()


def test_a_write_that_fails_leaves_no_half_written_file(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache.os, "replace", refuse)
    cache.write_bytes(folder / "entry.tree", b"data")  # no cache is no error
    assert list(folder.iterdir()) == []


def test_a_writer_still_within_its_time_keeps_its_file(tmp_path):
    age = cache.STALE_TMP_SECONDS - 60
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    pending = folder / "slow.tmp"
    pending.write_bytes(b"")
    then = time.time() - age
    os.utime(pending, (then, then))
    cache.write_bytes(folder / "entry.codes", b"x")
    assert pending.exists()
