"""The compile's working tables: what the four compilers look names up in while a pass runs.

A compile is a pipeline of passes (compiler.py) helped by four compilers, each an
object of its own: expressions (expressions.py), statements (statements.py), native
blocks (blocks.py) and modifiers (modifiers.py). What they share is this one value: the
program and options it was asked for, and the tables they look names up in and add to
(names and what they name, types, components and their properties, variables, queries,
procedures, decisions...). Everything else a compiler keeps while it works is its own.

These tables are working state, not the compile's output: each pass returns a record of
what it made (compiled.py: `Components`, `Variables`, `Behaviour`...), whose fields are
the same dicts and lists as the tables here, and `CompiledGame` is made of those records.
A table no compiler reads (an option's declarations, the visibility rules, the payoff,
the view...) is not here at all: it lives only in the record of the pass that makes it.
tests/compile/test_compiled_game.py checks that a pass changes only its own record's
tables (or those of the records it takes) and reads only those of the records it takes.
"""

from __future__ import annotations

from typing import Any, NoReturn

from interpreter.check.symbols import SymbolTable
from interpreter.compile.compiled import Runtime, VarInfo
from interpreter.compile.names import Names
from interpreter.compile.queries import CompiledModifier, QueryFunction
from interpreter.compile.steps import Choice, Code, Handler, LogFormat
from interpreter.core.errors import Diagnostic, GameDefError, Span, explain
from interpreter.core.limits import LimitExceeded
from interpreter.language import syntax as ast
from interpreter.language.program import Program

# The attributes set from the compile's inputs; every other public attribute is a table.
INPUTS = (
    "program",
    "names",
    "header",
    "given",
    "optimise",
    "seats",
    "dynamic_links",
    "cancel_events",
    "grants",
    "cancels",
)


class PassTables:
    """The program, the options asked for, and the tables the compilers read and fill.
    Every attribute is declared here; the meaning of each table that reaches the compiled
    game is that of the `CompiledGame` property of the same name."""

    def __init__(
        self,
        program: Program,
        options: dict[str, Any] | None = None,
        optimise: bool = True,
        symbols: SymbolTable | None = None,
    ) -> None:
        # -- the inputs
        self.program = program
        self.names = Names(program, symbols)  # what each name is, as the checker resolved it (names.py)
        self.header = program.header
        self.given: dict[str, Any] = dict(options or {})  # the options asked for (checked by `settle_options`)
        self.optimise = optimise
        seats = self.header.seats or tuple(f"p{i}" for i in range(1, self.header.max_players + 1))
        listed = self.header.roles + tuple(r[:2] for r in self.header.option_roles)
        roles = tuple(r for _, names in listed for r in names if r not in seats)
        self.seats = tuple(seats) + tuple(dict.fromkeys(roles))  # role names are seats too
        # The statements the compile looks for anywhere in the rules, found in one walk.
        found = _statements(program.decls, (ast.LinkStmt, ast.Perform, ast.Grant, ast.Cancel))
        self.dynamic_links = bool(found[ast.LinkStmt])  # a `link` statement anywhere
        self.cancel_events = {p.cancel_event for p in found[ast.Perform] if p.cancel_event}
        self.grants: list[ast.Grant] = found[ast.Grant]  # every `grant` statement
        self.cancels = bool(found[ast.Cancel])  # a `cancel` statement anywhere
        # -- the tables the compilers read and fill (each pass's record holds those it made)
        self.rt = Runtime()
        self.ns: dict[str, Any] = {}  # the generated code's globals: built-ins, tables, other functions
        self.claimed: dict[str, str] = {}  # every global name -> what it names, to report clashes
        self.types: dict[str, tuple] = {}
        self.constants: dict[str, Any] = {}
        self.options: dict[str, Any] = {}
        self.entity_decls: dict[str, ast.Entity] = {}
        self.kind_of: dict[str, str] = {}
        self.fields: dict[str, dict[str, Any]] = {}
        self.vars: dict[str, VarInfo] = {}
        self.var_order: list[VarInfo] = []
        self.queries: dict[str, QueryFunction] = {}  # filled by `lay_out_variables`; expressions before it see none
        self.query_decls: dict[str, ast.Query] = {}
        self.query_guards: dict[str, tuple[int, ...]] = {}  # a query -> the slots its answers in place depend on
        self.modifier_list: list[CompiledModifier] = []
        self.expiring: set[str] = set()  # events named by an `until`: their emit ends modifiers
        self.changeable: set[str] = set()  # fields read through a query (`changeable`)
        self.grants_slot: int | None = None
        self.links_slot: int | None = None
        self.cancel_slot: int | None = None
        self.leave_hooks: dict[str, dict[str, Code]] = {}
        self.codes: list[Code] = []
        self.procs: dict[str, Code] = {}
        self.proc_decls: dict[str, ast.Procedure] = {}
        self.defs: dict[str, list] = {}
        self.def_decls: dict[str, ast.Def] = {}
        self.handlers: dict[str, list[Handler]] = {}
        self.slots: dict[tuple[str, str], Code] = {}
        self.choices: list[Choice] = []
        self.choice_spans: list[Span | None] = []
        self.formats: list[LogFormat] = []
        self.uses_chance = False
        self.block_lines: list[tuple | None] = []  # (span, procedure) of each line of the blocks' code

    # ---- what every compiler may ask of the tables ---------------------------
    def fail(self, span: Span, message: str, hint: str | None = None) -> NoReturn:
        raise GameDefError([Diagnostic(span, message, hint)])

    def claim(self, name: str, what: str, span: Span) -> None:
        """Give a global name its one meaning: a seat, a cell, a component, an enum
        member, a variable, a function... A second meaning would silently shadow the
        first (`grid Cell 16 by 1` would make the seat `p1` a cell), so it is an error."""
        other = self.claimed.get(name)
        if other is not None and other != what:
            self.fail(span, f"'{name}' names both {other} and {what}", "rename one of them: names are global")
        self.claimed[name] = what

    def loaded(self, span: Span, compute):
        """`compute()` run at load; a rule error or a limit there is a diagnostic at `span`."""
        try:
            return compute()
        except GameDefError:
            raise
        except Exception as exc:
            hint = exc.hint if isinstance(exc, LimitExceeded) else None
            message = exc.message if isinstance(exc, LimitExceeded) else explain(exc)
            self.fail(span, f"cannot compute this at load: {message}", hint)

    def new_code(self, name: str, span: Span) -> Code:
        """A new, empty step table (a procedure's, a trigger's, a card slot's...)."""
        code = Code(len(self.codes), name, span)
        self.codes.append(code)
        return code

    def proc_call(self, e) -> ast.Call | None:
        """`e` if it is a call of a procedure (a `let`, assignment or `return` of its
        result), else None: as the checker resolved the call (names.py)."""
        if isinstance(e, ast.Call) and self.names.call(e) == "procedure":
            return e
        return None


def _statements(decls: tuple, kinds: tuple[type, ...]) -> dict[type, list]:
    """Every node of each of `kinds` in the syntax trees `decls`, in the order
    `ast.find_all` gives them: one walk for all (each is a walk of the whole program)."""
    found: dict[type, list] = {k: [] for k in kinds}
    for n in ast.walk(decls):
        if isinstance(n, kinds):
            for k in kinds:
                if isinstance(n, k):
                    found[k].append(n)
    return found
