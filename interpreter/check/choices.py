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

The list may also be a def's (`choose x from influenced(s)`, or a `let` local holding its
result), when the def's body is such a comprehension: it reads the variables its body reads.

A procedure's own list is left alone: its callers may have checked first (the bundled
games offer an action only when it can be done; a turn is played only while a square is
empty). But a procedure that chooses from a list given as its argument (`procedure
strip(xs: list Country) { choose x from xs ... }`), not `optional` and with no check of
the list first, is warned of at a call that passes it such a list with nothing before
the call checking it (a condition reading what the list reads, through the defs it calls
too), nor before any call of the procedure the call is in
(`strip([y for y in members(Country) if influence[t][y] > 3])` in a card's effect).
The rule errs toward silence: a shared name is taken as a guard without proving that it
guards.
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
        # the defs whose body is a list filtered from what the game holds (`choose x from d(...)`)
        self.defs = {d.name: d for d in decls if isinstance(d, ast.Def)}
        self.filtered_defs = {
            d.name: d.body for d in decls if isinstance(d, ast.Def) and _filtered(d.body) and _read(d.body) & self.vars
        }
        self.procedures = {d.name: d for d in decls if isinstance(d, ast.Procedure)}
        self.current: ast.Procedure | None = None  # the procedure being read, None in a card or trigger
        # what each local of the body being read read (`read_by` is the whole program's, by name)
        self.scoped: dict[str, set[str]] = {}
        # each call of a procedure: (the procedure it is in or None, its guards, its lets, the
        # call, what the locals of its body read)
        self.calls: dict[
            str, list[tuple[ast.Procedure | None, tuple, dict, ast.CallStmt | ast.Call, dict[str, set[str]]]]
        ] = {}
        # a procedure's choices from a list parameter: (procedure, parameter's position, choose)
        self.from_param: list[tuple[ast.Procedure, int, ast.Choose]] = []

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
            for call in ast.find_all(s if not isinstance(s, ast.If | ast.While | ast.For | ast.May) else (), ast.Call):
                if call.func in self.procedures:  # `let n = proc(...)`: a call of a procedure with a result
                    self.calls.setdefault(call.func, []).append(
                        (self.current, guards, dict(lets), call, dict(self.scoped))
                    )
            if isinstance(s, ast.CallStmt) and s.name in self.procedures:
                self.calls.setdefault(s.name, []).append((self.current, guards, dict(lets), s, dict(self.scoped)))
            if isinstance(s, ast.Let | ast.Assign) and not getattr(s, "keys", ()):
                self.read_by[s.name] = self._followed(_read(s.value) | self._def_reads(s.value))
                read = _read(s.value) | self._def_reads(s.value)
                self.scoped[s.name] = read.union(*(self.scoped.get(n, set()) for n in read))
                if isinstance(s, ast.Let) and (_filtered(s.value) or self._filtered_call(s.value)):
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

    def _filtered_call(self, e) -> bool:
        """Whether `e` is a call of a def whose body is a list filtered from what the game holds."""
        return isinstance(e, ast.Call) and e.func in self.filtered_defs

    def _def_reads(self, e) -> set[str]:
        """The names the bodies of the filtered defs `e` calls read (`filtered_defs`)."""
        out: set[str] = set()
        for call in ast.find_all(e, ast.Call):
            body = self.filtered_defs.get(call.func)
            if isinstance(body, ast.Comprehension):
                out |= _read(body) - {c.var for c in body.clauses}
        return out

    def _may_be_empty(self, options, lets: dict) -> tuple[set[str], set[str]] | None:
        """For a list that may be empty (a comprehension filtered from what the game holds,
        a filtered def's result, or a local holding either): the names a guard of it would
        read, and the variables it reads; None for any other list."""
        local = None
        if isinstance(options, ast.Name) and options.id in lets:
            options, local = lets[options.id], options.id
        if isinstance(options, ast.Comprehension) and _filtered(options):
            names = _read(options)
            reads = names & self.state
            bound = {c.var for c in options.clauses}
        elif self._filtered_call(options):
            names = _read(options) | self._def_reads(options)
            reads = self._def_reads(options) & self.state
            bound = set()
        else:
            return None
        if not reads:
            return None  # the same list in every position
        return self._followed(names - bound) | ({local} if local else set()), reads

    def _guarded(self, guards: tuple, watched: set[str]) -> bool:
        return any(self._followed(_read(g)) & watched for g in guards)

    def choose(self, s: ast.Choose, guards: tuple, lets: dict) -> None:
        if s.optional:
            return
        if self.current is not None and isinstance(s.options, ast.Name) and s.options.id not in lets:
            names = [p.name for p in self.current.params]
            if s.options.id in names and not self._guarded(guards, {s.options.id}):
                self.from_param.append((self.current, names.index(s.options.id), s))
            return
        found = self._may_be_empty(s.options, lets)
        if found is None:
            return
        watched, reads = found
        if self._guarded(guards, watched):
            return
        if self.current is not None:
            return  # a procedure's: its callers may have checked first (the module's doc)
        self._warn(s, reads)

    def _warn(self, s: ast.Choose, reads: set[str]) -> None:
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

    def _guard_reads(self, g, scoped: dict[str, set[str]], seen: set[str]) -> set[str]:
        """What a caller's condition reads, through the locals of its body (`scoped`) and the
        defs it calls (a caller's check is most often a def: `if can_strip(t) { strip(t) }`)."""
        out = _read(g)
        out = out.union(*(scoped.get(n, set()) for n in out))
        for name in list(out):
            d = self.defs.get(name)
            if d is not None and name not in seen:
                seen.add(name)
                out |= self._guard_reads(d.body, {}, seen)
        return out

    def callers_checked(self, proc: ast.Procedure, watched: set[str], seen: set[str]) -> bool:
        """Whether a call of `proc` (or of a procedure calling it) may have checked the list
        first: a condition around it reads a name in `watched`, or `proc` is never called
        (then it is not the check's business here). `play` and `setup` have no callers."""
        if proc.name in seen:
            return True
        seen = seen | {proc.name}
        calls = self.calls.get(proc.name, [])
        if not calls:
            return proc.name not in ("play", "setup")
        for caller, guards, _, _, scoped in calls:
            if any(self._guard_reads(g, scoped, set()) & watched for g in guards):
                return True
            if caller is not None and self.callers_checked(caller, watched, seen):
                return True
        return False

    def finish(self) -> None:
        """The warnings left to the callers: a call that passes an unchecked list to a
        procedure choosing from it."""
        for proc, i, s in self.from_param:
            for caller, guards, lets, call, scoped in self.calls.get(proc.name, []):
                args = call.args
                if i >= len(args):
                    continue
                found = self._may_be_empty(args[i], lets)
                if found is None:
                    continue
                watched, reads = found
                # a check of it reads what the list reads of the game (its variables, the defs
                # it calls) or the local holding it, not merely a loop's variable it shares
                watched = reads | (watched & (set(self.defs) | set(lets)))
                if any(self._guard_reads(g, scoped, set()) & watched for g in guards):
                    continue
                if caller is not None and self.callers_checked(caller, watched, set()):
                    continue
                shown = ", ".join(sorted(reads))
                at = f"line {s.span.line}" if s.span.path == call.span.path else f"{s.span.path}:{s.span.line}"
                self.found.append(
                    Diagnostic(
                        call.span,
                        f"this call may give '{proc.name}' an empty list: it is filtered (`if ...`) from what the "
                        f"game holds ({shown}), and '{proc.name}' chooses from it ({at}) without "
                        "`optional`, nothing before either making sure an option is left; with none, the game "
                        "stops with an error",
                        f"guard the call (`if count(LIST) > 0 {{ {proc.name}(...) }}`), or write `optional` after "
                        f"the `choose` in '{proc.name}' and say what happens when there is nothing to choose",
                        "warning",
                    )
                )


def empty_choice_warnings(program: Program) -> list[Diagnostic]:
    """The warnings described in the module's doc, for cards' slots, triggers and hooks, the
    game's triggers and its procedures."""
    found = _Choices(program)
    for d in program.decls:
        found.scoped = {}
        if isinstance(d, ast.Procedure):
            found.current = d
            found.body(d.body, (), {})
            found.current = None
        elif isinstance(d, ast.Trigger):
            found.body(d.body, (d.where,) if d.where is not None else (), {})
        elif isinstance(d, ast.Card):
            for t in d.triggers:
                found.body(t.body, (t.where,) if t.where is not None else (), {})
            for hook in d.leaves:
                found.body(hook.body, (), {})
            for _, body, _, _ in d.slots:
                found.body(body, (), {})
    found.finish()
    return found.found
