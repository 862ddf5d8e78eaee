"""Local names of one code body, each given a slot in the frame (`L[i]` at run time).

Every compiler that binds a local (a parameter, a `let`, a loop variable, a value it
keeps) asks the body's `Scope` for its slot; an inlined body gets a child scope.
"""

from __future__ import annotations


class Scope:
    """Local names of one code body, each given a slot in the frame.

    An inlined function body gets a child scope: it sees only its parameters (bound
    to the caller's argument sources in `env`), while the slots it needs are
    allocated in the caller's frame.
    """

    def __init__(self, names=(), root: Scope | None = None, env: dict | None = None, static_names: set | None = None):
        self.slots: dict[str, int] = {}
        self.root = root
        self.env: dict[str, str] = env or {}
        self.static_env = static_names or set()
        self._count = 0
        self.owner = ""  # the procedure whose locals these are, when it is inlined in another
        self.named: dict[int, tuple[str, str]] = {}  # (the root's) each slot's (name, procedure)
        for n in names:
            self.bind(n)

    @property
    def count(self) -> int:
        return self.root.count if self.root is not None else self._count

    def bind(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = slot = self.fresh()
            root = self.root if self.root is not None else self
            root.named[slot] = (name, self.owner)
        return self.slots[name]

    def fresh(self) -> int:
        if self.root is not None:
            return self.root.fresh()
        self._count += 1
        return self._count - 1
