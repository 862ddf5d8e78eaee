"""A `choose` whose options may be empty in some positions only: `check`'s warning.

An empty choice stops the game with an error (docs/language.md §5.5) unless it is
`optional`. `check`'s play meets it only in the positions its random games reach, and a
list filtered by what the game holds (`[c for c in hand[us] if c.ops >= 4]`) may be empty
in a position no random game came to. So a card's or trigger's `choose` is warned of when

* it is not `optional`;
* its options are a comprehension with an `if` (written in place, or a `let` local holding
  one) that names a variable of the game itself (a list filtered from constants alone is
  the same in every position, and play finds it empty if it ever is; one that reads the
  state only through a def or a query, `[z for z in members(Country) if not is_eu(z)]`,
  is most often far from empty, and is left alone);
* and nothing before it makes sure an option is left: no enclosing `if`, `elif` or
  `while`, no earlier `if` or `require` in the blocks around it, and no `where` of its
  trigger, whose condition reads any name the list reads, the locals it reads followed to
  what their `let` read (`let h = first(holes())` then a list of `h`'s neighbours, under
  `while count(holes()) > 0`), or the local holding the list.

A procedure's `choose` is left alone: its callers may have checked first (the bundled games
offer an action only when it can be done). The rule errs toward silence: a shared name is
taken as a guard without proving that it guards.
"""

from __future__ import annotations

from interpreter.core.errors import Diagnostic
from interpreter.language import syntax as ast
from interpreter.language.program import Program


def _filtered(e) -> bool:
    return isinstance(e, ast.Comprehension) and any(c.condition is not None for c in e.clauses)


def _read(e) -> set[str]:
    """The names an expression reads and the functions it calls."""
    return ast.names_in(e) | {c.func for c in ast.find_all(e, ast.Call)}


class _Choices:
    def __init__(self, program: Program):
        decls = program.decls
        self.vars = {d.name for d in decls if isinstance(d, ast.Var)}
        self.state = self.vars
        self.found: list[Diagnostic] = []
        self.read_by: dict[str, set[str]] = {}  # each local bound by `let`: what its value read, followed

    def _followed(self, names: set[str]) -> set[str]:
        """`names` and what the `let` of each local among them read."""
        out = set(names)
        for n in names:
            out |= self.read_by.get(n, set())
        return out

    def body(self, stmts, guards: tuple, lets: dict) -> None:
        lets = dict(lets)
        guards = tuple(guards)
        for s in stmts:
            if isinstance(s, ast.Let | ast.Assign) and not getattr(s, "keys", ()):
                self.read_by[s.name] = self._followed(_read(s.value))
                if isinstance(s, ast.Let) and _filtered(s.value):
                    lets[s.name] = s.value
                else:
                    lets.pop(s.name, None)
            elif isinstance(s, ast.Choose):
                self.choose(s, guards, lets)
            elif isinstance(s, ast.If):
                seen: tuple = ()
                for cond, inner in s.branches:
                    seen += (cond,)
                    self.body(inner, guards + seen, lets)
                if s.otherwise is not None:
                    self.body(s.otherwise, guards + seen, lets)
                guards += seen  # a check made before (`if count(xs) == 0 { return }`)
                continue
            elif isinstance(s, ast.Require):
                guards += (s.condition,)
            elif isinstance(s, ast.While):
                self.body(s.body, (*guards, s.condition), lets)
            elif isinstance(s, ast.For):
                self.body(s.body, guards, lets)
            elif isinstance(s, ast.May):
                self.body(s.body, guards, lets)
                if s.otherwise:
                    self.body(s.otherwise, guards, lets)

    def choose(self, s: ast.Choose, guards: tuple, lets: dict) -> None:
        if s.optional:
            return
        options, local = s.options, None
        if isinstance(options, ast.Name) and options.id in lets:
            options, local = lets[options.id], options.id
        if not isinstance(options, ast.Comprehension) or not _filtered(options):
            return
        names = _read(options)
        reads = names & self.state
        if not reads:
            return  # the same list in every position
        bound = {c.var for c in options.clauses}
        watched = self._followed(names - bound) | ({local} if local else set())
        if any(self._followed(_read(g)) & watched for g in guards):
            return
        shown = ", ".join(sorted(reads))
        self.found.append(
            Diagnostic(
                s.span,
                f"this choice may have no options: its list is filtered (`if ...`) from what the game holds "
                f"({shown}), and nothing before it makes sure an option is left; with none, the game stops "
                "with an error",
                "guard it (`if count(LIST) > 0 { choose ... }`), or write `optional` after it and say what "
                f"happens when there is nothing to choose (`if {s.var} != none {{ ... }}`)",
                "warning",
            )
        )


def empty_choice_warnings(program: Program) -> list[Diagnostic]:
    """The warnings described in the module's doc, for cards' slots, triggers and hooks and
    the game's triggers."""
    found = _Choices(program)
    for d in program.decls:
        if isinstance(d, ast.Trigger):
            found.body(d.body, (d.where,) if d.where is not None else (), {})
        elif isinstance(d, ast.Card):
            for t in d.triggers:
                found.body(t.body, (t.where,) if t.where is not None else (), {})
            for hook in d.leaves:
                found.body(hook.body, (), {})
            for _, body, _, _ in d.slots:
                found.body(body, (), {})
    return found.found
