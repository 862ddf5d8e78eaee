"""How long the language server takes from an edit to its diagnostics, on a file that
includes The Wall is Down (examples/twid_house_rules.game: the whole game and two variants).

    python -m benchmarks.lsp_latency [--edits 20]

It starts `gamedef lsp` as an editor does and speaks the protocol to it over stdin and
stdout: the file is opened, then edited (as typed, not saved) `--edits` times, a misspelt
name put in and taken out in turn. For each edit it times the first diagnostics published
for that version (the game's own check: its errors, or that it is clean) and the last (with
every variant checked, what `gamedef check` reports). Measured, never asserted by a test.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from interpreter.core.paths import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent
GAME = EXAMPLES / "twid_house_rules.game"


class Client:
    """A minimal LSP client over a subprocess's stdin and stdout."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "interpreter", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
        )
        self.messages: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                ch = out.read(1)
                if not ch:
                    return
                head += ch
            size = next(int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length"))
            self.messages.put((time.perf_counter(), json.loads(out.read(size))))

    def send(self, method: str, params: dict, request: bool = False) -> None:
        message: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def published(self, version: int, timeout: float = 120, quiet: float = 3.0) -> list[tuple[float, int]]:
        """Every publication for `version` (time, number of diagnostics), until none more
        comes for `quiet` seconds after the last."""
        out: list[tuple[float, int]] = []
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            try:
                at, message = self.messages.get(timeout=quiet if out else timeout)
            except queue.Empty:
                break
            if message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                if params.get("version") == version:
                    out.append((at, len(params["diagnostics"])))
        return out


def in_process(text: str, rounds: int = 5) -> tuple[float, float]:
    """The analysis alone, in this process (no protocol, no thread): the best of `rounds`
    times to the game's own check (what is published first) and to the whole analysis.
    Each round's text is one no round before had (the house card's `ops` changed), as an
    edit is: the analysis keeps the checks of programs it saw lately, so the same text
    again would measure only what it kept."""
    from interpreter.lsp.analysis import analyse

    firsts, wholes = [], []
    for i in range(rounds):
        marks: list[float] = []
        edited = text.replace("        ops 3\n", f"        ops {10 + i}\n", 1)
        assert edited != text
        start = time.perf_counter()
        analyse(str(GAME), edited, lambda _, marks=marks: marks.append(time.perf_counter()))
        wholes.append(time.perf_counter() - start)
        firsts.append((marks[0] if marks else time.perf_counter()) - start)
    return 1000 * min(firsts), 1000 * min(wholes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=20)
    args = parser.parse_args()
    text = GAME.read_text()
    typo = text.replace("gain_vp(w, 1)", "gain_vq(w, 1)", 1)
    assert typo != text
    uri = GAME.as_uri()
    client = Client()
    client.send("initialize", {"capabilities": {}, "processId": None, "rootUri": None}, request=True)
    client.send("initialized", {})
    start = time.perf_counter()
    client.send(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "gamedef", "version": 1, "text": text}},
    )
    opened = client.published(1)
    print(f"open: first diagnostics after {1000 * (opened[0][0] - start):.0f} ms (cold: the game is parsed and read)")
    first, last = [], []
    for version in range(2, args.edits + 2):
        body = typo if version % 2 == 0 else text
        sent = time.perf_counter()
        client.send(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": body}]},
        )
        got = client.published(version)
        if not got:
            print(f"edit {version}: nothing published")
            continue
        first.append(1000 * (got[0][0] - sent))
        last.append(1000 * (got[-1][0] - sent))
        shown = f"{len(got)} publications, {got[-1][1]} diagnostics"
        print(f"edit {version}: {shown}, first {first[-1]:.0f} ms, last {last[-1]:.0f} ms")
    client.send("shutdown", {}, request=True)
    client.send("exit", {})
    client.proc.wait(timeout=30)
    for body, what in ((text, "as written"), (typo, "with the misspelt name")):
        own, whole = in_process(body)
        print(f"in process, {what}: the game's own check {own:.0f} ms, the whole analysis {whole:.0f} ms (best of 5)")
    for name, times in (("first publication", first), ("last publication", last)):
        if times:
            print(f"{name}: median {statistics.median(times):.0f} ms, max {max(times):.0f} ms over {len(times)} edits")


if __name__ == "__main__":
    main()
