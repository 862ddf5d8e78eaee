"""The checker: resolve every name and check types and arity before compiling.

It walks the assembled program once and collects diagnostics (errors and
warnings) as values; `check_program` raises one `GameDefError` holding every
error, so a designer sees all mistakes of a file at once, each with its position
and a did-you-mean. Types are simple: int, bool, str, player, enums, components,
grid cells, `list T`, `T?` (the frozen classes of check/types.py); a map `K -> V` exists
only as a variable.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from interpreter.check.choices import empty_choice_warnings
from interpreter.check.seats import seat_warnings
from interpreter.check.symbols import Binding, SymbolTable, name_span
from interpreter.check.types import (
    ANY,
    BOOL,
    DIRECTION,
    INT,
    NONE,
    PLAYER,
    STR,
    ListOf,
    MapOf,
    Maybe,
    Named,
    Type,
    TypeName,
    fits,
    is_list,
    is_opt,
    join,
    kind_of,
    lst,
    opt,
    show,
    strip,
    why_none,
)
from interpreter.check.view_secrets import check_view
from interpreter.core.builtins import BUILTINS, DIRECTIONS
from interpreter.core.errors import Diagnostic, GameDefError, Span, did_you_mean
from interpreter.core.limits import MAX_FILE_BYTES, no_collection
from interpreter.core.paths import BUNDLED, BUNDLED_CARDS
from interpreter.language import syntax as ast
from interpreter.language.datatables import tableable
from interpreter.language.parser import parse_file
from interpreter.language.program import Program
from interpreter.language.signatures import declared_slots, params_text
from interpreter.language.sources import confined
from interpreter.language.testcode import test_decls

SPECIAL = {"members": (1, 1), "initial": (1, 1)}
# The built-ins whose first argument is a list (max, min and sum have checks of their own:
# `_numbers_compared`).
_LIST_FIRST = frozenset(
    (
        "count",
        "any",
        "all",
        "first",
        "last",
        "append",
        "concat",
        "without",
        "rotate",
        "sort",
        "sort_by",
        "best",
        "index_of",
    )
)
# A built-in's result type, by the name its entry in core/builtins.py gives it.
_RETURNS: dict[str, Type] = {t.name: t for t in (INT, BOOL, STR, DIRECTION)}
# The default a hint offers for a value that may be none, by the type needed.
_DEFAULTS: dict[Type, str] = {INT: "0", BOOL: "false", STR: '""'}


class Checker:
    def __init__(self, program: Program, scope_types: bool = False):
        self.program = program
        # Record each procedure's every binding of each local (`SymbolTable.scopes`), for
        # `local_types`: off by default, as no other reader needs it.
        self.scope_types = scope_types
        self.diags: list[Diagnostic] = []
        self.types: dict[str, Type] = {t.name: t for t in (INT, BOOL, STR, PLAYER, DIRECTION)}  # name -> type
        self.constants: dict[str, Type] = {d: DIRECTION for d in DIRECTIONS}
        self.vars: dict[str, tuple[tuple[Type, ...], Type]] = {}  # name -> (key types, value type)
        self.options: dict[str, Type] = {}
        self.fields: dict[str, dict[str, Type]] = {}  # entity kind (by name) -> field -> type
        self.defs: dict[str, ast.Def] = {}
        self.queries: dict[str, ast.Query] = {}
        self.procs: dict[str, ast.Procedure] = {}
        # Each procedure's parameters and locals with their types (a name bound twice: its
        # last type), as derived while checking its body: a saved state's locals are checked
        # by them (`local_types`).
        self.local_types: dict[str, dict[str, Type]] = {}
        self.results: dict[str, Type | None] = {}  # procedure -> its result type (None: it returns none)
        self.result: Type | None = None  # the result type of the body being checked (None: no value)
        self.result_of = ""  # the procedure being checked
        self.events: dict[str, ast.Event] = {}
        self.used: set[str] = set()
        self.emitted: set[str] = set()
        self.def_types: dict[str, Type] = {}
        self.slot_arity: dict[str, set[int]] = {}
        self.slot_signatures: dict[str, dict[str, ast.SlotSignature]] = {}  # kind -> slot -> declared
        self.slot_types: dict[tuple[str, str], list[Type]] = {}  # (kind, slot) -> its parameters' types
        self.grids: list[str] = []
        self.entities: dict[str, ast.Entity] = {}
        # A kind no `entity` declares: its cards, each with the properties it gives.
        self.card_props: dict[str, list[tuple[ast.Card, set[str]]]] = {}
        self.card_now: ast.Card | None = None  # the card whose slots are being checked: `self` is it
        self._slot_now: tuple | None = None  # the slot being checked: (name, kind, parameter names, signature)
        # The expressions known not to be none here (by `_key`): narrowed by `x != none`, kept
        # while nothing they read can change (`_forget`).
        self.narrowed: frozenset = frozenset()
        self._given_props: set[tuple[str, str]] | None = None  # (component, property) given
        self._computed: set[str] | None = None  # the names of the functions and queries
        self._stateful: set[str] = set()  # and of the variables
        self._facts_memo: dict = {}  # what a condition says (`_facts`), by its node
        self._defaulted: Any = None  # the left side of the `??` being checked
        # The record of what was resolved (check/symbols.py): each name use's binding, each
        # expression's type, each local. `declared` holds where each global name is
        # declared (by "what:name"), `_where` where each name of the scope being checked was bound.
        self.table = SymbolTable()
        self.declared: dict[str, Span] = {}
        self._where: dict[str, Span] = {}
        self._bare_fields: set[str] = set()  # the properties an entity's own rules read by bare name
        # In the card slot being checked: the parameters of a declared `slot` that are not in
        # force there (name -> message, hint), each the same mistake, reported once per slot.
        self._stray_params: dict[str, tuple[str, str]] = {}
        self._stray_told = False
        self._param_owners: dict[str, str] | None = None  # parameter name -> what declares it
        self._performed: set[str] | None = None  # the slot names a `perform` names (`_performed_slots`)
        self._beside: set[str] | None = None  # the names the game's test files read (`_read_beside`)
        self.warn_unread = True  # warn of a variable or option never read (`check_game`)
        self._zones: set[str] = set()  # the variables marked `zone`, read by the engine
        self._generating = False  # checking a `generate`'s loops
        self._shadowing: dict[str, Span] = {}  # a def, query or procedure named like a built-in: where

    def error(self, span, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, message, hint))

    def warn(self, span, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, message, hint, "warning"))

    # ---- declarations -------------------------------------------------------
    def run(self) -> list[Diagnostic]:
        """Check the whole program, phase by phase: seats, the types, the names each
        declaration gives, the components, then every declaration's body; the
        diagnostics found, errors and warnings."""
        decls = self.program.decls
        self._seats()
        self._types(decls)
        self._names(decls)
        self._components(decls)
        self._table_rows()
        self._every_component_complete()
        self._given_as_rows_give()
        self._generated_names()
        self._option_roles()
        self._excluded_variants()
        tests = self._test_code()
        self._names(tests)
        for d in decls:
            self.declaration(d)
        for d in tests:
            self.declaration(d)
        self._unused(decls)
        self.diags.extend(seat_warnings(self.program))
        self.diags.extend(empty_choice_warnings(self.program))
        self._record_declarations()
        self.diags = _at_removal(self.diags, self.program.removed)
        self.diags = _at_shadowing(self.diags, self._shadowing)
        self.diags = _var_at_replacement(self.diags, self.program.replaced, self.program.sources)
        self.diags = _at_replacement(self.diags, self.program.replaced)
        return self.diags

    def check_expression(self, e: ast.Expr, scope: dict[str, Type]) -> Type:
        """Check `e`, an expression that is not in the program, among the program's names
        (after `run`) with the locals `scope` (name -> type): its type; its names and
        types join the symbol table, so that a tool may compile it (the compiler reads
        what each name is there)."""
        self._where = {}
        self.narrowed = frozenset()
        for name, t in scope.items():
            self.bind(name, e.span, t, "self" if name == "self" else "local")
        return self.expr(e, dict(scope))

    # ---- the record (check/symbols.py) ---------------------------------------------
    def _record_declarations(self) -> None:
        """Each def's result type and each kind's properties, into the symbol table."""
        self.table.defs = dict(self.def_types)
        for name, t in self.constants.items():
            self.table.globals[name] = Binding(name, "constant", self.declared.get("const:" + name), t)
        for name, t in self.options.items():
            self.table.globals[name] = Binding(name, "option", self.declared.get("option:" + name), t)
        for name, (keys, t) in self.vars.items():
            self.table.globals[name] = Binding(name, "var", self.declared.get("var:" + name), _map_type(keys, t))
        for kind, fields in self.fields.items():
            entity = self.entities.get(kind)
            spans = {f.name: f.span for f in entity.fields} if entity is not None else {}
            self.table.fields[kind] = {
                name: Binding(name, "field", spans.get(name, self.declared.get("type:" + kind)), t)
                for name, t in fields.items()
            }

    def bind(self, name: str, span, t: Type, kind: str = "local") -> None:
        """A local name bound at `span` (a parameter, `let`, loop variable, ...), of type `t`."""
        seat = name in self.program.header.seats and len(name) > 1  # tic-tac-toe's x is a local's name too
        if (name == "players" or seat) and span not in self.table.locals:
            # `for north in order`, `let players = rotate(...)`: the seat (or the seats in
            # play) can no longer be named where the local is in scope
            what = "the list of the seats in play" if name == "players" else f"the seat {name}"
            self.warn(
                span,
                f"this {kind} '{name}' hides {what} wherever it is in scope",
                f"give it a name of its own, e.g. '{name}_'"
                if name == "players"
                else "give it a name of its own, e.g. 'p'",
            )
        self._where[name] = span
        self.table.locals[span] = Binding(name, kind, span, t)

    def _use(self, span, name: str, kind: str, declared, t: Type) -> None:
        """A use of `name` written at `span`, resolved to a `kind` declared at `declared`."""
        self.table.use(span, Binding(name, kind, declared, t))

    def _name_span(self, span, name: str):
        """Where `name` itself is written when it starts the node at `span` (a call's function)."""
        return name_span(span, name)

    def _test_code(self) -> list:
        """The code of the designer's `test` blocks played with exactly the variants of this
        program (language/testcode.py), checked like the game's own: a mistake in a test is
        a `check` error at its line, and what only tests use is used. A test naming a
        variant the game lacks is an error at the test (reported once, with no variant)."""
        chosen = sorted(v.name for v in self.program.variants)
        code: list = []
        seen: dict[tuple[str, str], ast.Test] = {}
        for i, t in enumerate(self.program.tests):
            first = seen.setdefault((t.span.path, t.name), t)
            if first is not t and not chosen:
                self.error(t.span, f"test '{t.name}' is written twice", f"the first is at {first.span}; rename one")
            where = dict(t.settings)
            unknown = [v for v in t.variants if v not in self.program.all_variants]
            if unknown:
                if not chosen:
                    hint = did_you_mean(unknown[0], self.program.all_variants) or (
                        "the game's variants: " + ", ".join(self.program.all_variants)
                        if self.program.all_variants
                        else "the game has no variants"
                    )
                    span = where.get(f"variant:{unknown[0]}", t.span)
                    self.error(span, f"test {t.name}: unknown variant '{unknown[0]}'", hint)
                continue
            if sorted(set(t.variants)) == chosen:
                self._test_settings(t, where)
                code.extend(test_decls(i, t, checked_only=True))
        return code

    def _test_settings(self, t: ast.Test, where: dict) -> None:
        """A test's player count and options, checked where they are written, as `gamedef
        test` would refuse them: a count the header does not allow, an option the game
        (with the test's variants) does not declare, a value of another type or outside
        the option's choices."""
        h = self.program.header
        if t.players is not None and not h.min_players <= t.players <= h.max_players:
            self.error(
                where.get("players", t.span),
                f"test {t.name}: {h.title} is for {h.min_players} to {h.max_players} players, not {t.players}",
                f"write `players N`, N from {h.min_players} to {h.max_players}",
            )
        if t.state is not None:
            self._test_state(t)
        declared = {d.name: d for d in self.program.decls if isinstance(d, ast.Option)}
        for name, value in t.options:
            span = where.get(f"option:{name}", t.span)
            d = declared.get(name)
            written = _literal_value(value)
            if d is None:
                hint = did_you_mean(name, declared) or (
                    "the options: " + ", ".join(declared) if declared else "the game has no options"
                )
                opening = self._variant_declaring(name)
                if opening is not None:
                    hint = f"the variant {opening} declares it: add `variant {opening}` to the test"
                self.error(span, f"test {t.name}: unknown option '{name}'", hint)
                continue
            want = self.options.get(name, ANY)
            got = self.expr(value, {})
            if not fits(got, want):
                self.error(value.span, f"test {t.name}: option '{name}' is {show(want)}, not {show(got)}")
                continue
            allowed = _literal_choices(d.choices)
            if allowed is not None and written is not None and written not in allowed:
                shown = ", ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in allowed)
                if isinstance(d.choices, ast.Range) and len(allowed) > 10:  # not a list of a hundred numbers
                    shown = f"{allowed[0]} to {allowed[-1]}"
                opening = self._variant_declaring(name, written)
                also = f", or add `variant {opening}` to the test" if opening is not None else ""
                self.error(
                    value.span,
                    f"test {t.name}: option '{name}' = {_write(value)} is not allowed",
                    f"choose from {shown}{also}",
                )

    def _test_state(self, t: ast.Test) -> None:
        """A test's `state "FILE"` that names no file beside the test file (or below it):
        `gamedef test` would stop there, so `check` says it at the line."""
        folder = Path(t.span.path).parent
        path = confined(folder, t.state or "", (folder.resolve(),))
        if path is None or path.is_file():
            return  # one outside the test's folder is refused by `gamedef test`, for that test alone
        saved = sorted(p.name for p in folder.glob("*.toml"))
        hint = did_you_mean(t.state or "", saved) or (
            "save a position of the game to a .toml file beside the test file,"
            " as `gamedef run` saves a state (docs/language.md §16)"
        )
        span = self._line_naming(t.span, "state", t.state or "")
        self.error(span, f"test {t.name}: the state file {t.state!r} is not there", hint)

    def _excluded_variants(self) -> None:
        """`excludes [...]` naming no variant of the game (a misspelling, or a variant
        renamed since): the exclusion it was written for is silently not in force, and two
        variants that cannot be played together are allowed together. An error at the
        `excludes` line, checked with the base game (the variants' checks would repeat it)."""
        if self.program.variants:
            return
        known = self.program.all_variants
        for v in known.values():
            for name in v.excludes:
                if name not in known:
                    span = self._line_naming(v.span, "excludes", name)
                    self.error(
                        span,
                        f"variant '{v.name}' excludes unknown variant '{name}'",
                        did_you_mean(name, [n for n in known if n != v.name])
                        or f"the game's variants: {', '.join(known) or 'none'}",
                    )

    def _line_naming(self, start: Span, word: str, name: str) -> Span:
        """The span of `name` on the first line from `start` that holds `word` and it (a
        declaration's part the syntax tree keeps no position for), else `start`."""
        lines = self.program.sources.get(start.path, "").split("\n")
        for k in range(start.line - 1, min(len(lines), start.line + 200)):
            m = re.search(rf"\b{word}\b.*?\b({re.escape(name)})\b", lines[k])
            if m:
                return Span(start.path, k + 1, m.start(1) + 1, m.end(1) + 1)
        return start

    def _variant_declaring(self, name: str, value: Any = None) -> str | None:
        """A variant not chosen that declares option `name` (allowing `value`, when given)."""
        chosen = {v.name for v in self.program.variants}
        for v in self.program.all_variants.values():
            if v.name in chosen:
                continue
            for x in v.decls:
                d = x.decl if isinstance(x, ast.Replace) else x
                if isinstance(d, ast.Option) and d.name == name:
                    allowed = _literal_choices(d.choices)
                    if value is None or allowed is None or value in allowed:
                        return v.name
        return None

    def _counts(self) -> None:
        """The player counts and the seats agree: `players MIN..MAX` with MIN <= MAX, each
        seat named once, and a seat for each player at every count no `roles` rule gives
        (else `gamedef run --players MAX` stops at its start)."""
        h = self.program.header
        lo, hi, names = h.min_players, h.max_players, h.seats
        if lo > hi:
            self.error(
                h.players_span or h.span,
                f"`players {lo}..{hi}` allows no count: the least comes first",
                f"write `players {hi}..{lo}`",
            )
        twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
        if twice is not None:
            self.error(
                h.seats_span or h.span, f"seat '{twice}' is named twice in `seats [...]`", "give each seat its own name"
            )
        ruled = {count for count, _ in h.roles} | {r[0] for r in h.option_roles}
        short = [n for n in range(lo, hi + 1) if n not in ruled and names and n > len(names)]
        if short:
            self.error(
                h.seats_span or h.span,
                f"`players {lo}..{hi}` allows {short[0]} players, but only {len(names)} seats are named",
                f"name {short[-1] - len(names)} more in `seats [...]`, give {short[0]} players their seats in "
                f"`roles`, or allow at most {len(names)}: `players {lo}..{len(names)}`",
            )

    def _seats(self) -> None:
        """Every seat and role is a constant of type player."""
        self._counts()
        for seat in self.program.header.seats:
            self.constants[seat] = PLAYER
            self.declared.setdefault("const:" + seat, self.program.header.span)
        for _, names in self.program.header.roles:
            for seat in names:
                self.constants[seat] = PLAYER
        for _, names, _, _ in self.program.header.option_roles:
            for seat in names:
                self.constants[seat] = PLAYER

    def _types(self, decls) -> None:
        """Enums (with their members), entities, grids and card kinds name types."""
        for d in decls:
            if isinstance(d, ast.Enum | ast.Entity | ast.Grid):
                self.declared["type:" + d.name] = d.span
            elif isinstance(d, ast.Card):  # a kind no entity declares: where its first card is
                self.declared.setdefault("type:" + d.kind, d.span)
            if isinstance(d, ast.Enum):
                self.types[d.name] = Named(d.name)
                seen: dict[str, Span] = {}
                for m in d.members:
                    if m.name in seen:  # `members(Suit)` would list it twice, and a generate make twice the pieces
                        self.error(
                            m.span,
                            f"'{m.name}' is a member of {d.name} twice",
                            f"the first is at {seen[m.name]}: remove this one, or give it a name of its own",
                        )
                    seen.setdefault(m.name, m.span)
                    self._constant(m.name, self.types[d.name], m.span)
            elif isinstance(d, ast.Entity):
                self.types[d.name] = Named(d.name)
            elif isinstance(d, ast.Grid):
                self.types[d.name] = Named(d.name)
                self.grids.append(d.name)
            elif isinstance(d, ast.Card) and d.kind not in self.types:
                self.types[d.kind] = Named(d.kind)

    def _names(self, decls) -> None:
        """Entities' fields (a changeable one is also a query), options, defs, queries,
        procedures, events and variables, by name, before any body is checked."""
        for d in decls:
            if isinstance(d, ast.Entity):
                self.entities[d.name] = d
                self.fields[d.name] = {
                    f.name: _noted(self.type_of(f.type), f"`{f.name}` is declared `{{t}}` in {d.name}")
                    for f in d.fields
                }
                for f in d.fields:
                    if f.changeable:  # read through a query of the same name: `stability(x) = 2 where ...`
                        x = ast.Param(span=f.span, name="x", type=ast.NamedType(span=f.span, name=d.name))
                        base = ast.Member(span=f.span, obj=ast.Name(span=f.span, id="x"), name=f.name)
                        if f.name in self.queries:
                            self.error(f.span, f"'{f.name}' is already a query", "rename the property or the query")
                        self.queries[f.name] = ast.Query(span=f.span, name=f.name, params=(x,), type=f.type, base=base)
            elif isinstance(d, ast.Option):
                self.options[d.name] = self.type_of(d.type)
                self.declared["option:" + d.name] = d.span
            elif isinstance(d, ast.Def):
                self._not_builtin(d.name, d.span, "def", len(d.params))
                self.defs[d.name] = d
            elif isinstance(d, ast.Query):
                self._not_builtin(d.name, d.span, "query", len(d.params))
                self.queries[d.name] = d
            elif isinstance(d, ast.Procedure):
                self._not_builtin(d.name, d.span, "procedure", len(d.params))
                self.procs[d.name] = d
                result = self.type_of(d.result) if d.result is not None else None
                self.results[d.name] = _noted(result, f"procedure '{d.name}' returns `{{t}}`")
            elif isinstance(d, ast.Event):
                self.events[d.name] = d
            elif isinstance(d, ast.Var):
                self._var(d)

    def _var(self, d: ast.Var) -> None:
        """A variable's key types (each finite) and value type; `seen by owner` needs a map by player."""
        self._name_ok(d.name, d.span, "variable")
        if d.zone:  # read by the engine (each component in one place): never "never read"
            self._zones.add(d.name)
        keys: list[Type] = []
        t = d.type
        while isinstance(t, ast.MapType):
            key = self.type_of(t.key)
            if key in (INT, STR, BOOL) or isinstance(key, ListOf | Maybe):
                self.error(
                    t.key.span,
                    f"a map's key must be a finite type, not {show(key)}",
                    "use player, an enum, a component kind or a grid",
                )
            keys.append(key)
            t = t.value
        self.declared["var:" + d.name] = d.span
        held = self.type_of(t)
        # Never trusted: the rules may set it (back) to none, so it is narrowed before use as a `T`.
        why = f"the entries of `{d.name}` are declared `{{t}}`" if keys else f"`{d.name}` is declared `{{t}}`"
        held = _noted(held, why)
        self.vars[d.name] = (tuple(keys), held)
        if d.seen_by == "owner" and (not keys or keys[0] != PLAYER):
            self.error(
                d.span,
                "`seen by owner` needs a map keyed by player",
                f"declare it as `var {d.name}: player -> ...`",
            )

    def _slot_matches(self, card: ast.Card, name: str, span, params: tuple[ast.Param, ...]) -> None:
        """A card that writes out the parameters of a slot its kind declares must write
        them as declared (same names, same types, same order): its body reads them by
        name, and `perform` passes what the declaration says."""
        sig = self.slot_signatures.get(card.kind, {}).get(name)
        if sig is None or name in card.bare_slots or params_text(params) == params_text(sig.params):
            return
        self.error(
            span,
            f"card '{card.name}': the header `{name}({params_text(params)})` does not match {card.kind}'s "
            f"`slot {name}({params_text(sig.params)})`, declared at {sig.span}",
            f"write `{name} {{ ... }}`: it takes the declared parameters ({', '.join(p.name for p in sig.params)})"
            if sig.params
            else f"write `{name} {{ ... }}`: it takes no parameters",
        )

    def _slot_signatures(self, decls) -> None:
        """`slot NAME(params)` in an entity: one declaration per slot name, each parameter
        named once and of a known type. A declared slot may be performed even if no card
        has it yet (the cards that do take its parameters)."""
        self.slot_signatures = declared_slots(decls)
        for d in decls:
            if not isinstance(d, ast.Entity):
                continue
            seen: set[str] = set()
            for sig in d.slots:
                if sig.name in seen:
                    first = self.slot_signatures[d.name][sig.name]
                    self.error(sig.span, f"{d.name} declares slot '{sig.name}' twice", f"the first is at {first.span}")
                    continue
                seen.add(sig.name)
                if sig.name in self.fields.get(d.name, {}):
                    self.error(sig.span, f"'{sig.name}' is both a property and a slot of {d.name}", "rename one")
                names: set[str] = set()
                self.slot_types[(d.name, sig.name)] = [self.type_of(p.type) for p in sig.params]
                for p in sig.params:
                    if p.name in names or p.name == "self":
                        what = "is `self`, the card itself" if p.name == "self" else "is named twice"
                        self.error(p.span, f"slot '{sig.name}': parameter '{p.name}' {what}", "rename it")
                    names.add(p.name)
                self.slot_arity.setdefault(sig.name, set()).add(len(sig.params))

    def _components(self, decls) -> None:
        """Generates and cards: their properties' values, slots and names."""
        self._slot_signatures(decls)
        declared_kinds = set(self.fields)  # by an entity or a table: their cards' properties are checked
        for d in decls:
            if isinstance(d, ast.Card) and d.kind not in declared_kinds and d.extends is None:
                self._undeclared_kind(d, declared_kinds)
            if isinstance(d, ast.Var) and d.zone:
                t = d.type
                while isinstance(t, ast.MapType):
                    t = t.value
                t = t.inner if isinstance(t, ast.OptionalType) else t
                t = t.element if isinstance(t, ast.ListType) else t
                if not (isinstance(t, ast.NamedType) and t.name in self.fields):
                    self.error(
                        d.span,
                        f"a zone holds components of an entity kind, not {show(self.vars[d.name][1])}",
                        f"declare it as `var {d.name}: list KIND` or `var {d.name}: player -> list KIND`",
                    )
            if isinstance(d, ast.Generate):
                if d.kind not in self.fields:
                    self.error(d.span, f"unknown component kind '{d.kind}'", did_you_mean(d.kind, self.fields))
                    continue
                scope: dict[str, Any] = {}
                self._where = {}
                for name, e in d.iterators:  # a loop's list may use the loops before it
                    self._generating = True  # an empty range here makes no component: an error
                    try:
                        self.expr(e, scope)
                    finally:
                        self._generating = False
                    scope[name] = ANY
                    self.bind(name, d.span, ANY)
                self.expr(d.name_template, scope)
                for fv in d.values:
                    self._field_value(d.kind, fv, scope)
            elif isinstance(d, ast.Card):
                for slot_name, _, span, params in d.slots:
                    self.slot_arity.setdefault(slot_name, set()).add(len(params))
                    self._slot_matches(d, slot_name, span, params)
                for fv in d.props:
                    if d.kind in declared_kinds:
                        self._field_value(d.kind, fv, {})
                    else:
                        self.expr(fv.value, {})
                    self.fields.setdefault(d.kind, {}).setdefault(fv.name, ANY)
                for f in ("title", "text"):
                    self.fields.setdefault(d.kind, {})[f] = STR
                if d.extends is None:  # a table's row is named by the table
                    self._constant(d.name, Named(d.kind), d.span)

    def _undeclared_kind(self, d: ast.Card, declared: set[str]) -> None:
        """A card of a kind no entity or table declares makes a kind of its own, whose
        components no rule of the declared kinds reaches (a deck dealt from `members(Crop)`
        never holds a `: Corp` card). A kind named like a declared one (`Corp` for `Crop`),
        or a card naming no kind whose properties are all a declared kind's, is that slip."""
        kinds = sorted(k for k in declared if k in self.entities)
        if d.has_kind:
            close = difflib.get_close_matches(d.kind, kinds, n=1, cutoff=0.7)
            if close:
                self.error(
                    d.span,
                    f"card '{d.name}' is of kind '{d.kind}', which no entity declares: a kind of its own, "
                    f"which no rule of {close[0]} reaches",
                    f"did you mean `: {close[0]}`?",
                )
            return
        given = {fv.name for fv in d.props}
        fitting = [k for k in kinds if given and given <= set(self.fields[k])]
        if fitting and "Card" not in self.entities:
            self.error(
                d.span,
                f"card '{d.name}' names no kind, so it is a Card, which no rule of {' or '.join(fitting)} reaches",
                f'write its kind: `card {d.name} "{d.title}" : {fitting[0]}`',
            )

    def _option_roles(self) -> None:
        """`N players when OPTION == VALUE: [...]`: the option must be declared, the value a
        constant of its type, and N a player count of the game, so that a typo is a clear
        error at the header rather than a role list silently never used."""
        h = self.program.header
        for count, _, option, value in h.option_roles:
            if option not in self.options:
                self.error(h.span, f"roles: unknown option '{option}'", did_you_mean(option, self.options))
            elif value not in self.constants or self.constants[value] != self.options[option]:
                self.error(
                    h.span, f"roles: '{value}' is not a value of option '{option}' ({show(self.options[option])})"
                )
            if not h.min_players <= count <= h.max_players:
                self.error(h.span, f"roles: {count} players is outside {h.min_players}..{h.max_players}")
        for _, also in h.present:  # `with [...]`: seats in play that nobody plays
            for seat in also:
                if seat not in h.seats:
                    hint = did_you_mean(seat, h.seats) or "name a seat of `seats [...]`"
                    self.error(h.span, f"roles: `with` names '{seat}', which is not a seat", hint)

    def _not_builtin(self, name: str, span, what: str, params: int) -> None:
        """A def, query or procedure named like a built-in function and taking as many
        arguments (`def count(p: player) = ...`) would be called in its place by every
        `count(...)` of the game, the included game's too: a warning at the declaration. One
        of another arity (Downfall of Empires' `def row()`, no grid's `row(c)`) is no such
        trap: a call meant for the built-in would not fit it."""
        if name not in _GENERIC:
            return  # a grid's or a map's (`row`, `neighbours`): a game without one may use the word
        arity = BUILTINS[name].arity if name in BUILTINS else SPECIAL.get(name)
        if arity is not None and arity[0] <= params <= arity[1]:
            # a warning: the language allows it (the def is called, tests/compile/test_names.py);
            # an error where the rules call it as the built-in (`_at_shadowing`)
            self._shadowing[name] = span
            self.warn(
                span,
                f"'{name}' is a built-in function: a {what} of that name would take its place in every rule",
                f"name it for what it counts or gives, e.g. '{name}_of' or 'my_{name}'",
            )

    def _name_ok(self, name: str, span, what: str) -> None:
        # These words may follow a `choose`, so a statement cannot start with them.
        if name in ("label", "prompt", "optional", "secret"):
            self.error(
                span,
                f"'{name}' is a keyword and cannot name a {what}",
                f"choose another name, e.g. '{name}_'",
            )

    def _constant(self, name: str, typ: Type, span) -> None:
        if name in self.constants and self.constants[name] != typ:
            self.error(
                span,
                f"'{name}' already names a {show(self.constants[name])}",
                "names of seats, enum members and components must be unique",
            )
        self.constants[name] = typ
        self.declared["const:" + name] = span

    def _generated_names(self) -> None:
        pass

    def _table_rows(self) -> None:
        """Each row of a table is a component: its name is a constant of the entity."""
        for t in self.program.tables:
            d = t.decl
            if not isinstance(d, ast.DataTable):
                continue
            if d.kind not in self.entities:
                hint = did_you_mean(d.kind, self.entities) or f"declare it: entity {d.kind} {{ ... }}"
                self.error(d.span, f"a table fills an entity, and '{d.kind}' is not one", hint)
                continue
            for f in ("title", "text"):
                self.fields[d.kind].setdefault(f, STR)
            for row in t.live():
                other = self.constants.get(row.name)
                if other is not None and other != Named(d.kind):
                    rename = f'named by {d.name_column} with "{row.text}" as {row.name}_{d.kind.lower()}'
                    self.error(
                        row.span,
                        f"the row '{row.text}' would be named '{row.name}', which already names a {show(other)}",
                        f"name it another way: {rename}",
                    )
                    continue
                self._constant(row.name, Named(d.kind), row.span)

    def _every_component_complete(self) -> None:
        """Every component of an entity has every property its entity needs, so no read of
        one can fail at run time: a property of an optional type (`T?`) is none where it is
        not given; any other must be given by each table row (a column, or the card that
        extends the row), each card and each generate. A card of a kind no entity declares
        is checked where its properties are read (`_lacking`)."""
        required = {
            name: [f.name for f in e.fields if not isinstance(f.type, ast.OptionalType)]
            for name, e in self.entities.items()
        }
        extending = {d.name: d for d in self.program.decls if isinstance(d, ast.Card) and d.extends is not None}
        for t in self.program.tables:
            d = t.decl
            if not isinstance(d, ast.DataTable) or d.kind not in required:
                continue
            columns = {c.prop for c in d.columns}
            bare: dict[str, list[str]] = {}  # property -> rows that no card completes
            for row in t.live():
                card = extending.get(row.name)
                given = columns | ({fv.name for fv in card.props} if card else set())
                missing = [f for f in required[d.kind] if f not in given]
                if not missing:
                    continue
                if card is not None:
                    self.error(
                        card.span,
                        f"card '{card.name}' gives no {_names(missing)}: a {d.kind} needs "
                        f"{'it' if len(missing) == 1 else 'them'}, and its row ({t.sheet.name}:{row.row.line}) "
                        "has no column for it",
                        self._give_it(card, d.kind, missing[0]),
                    )
                    continue
                for f in missing:
                    bare.setdefault(f, []).append(row.name)
            for f, rows in bare.items():
                shown = ", ".join(rows[:3]) + (f" and {len(rows) - 3} more" if len(rows) > 3 else "")
                self.error(
                    d.span,
                    f"table {d.kind} reads no column for {d.kind}.{f}, and no card gives it to {shown}",
                    f"read it from a column, give it in a card for each row, or declare it optional (`{f}: T?`)",
                )
        for d in self.program.decls:
            if isinstance(d, ast.Card) and d.extends is None:
                given = {fv.name for fv in d.props}
                if d.kind not in required:
                    self.card_props.setdefault(d.kind, []).append((d, given))
                    continue
                missing = [f for f in required[d.kind] if f not in given]
                if missing:
                    self.error(
                        d.span,
                        f"card '{d.name}' gives no {_names(missing)}: every {d.kind} needs "
                        f"{'it' if len(missing) == 1 else 'them'}",
                        self._give_it(d, d.kind, missing[0]),
                    )
            elif isinstance(d, ast.Generate) and d.kind in required:
                given = {fv.name for fv in d.values}
                missing = [f for f in required[d.kind] if f not in given]
                if missing:
                    self.error(
                        d.span,
                        f"this generate gives no {_names(missing)}: every {d.kind} needs "
                        f"{'it' if len(missing) == 1 else 'them'}",
                        f"write `{missing[0]} = ...` in it, or declare it optional (`{missing[0]}: T?`)",
                    )

    def _give_it(self, card: ast.Card, kind: str, prop: str) -> str:
        """The fix for a card that lacks a property its kind needs: give it in the card; or
        declare it optional in the entity, offered only where the entity is in the card's
        own file (an entity of an included game is every one of its components' kind: to
        loosen it there would change the game's own rules, not this card)."""
        entity = self.entities.get(kind)
        if entity is None or entity.span.path != card.span.path:
            return f"write `{prop} ...` in the card (every {kind} of the game gives it)"
        return (
            f"write `{prop} ...` in the card, or declare it optional in `entity {kind}` "
            f"(`{prop}: T?`) so a component without it has none"
        )

    def _given_as_rows_give(self) -> None:
        """A card of an entity that a table fills gives every property the table reads from
        a column of its own, an optional one too: a row's empty cell is a none written down, and a card written
        without the property would be none unseen (a card without `block` printed as
        "[2 none]"). `block none` says so where a card has none."""
        read: dict[str, tuple[ast.DataTable, dict[str, str]]] = {}
        for t in self.program.tables:
            d = t.decl
            if isinstance(d, ast.DataTable) and d.kind in self.entities and d.kind not in read:
                # a column of the property's own name: a property read from another one
                # (`promo = epoch with ...`) is derived from it, not stated by each row
                read[d.kind] = (d, {c.prop: c.column for c in d.columns if c.column == c.prop})
        optional = {
            k: {f.name for f in e.fields if isinstance(f.type, ast.OptionalType)} for k, e in self.entities.items()
        }
        for d in self.program.decls:
            if not (isinstance(d, ast.Card) and d.extends is None and d.kind in read):
                continue
            table, columns = read[d.kind]
            given = {fv.name for fv in d.props}
            missing = [p for p in columns if p in optional[d.kind] and p not in given]
            if missing:
                self.error(
                    d.span,
                    f"card '{d.name}' gives no {_names(missing)}: each {d.kind} of table {table.path} gives "
                    f"{'it' if len(missing) == 1 else 'them'} (column {columns[missing[0]]})",
                    f"write `{missing[0]} ...` in the card, or `{missing[0]} none` if it has none",
                )

    def _lacking(self, e: ast.Member, kind: str, scope) -> None:
        """A read of a property of a card kind no entity declares: every card the object can
        be (all the kind's cards; one card for `self` in a card or a card named outright)
        must give it, or the read fails at run time."""
        cards = self.card_props.get(kind)
        if not cards or e.name in ("title", "text"):
            return
        if isinstance(e.obj, ast.Name):
            if e.obj.id == "self" and self.card_now is not None:
                cards = [(c, g) for c, g in cards if c is self.card_now]
            elif e.obj.id not in scope:
                cards = [(c, g) for c, g in cards if c.name == e.obj.id] or cards
        lacking = [c for c, given in cards if e.name not in given]
        if lacking:
            c = lacking[0]
            others = len(lacking) - 1
            more = f" (and {others} other {kind} card{'s' if others > 1 else ''})" if others else ""
            self.error(
                e.span,
                f"{kind}.{e.name} is read here, but card '{c.name}' at {c.span}{more} has no {e.name}",
                f"give every {kind} a `{e.name}`, or declare `entity {kind} {{ {e.name}: T? }}` "
                "so a card without it has none",
            )

    def _table(self, d: ast.DataTable) -> None:
        """Each column is read as a property the entity declares, of a type a cell can hold."""
        entity = self.entities.get(d.kind)
        if entity is None:
            return
        types = {f.name: f.type for f in entity.fields}
        read: set[str] = set()
        for c in d.columns:
            if c.prop in read:
                self.error(c.span, f"{d.kind}.{c.prop} is read twice", "read each property from one column")
            read.add(c.prop)
            if c.prop == "title":
                self.error(c.span, "the title comes from `named by` (or `titled by`)", "remove this line")
                continue
            if c.prop not in self.fields[d.kind]:
                hint = did_you_mean(c.prop, self.fields[d.kind]) or f"declare it in `entity {d.kind}`"
                self.error(c.span, f"{d.kind} has no property '{c.prop}'", hint)
                continue
            if c.prop in types and not tableable(types[c.prop]):
                self.error(
                    c.span,
                    f"a cell cannot hold {d.kind}.{c.prop}: {show(self.fields[d.kind][c.prop])}",
                    "a cell holds int, bool, str, an enum, a component, a player, `T?` or `list T`",
                )
                continue
            t = self.fields[d.kind][c.prop]
            listed = is_list(strip(t))
            if c.separator is not None and not listed:
                self.error(c.span, f"`separated by` splits a list, and {d.kind}.{c.prop} is {show(t)}")
            if c.separator == "":
                self.error(c.span, "a separator cannot be empty", 'for example separated by ";"')
            want = inner.item if isinstance(inner := strip(t), ListOf) else t
            for r in c.readings:
                got = self.expr(r.value, {})
                if not fits(got, want):
                    self.error(
                        r.value.span,
                        f'{d.kind}.{c.prop} is {show(t)}: "{r.text}" cannot be read as {show(got)}',
                        f"make it optional (`{c.prop}: {show(want)}?`) to read a cell as none" if got == NONE else None,
                    )

    def _field_value(self, kind: str, fv: ast.FieldValue, scope) -> None:
        fields = self.fields[kind]
        if self._unknown_member(kind, fv, scope):
            return
        t = self.expr(fv.value, scope)
        if fv.name not in fields:
            entity = self.entities.get(kind)
            elsewhere = entity is not None and entity.span.path != fv.span.path
            self.error(
                fv.span,
                f"{kind} has no property '{fv.name}'",
                did_you_mean(fv.name, fields)
                # An included game's entity is every one of its components' kind: not this card's to change.
                or (
                    f"a {kind} gives only the properties `entity {kind}` declares, at {entity.span}"
                    if elsewhere and entity is not None
                    else f"declare it in `entity {kind}`"
                ),
            )
        elif not fits(t, fields[fv.name]) and not self.none_misfit(
            fv.value, t, fields[fv.name], f"{kind}.{fv.name} is {show(fields[fv.name])}"
        ):
            want = fields[fv.name]
            self.error(
                fv.value.span, f"{kind}.{fv.name} is {show(want)}, not {show(t)}", self._literal_hint(fv.value, want)
            )

    def _unknown_member(self, kind: str, fv: ast.FieldValue, scope) -> bool:
        """A property of a finite type (`epoch early` where Epoch is pre or post) given a
        name that is nothing: an error naming the type's members, the nearest first (the
        nearest of every name the game knows may be of another type altogether)."""
        want = self.fields[kind].get(fv.name)
        e = fv.value
        if want is None or not isinstance(e, ast.Name):
            return False
        n = e.id
        if n in scope or n in self.vars or n in self.options or n in self.constants or n in self.defs:
            return False
        if n in ("players", "true", "false", "none"):
            return False
        inner = strip(want)
        members = [m for m, t in self.constants.items() if t == inner]
        if not members or len(members) > 30:
            return False
        listed = ", ".join(members)
        self.error(
            e.span,
            f"unknown name '{n}': {kind}.{fv.name} is {show(want)}, one of {listed}",
            did_you_mean(n, members) or f"write one of {listed}",
        )
        return True

    def _literal_hint(self, e, want: Type) -> str | None:
        """The fix of a value written as another type: `"false"` for false, `91` for "91",
        a seat `west` for the member `West` of the enum wanted."""
        inner = strip(want)
        if isinstance(e, ast.Str) and all(isinstance(p, str) for p in e.parts):
            text = "".join(str(p) for p in e.parts)
            if inner == BOOL and text in ("true", "false") or inner == INT and text.lstrip("-").isdigit():
                return f"write it without quotes: {text}"
        if isinstance(e, ast.Int) and inner == STR:
            return f'a text is in quotes: "{e.value}"'
        if isinstance(e, ast.Name):
            same = [m for m, t in self.constants.items() if t == inner and m.lower() == e.id.lower() and m != e.id]
            if same:
                return (
                    f"did you mean `{same[0]}`, a {show(inner)}? (`{e.id}` is a {show(self.constants.get(e.id, ANY))})"
                )
        return None

    def _params(self, params) -> dict[str, Any]:
        """A scope of parameters by name, each of its declared type (a `T?` noted as such)."""
        scope = {p.name: _noted(self.type_of(p.type), f"parameter `{p.name}` is declared `{{t}}`") for p in params}
        for p in params:
            self.bind(p.name, p.span, scope[p.name], "parameter")
        return scope

    def type_of(self, t: ast.TypeExpr) -> Type:
        if isinstance(t, ast.NamedType):
            if t.name not in self.types:
                self.error(t.span, f"unknown type '{t.name}'", did_you_mean(t.name, self.types))
                return ANY
            return self.types[t.name]
        if isinstance(t, ast.ListType):
            return lst(self.type_of(t.element))
        if isinstance(t, ast.OptionalType):
            return opt(self.type_of(t.inner))
        self.error(t.span, "a map type `K -> V` is allowed only as a variable's type")
        return ANY

    def declaration(self, d) -> None:
        """Check one declaration's body, by its class: `_decl_<Class>` (a declaration with
        nothing more to check once its name is known has no method)."""
        check = getattr(self, "_decl_" + type(d).__name__, None)
        if check is not None:
            self.narrowed = frozenset()
            self._where = {}
            check(d)

    def _decl_Option(self, d: ast.Option) -> None:
        t = self.expr(d.default, {})
        if not fits(t, self.options[d.name]):
            self.error(
                d.default.span,
                f"option '{d.name}' is {show(self.options[d.name])}, its default is {show(t)}",
            )
        if d.choices is not None:
            self.expr(d.choices, {})

    def _decl_Entity(self, d: ast.Entity) -> None:
        """Its visibility rules and its short form, which read the component's own
        properties by bare name (a use of kind "field")."""
        own = self.fields.get(d.name, {})
        self._bare_fields = set(own)
        try:
            for f in d.fields:
                if f.visible is not None:
                    scope = {"self": Named(d.name), "viewer": opt(PLAYER), **own}
                    self._where = {"self": d.span}
                    self.cond(f.visible, scope, "a `visible when` condition")
            if d.short is not None:
                self._where = {"self": d.span}
                for p in d.short.parts:
                    if not isinstance(p, str):
                        self.expr(p, {"self": Named(d.name), **own})
        finally:
            self._bare_fields = set()

    def _decl_Var(self, d: ast.Var) -> None:
        t = self.expr(d.default, {})
        want = self.vars[d.name][1]
        empty = t in (lst(ANY), lst(NONE))  # `[]`: a list of whatever the variable's lists hold
        if not fits(t, want) and not (empty and (is_list(want) or want == ANY)):
            # `var won: player -> int = []`: an empty list for a number, which play reads
            # as a number only when it first adds to it (`cannot join a number to a list`)
            hint = self._literal_hint(d.default, want)
            held = strip(want)
            if empty and hint is None and held in (INT, BOOL, STR):
                start = "0" if held == INT else "false" if held == BOOL else '""'
                hint = f"start it at {start}" + (", or declare it a list: `list ...`" if held == INT else "")
            if t == NONE and hint is None:
                hint = f"declare it `{show(want)}?` so that it may be none, or start it at a {show(want)}"
            given = "`[]`, a list" if empty else show(t)
            self.error(d.default.span, f"'{d.name}' holds {show(want)}, its starting value is {given}", hint)
        if d.bounds is not None:
            if strip(want) not in (INT, lst(INT)):
                self.error(
                    d.span,
                    f"bounds `from {d.bounds[0]} to {d.bounds[1]}` are for numbers; '{d.name}' holds {show(want)}",
                    "bound a variable of int, int? or list int (or a map of these)",
                )
            elif isinstance(d.default, ast.Int) and not d.bounds[0] <= d.default.value <= d.bounds[1]:
                self.error(
                    d.default.span,
                    f"'{d.name}' starts at {d.default.value}, outside its bounds {d.bounds[0]} to {d.bounds[1]}",
                )

    def _decl_Invariant(self, d: ast.Invariant) -> None:
        self.expect(d.value, {}, BOOL, "an invariant")

    def _decl_Grid(self, d: ast.Grid) -> None:
        for e in (d.columns, d.rows):
            self.expect(e, {}, INT, "a grid's size")

    def _decl_Def(self, d: ast.Def) -> None:
        scope = self._params(d.params)
        self.def_types[d.name] = t = self.expr(d.body, scope)
        step = _EXPECT.fullmatch(d.name)
        if step and not fits(t, BOOL):
            # `expect score[north]`: a number is no condition; `gamedef test` would fail it whatever came
            word = "reach" if self._test_step_kind(int(step.group(1)), int(step.group(2))) == "until" else "expect"
            self.error(
                d.body.span,
                f"`{word}` takes a condition (true or false), and `{_written(d.body)}` is {show(t)}",
                f"say what it must be: `{word} {_written(d.body)} == VALUE`",
            )

    def _test_step_kind(self, test: int, step: int) -> str:
        """The kind of step `step` of the program's test number `test` (language/testcode.py)."""
        tests = self.program.tests
        steps = tests[test].steps if test < len(tests) else ()
        return steps[step].kind if step < len(steps) else ""

    def _decl_Query(self, d: ast.Query) -> None:
        scope = self._params(d.params)
        want = self.type_of(d.type)
        t = self.expr(d.base, scope)
        if not fits(t, want) and not self.none_misfit(d.base, t, want, f"query '{d.name}' is {show(want)}"):
            self.error(d.base.span, f"query '{d.name}' is {show(want)}, its base value is {show(t)}")

    def _decl_StaticModifier(self, d: ast.StaticModifier) -> None:
        self.static_modifier(d, None)

    def _decl_Procedure(self, d: ast.Procedure) -> None:
        scope = self._params(d.params)
        self._cited(d.body, d.span, f"procedure {d.name}")
        self.result, self.result_of = self.results.get(d.name), d.name
        if d.result is not None and d.name in ("play", "setup"):
            self.error(
                d.result.span,
                f"`{d.name}()` cannot return a value: nothing calls it",
                "remove the result type; report through a `var`, or end with `win` / `game over`",
            )
            self.result = None
        if _ARRANGE.fullmatch(d.name):
            self._arrange_asks(d)
        if d.params and d.name in ("play", "setup"):
            # the engine starts the game by these, with nothing to give them: a parameter is none
            self.error(
                d.params[0].span,
                f"`{d.name}()` cannot take parameters: the game starts it with none to give",
                "remove them; read what they would give from a `var` or an `option`"
                + (" (a player count: `count(players)`)" if d.name == "setup" else ""),
            )
        self.block(d.body, scope, 0)
        self.local_types[d.name] = scope
        if self.result is not None and not ends(d.body):
            self.error(
                d.span,
                f"procedure '{d.name}' returns {show(self.result)}, but the end of its body can be reached",
                "end every path with `return VALUE` (an `if` needs an `else` that returns too)",
            )
        self.result = None

    def _arrange_asks(self, d: ast.Procedure) -> None:
        """A test's `arrange` that asks a decision or ends the game (`choose`, `may`, `win`,
        `game over`, or a call of a procedure that does): `gamedef test` stops there, as an
        arrangement only sets the position. An error at the statement."""
        asks = (ast.Choose, ast.May, ast.Win, ast.GameOver)
        memo: dict[str, bool] = {}

        def proc_asks(name: str) -> bool:
            if name not in memo:
                memo[name] = False  # a recursion asks nothing more than its first visit finds
                body = self.procs[name].body
                memo[name] = any(ast.find_all(body, k) for k in asks) or any(
                    c.func in self.procs and proc_asks(c.func) for c in ast.find_all(body, ast.Call)
                )
            return memo[name]

        for s in d.body:
            direct = next((n for k in asks for n in ast.find_all(s, k)), None)
            called = next((c for c in ast.find_all(s, ast.Call) if c.func in self.procs and proc_asks(c.func)), None)
            if direct is None and called is None:
                continue
            if direct is not None:
                word = {ast.Choose: "choose", ast.May: "may", ast.Win: "win"}.get(type(direct), "game over")
                at, what = direct.span, f"`{word}` in an `arrange` asks a decision or ends the game"
            else:
                assert called is not None
                at, what = called.span, f"'{called.func}', called in an `arrange`, asks a decision or ends the game"
            self.error(
                at,
                f"{what}: an arrangement only sets the position",
                'set the position with assignments in `arrange`; play decisions with `play "LABEL"`, or write '
                "the statements in a `run { ... }` block",
            )
            return

    def _decl_Trigger(self, d: ast.Trigger) -> None:
        self.trigger(d, None)

    def _decl_Payoff(self, d: ast.Payoff) -> None:
        self.bind(d.var, d.span, PLAYER)
        self.expect(d.value, {d.var: PLAYER}, INT, "a payoff")

    def _decl_Estimate(self, d: ast.Estimate) -> None:
        self.bind(d.var, d.span, PLAYER)
        self.expect(d.value, {d.var: PLAYER}, INT, "an estimate")

    def _decl_View(self, d: ast.View) -> None:
        check_view(self, d, self.program.decls)

    def _decl_Card(self, d: ast.Card) -> None:
        self.card_now = d
        try:
            self._card_body(d)
        finally:
            self.card_now = None

    def _decl_DataTable(self, d: ast.DataTable) -> None:
        self._table(d)

    def _decl_Link(self, d: ast.Link) -> None:
        for name in (d.node, *d.others):
            if name not in self.constants:
                self.error(d.span, f"unknown node '{name}'", did_you_mean(name, self.constants))

    def _card_body(self, d: ast.Card) -> None:
        """A card's triggers, modifiers, hooks and slots, `self` the card."""
        self._card_cited(d)
        for t in d.triggers:
            self.trigger(t, Named(d.kind))
        for m in d.statics:
            self.static_modifier(m, Named(d.kind))
        for hook in d.leaves:
            var = self.vars.get(hook.var)
            if var is None or var[0] or not is_list(var[1]):
                self.error(
                    hook.span,
                    f"`when self leaves {hook.var}` needs a list variable",
                    did_you_mean(hook.var, self.vars) if var is None else "declare it as `var NAME: list T = []`",
                )
            else:
                self.used.add("var:" + hook.var)
            self.narrowed = frozenset()
            self._where = {"self": d.span}
            self.block(hook.body, {"self": Named(d.kind)}, 0)
        for name, body, _span, params in d.slots:
            self._slot_performed(d, name, _span, body)
            sig = self.slot_signatures.get(d.kind, {}).get(name)  # a wrong header is one error, at it:
            declared = sig.params if sig is not None else ()  # its body may use the declared parameters
            scope = {"self": Named(d.kind), **{p.name: self.type_of(p.type) for p in declared + params}}
            self._where = {"self": d.span}
            for p in declared + params:
                self.bind(p.name, p.span, scope[p.name], "parameter")
            self.narrowed = frozenset()
            self._stray_params, self._stray_told = self._stray_slot_params(d, name, params, set(scope)), False
            self._slot_now = (name, d.kind, list(dict.fromkeys(p.name for p in declared + params)), sig)
            try:
                self.block(body, scope, 0)
            finally:
                self._stray_params = {}
                self._slot_now = None

    def _performed_slots(self) -> set[str]:
        """The slot names some `perform X.NAME(...)` of the program (or of its tests) names."""
        if self._performed is None:
            self._performed = {
                n.slot for n in ast.walk((self.program.decls, self.program.tests)) if isinstance(n, ast.Perform)
            }
        return self._performed

    def _slot_performed(self, d: ast.Card, name: str, span, body) -> None:
        """A card's slot that no rule performs never runs: `efect { ... }` for the `effect`
        every rule performs is a card whose text does nothing, whatever its body says.
        An error where a performed or declared slot has a close name (a slip), else a warning.
        A body that reads a parameter of the close slot hears of the slip there instead
        (`_stray_slot_params`), once."""
        own = self.slot_signatures.get(d.kind, {})
        if name in self._performed_slots() or name in own:
            return
        known = self._performed_slots() | set(own)
        close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
        if close and close[0] in own:
            read = {n.id for n in ast.walk(body) if isinstance(n, ast.Name)}
            if read & {p.name for p in own[close[0]].params}:
                return
        message = f"card '{d.name}': no rule performs a slot `{name}`, so its code never runs"
        if close:
            self.error(span, message, f"did you mean `{close[0]}`? (rules `perform` it: `perform c.{close[0]}(...)`)")
        else:
            self.warn(span, message, f"perform it where it applies: `perform {d.name}.{name}(...)`")

    def _stray_slot_params(self, d: ast.Card, name: str, params, bound: set[str]) -> dict[str, tuple[str, str]]:
        """The parameters a declared `slot` would give this card's slot `name` but that are
        not in force in it, each with why and how to fix it: the kind declares a slot of a
        close name (`efect { ... }` for `slot effect(...)`), or another kind declares
        `slot name(...)` and this card is not of it (no kind written, the wrong kind, or a
        header of its own). A body that reads `s` then hears that, not "did you mean
        'us'?", a seat constant that would compile and mean another thing."""
        own = self.slot_signatures.get(d.kind, {})
        if name in own:  # the kind declares the slot: a name it lacks is an ordinary unknown name
            return {}
        stray: dict[str, tuple[str, str]] = {}
        close = difflib.get_close_matches(name, sorted(own), n=1, cutoff=0.6)
        if close:
            sig = own[close[0]]
            for p in sig.params:
                stray.setdefault(
                    p.name,
                    (
                        f"card '{d.name}' is a {d.kind}, which declares no `slot {name}`, "
                        f"so its `{name}` has no parameter '{p.name}'",
                        f"'{p.name}' is a parameter of {d.kind}'s `slot {sig.name}({params_text(sig.params)})`, "
                        f"declared at {sig.span}: one of the two names is misspelt (write `{sig.name} {{ ... }}` "
                        f"here, or `slot {name}(...)` there)",
                    ),
                )
        others = [(k, sigs[name]) for k, sigs in self.slot_signatures.items() if k != d.kind and name in sigs]
        if name not in d.bare_slots:
            why = f"the header `{name}({params_text(params)})` of card '{d.name}' has no parameter"
        elif d.has_kind or d.extends is not None:
            why = f"card '{d.name}' is a {d.kind}, which declares no `slot {name}`, so its `{name}` has no parameter"
        else:
            why = f"card '{d.name}' names no kind, so its `{name}` has no parameter"
        for p_name in dict.fromkeys(p.name for _, sig in others for p in sig.params):
            if p_name in bound or p_name in stray:
                continue
            kinds = [(k, sig) for k, sig in others if any(p.name == p_name for p in sig.params)]
            declared = " and of ".join(
                f"{k}'s `slot {name}({params_text(sig.params)})`, declared at {sig.span}" for k, sig in kinds
            )
            kind, sig = kinds[0]
            if name in d.bare_slots:
                header = f"write the parameters in its header, `{name}({params_text(sig.params)}) {{ ... }}`"
            else:
                added = params + tuple(p for p in sig.params if p.name == p_name)
                header = f"add it to its header, `{name}({params_text(added)}) {{ ... }}`"
            if d.extends is not None:  # a table's row: its kind is the table's
                fix = header
            else:
                title = f' "{d.title}"' if d.has_title else ""
                fix = f"if it is a {kind}, write `card {d.name}{title} : {kind}`; else {header}"
            stray[p_name] = (f"{why} '{p_name}'", f"'{p_name}' is a parameter of {declared}: {fix}")
        return {n: told for n, told in stray.items() if n not in bound}

    def _card_cited(self, d: ast.Card) -> None:
        """A card whose rules (its effect and other slots, its triggers) cite no rulebook
        section anywhere: a warning at the first of them. One citation serves the card (a
        second trigger of the same ability need not repeat it); a card that is only data
        has nothing to cite."""
        bodies = [(span, f"{name}") for name, body, span, _ in d.slots if body]
        bodies += [(t.span, f"trigger `when {t.event}`") for t in d.triggers if t.body]
        every = [body for _, body, _, _ in d.slots] + [t.body for t in d.triggers]
        if not bodies or any(isinstance(s, ast.Cite) for body in every for s in body):
            return
        span, what = min(bodies, key=lambda b: (b[0].line, b[0].column))
        self.warn(
            span,
            f"card {d.name}'s {what} cites no rulebook section",
            'add `rule "Section"` as its first line: the card\'s number and title, and what its text does '
            "(docs/architecture.md, principle 6)",
        )

    def _cited(self, body, span, what: str) -> None:
        if not any(isinstance(s, ast.Cite) for s in body):
            self.error(
                span,
                f"{what} cites no rulebook section",
                'add `rule "Section"` as its first line (docs/architecture.md, principle 6)',
            )

    def _event(self, name: str, span):
        """The declared event called `name`, or None after reporting it unknown."""
        event = self.events.get(name)
        if event is None:
            self.error(
                span, f"unknown event '{name}'", did_you_mean(name, self.events) or f"declare it: event {name}(...)"
            )
        return event

    def static_modifier(self, m: ast.StaticModifier, self_kind: Type | None) -> None:
        scope: dict[str, Any] = {"self": self_kind} if self_kind is not None else {}
        self._where = {"self": self.card_now.span} if self.card_now is not None else {}
        self.cond(m.condition, scope, "a modifier's `while` condition")
        self.narrowed = _facts(m.condition, True, self._facts_memo)  # in force only while it holds
        self.modifier(m.modifier, scope)
        self.narrowed = frozenset()

    def modifier(self, m: ast.Modifier, scope: dict) -> None:
        """A modifier names a query and binds its arguments; its value fits the query."""
        q = self.queries.get(m.query)
        if q is None:
            hint = did_you_mean(m.query, self.queries)
            if m.query in self.defs:
                hint = f"'{m.query}' is a def: declare it as a `query` so cards can change it"
            self.error(m.span, f"unknown query '{m.query}'", hint or "declare it: query NAME(params): type = base")
            return
        self.used.add("query:" + m.query)
        if len(m.names) != len(q.params):
            self.error(
                m.span,
                f"query '{m.query}' takes {len(q.params)} argument{'s' if len(q.params) != 1 else ''}, "
                f"this modifier names {len(m.names)}: {q.name}({params_text(q.params)})",
                f"it is declared at {q.span}",
            )
        inner = dict(scope)
        kept_where = dict(self._where)
        for n, p in zip(m.names, q.params):
            inner[n] = self.type_of(p.type)
            self.bind(n, m.span, inner[n], "parameter")
        want = self.type_of(q.type)
        if m.op in ("forbid", "allow") and want != BOOL:
            self.error(m.span, f"`{m.op}` changes a true/false query; '{m.query}' is {show(want)}")
        if m.op in ("+", "-") and want != INT:
            self.error(m.span, f"`{m.op}=` changes a number; '{m.query}' is {show(want)}", "use `=` to set it")
        kept = self.narrowed
        if m.where is not None:  # its value is read only where its condition holds
            self.cond(m.where, inner, "a modifier's `where` condition")
            self.narrowed = self.narrowed_by(m.where, True)
        if m.value is not None:
            t = self.expr(m.value, inner)
            if not fits(t, want) and not self.none_misfit(m.value, t, want, f"query '{m.query}' is {show(want)}"):
                self.error(m.value.span, f"query '{m.query}' is {show(want)}, this modifier gives {show(t)}")
        self.narrowed = kept
        self._where = kept_where

    def trigger(self, t: ast.Trigger, self_kind: Type | None) -> None:
        self.result = None
        self.narrowed = frozenset()  # nothing known yet: a card's triggers and slots are checked in turn
        scope: dict[str, Any] = {"self": self_kind} if self_kind is not None else {}
        self._where = {"self": self.card_now.span} if self.card_now is not None else {}
        event = self._event(t.event, t.span)
        if event is None:
            for n in t.names:
                scope[n] = ANY
                self.bind(n, t.span, ANY, "parameter")
        else:
            self.used.add("event:" + t.event)
            if len(t.names) != len(event.params):
                self.error(
                    t.span,
                    f"event '{t.event}' has {len(event.params)} "
                    f"parameter{'s' if len(event.params) != 1 else ''}, "
                    f"this trigger names {len(t.names)}: {event.name}({params_text(event.params)})",
                    f"it is declared at {event.span}",
                )
            for n, p in zip(t.names, event.params):
                scope[n] = _noted(self.type_of(p.type), f"event '{t.event}' gives `{n}` as `{{t}}`")
                self.bind(n, t.span, scope[n], "parameter")
        if t.where is not None:
            self.cond(t.where, scope, "a `where` condition")
            self.narrowed = _facts(t.where, True, self._facts_memo)  # the trigger runs only where it holds
        if self_kind is None:
            self._cited(t.body, t.span, f"trigger `when {t.event}`")
        self.block(t.body, scope, 0)

    def _unused(self, decls) -> None:
        before = len(self.diags)
        self._unused_each(decls)
        self.diags[before:] = _fewer_unused(self.diags[before:])

    def _unused_each(self, decls) -> None:
        for d in decls:
            if isinstance(d, ast.Procedure) and d.name not in ("setup", "play") and "proc:" + d.name not in self.used:
                self.warn(d.span, f"procedure '{d.name}' is never called", "call it or remove it")
            elif isinstance(d, ast.Def) and "def:" + d.name not in self.used:
                self.warn(d.span, f"function '{d.name}' is never used", "use it or remove it")
            elif isinstance(d, ast.Event) and d.name not in self.emitted:
                self.warn(d.span, f"event '{d.name}' is never emitted", f"emit {d.name}(...) somewhere")
            elif isinstance(d, ast.Var | ast.Option) and self.warn_unread and self._never_read(d):
                what = "variable" if isinstance(d, ast.Var) else "option"
                self.warn(
                    d.span,
                    f"{what} '{d.name}' is never read",
                    "read it in a rule (a view, a payoff or a test reads it too), or remove it",
                )
        if "play" not in self.procs:
            self.error(
                self.program.header.span,
                "the game has no `procedure play()`",
                "add `procedure play() { ... }`: the turn structure of the game",
            )

    def _never_read(self, d: ast.Var | ast.Option) -> bool:
        """Whether no rule, view, payoff, estimate or test reads variable or option `d`,
        declared in the file checked: the program's own (its `test` blocks' code included,
        checked here), then the test files beside the game, which are not part of it
        (`_read_beside`). A declaration of an included file of the designer's own (a file
        of shared rules beside the game) is theirs too; one of a bundled game or card set
        that the file checked builds on (`include twid`) is that game's business, not the
        designer's: never warned of here."""
        checked = next(iter(self.program.sources), d.span.path)
        if d.span.path != checked and _bundled(d.span.path) and not _bundled(checked):
            return False
        if d.span.path != checked and _bundled(checked):
            return False  # a bundled game's own files: each checked as the game is
        if ("var:" if isinstance(d, ast.Var) else "option:") + d.name in self.used:
            return False
        if self._beside is None:
            self._beside = _read_beside(self.program)
        return d.name not in self._beside

    # ---- statements ---------------------------------------------------------
    def block(self, stmts, scope: dict, loops: int) -> None:
        bound: dict[str, ast.Let] = {}  # the `let`s of this block: a second of one name is a slip
        for s in stmts:
            if isinstance(s, ast.Let):
                first = bound.get(s.name)
                if first is not None:
                    self.warn(
                        s.span,
                        f"'{s.name}' is already a local of this block (`let` at line {first.span.line}): this "
                        "`let` makes another, and what the first held is out of reach from here on",
                        f"to change it, assign it: `{s.name} = ...`; or give this one a name of its own",
                    )
                bound[s.name] = s
            self.stmt(s, scope, loops)
        if self.scope_types:  # every binding's type, not just the last (`local_types`)
            seen = self.table.scopes.setdefault(self.result_of or "", {})
            for name, t in scope.items():
                seen.setdefault(name, set()).add(t)

    def stmt(self, s, scope: dict, loops: int) -> None:
        """Check one statement (`loops`: how many loops enclose it, for `break`), by its
        class: `_stmt_<Class>`. A statement with nothing to check has no method."""
        check = getattr(self, "_stmt_" + type(s).__name__, None)
        if check is not None:
            check(s, scope, loops)

    def _stmt_Let(self, s: ast.Let, scope: dict, loops: int) -> None:
        self._name_ok(s.name, s.span, "local")
        scope[s.name] = self.value_type(s.value, scope)
        self.bind(s.name, s.span, scope[s.name])
        self._forget({s.name}, scope)

    def _stmt_Assign(self, s: ast.Assign, scope: dict, loops: int) -> None:
        self.assign(s, scope)

    def _stmt_If(self, s: ast.If, scope: dict, loops: int) -> None:
        """Each branch knows its condition true and those before it false (`x != none`:
        x is not none in it); after the `if`, what every branch that does not return (or
        end the game) knows at its end: after `if x == none { return }`, x is not none."""
        entry, ruled_out = self.narrowed, frozenset[tuple]()
        ends_with: list[frozenset] = []
        for cond, body in s.branches:
            self.narrowed = entry | ruled_out
            self.cond(cond, scope, "an `if` condition")
            self.narrowed = entry | ruled_out | _facts(cond, True, self._facts_memo)
            self.block(body, scope, loops)
            if _falls_through(body):
                ends_with.append(self.narrowed)
            ruled_out |= _facts(cond, False, self._facts_memo)
        self.narrowed = entry | ruled_out
        if s.otherwise is not None:
            self.block(s.otherwise, scope, loops)
            if _falls_through(s.otherwise):
                ends_with.append(self.narrowed)
        else:
            ends_with.append(self.narrowed)
        self.narrowed = frozenset.intersection(*ends_with) if ends_with else entry

    def _loop(self, body, scope: dict) -> None:
        """Before a loop's body: what it changes is not known at its second turn."""
        names, calls = _changed(body)
        self._forget(None if calls else names, scope)

    def _stmt_While(self, s: ast.While, scope: dict, loops: int) -> None:
        self._loop(s.body, scope)
        self.cond(s.condition, scope, "a `while` condition")
        entry = self.narrowed
        self.narrowed = entry | _facts(s.condition, True, self._facts_memo)
        self.block(s.body, scope, loops + 1)
        self.narrowed = entry | (frozenset() if _breaks(s.body) else _facts(s.condition, False, self._facts_memo))

    def _stmt_For(self, s: ast.For, scope: dict, loops: int) -> None:
        scope[s.var] = self.element(self.expr(s.iterable, scope), s.iterable)
        self.bind(s.var, s.span, scope[s.var])
        self._loop(s.body, scope)
        self._forget({s.var}, scope)
        entry = self.narrowed
        self.block(s.body, scope, loops + 1)
        self.narrowed = entry

    def _stmt_Choose(self, s: ast.Choose, scope: dict, loops: int) -> None:
        scope[s.var] = self.element(self.expr(s.options, scope), s.options)
        self._forget({s.var}, scope)
        self.expect(s.player, scope, PLAYER, "the player who chooses")
        if s.label is not None:  # each option's label: the local is that option
            self.expr(s.label, scope)
        if s.prompt is not None:
            self.expr(s.prompt, scope)
        if s.optional:  # no decision from an empty list: the local is none
            listed = _written(s.options)
            why = f"an `optional` choose gives none when {'its list' if listed == '...' else listed} is empty"
            scope[s.var] = opt(scope[s.var], why)
        self.bind(s.var, s.span, scope[s.var])

    def _stmt_May(self, s: ast.May, scope: dict, loops: int) -> None:
        self.expect(s.player, scope, PLAYER, "the player who may")
        self.expr(s.text, scope)
        if s.prompt is not None:
            self.expr(s.prompt, scope)
        entry = self.narrowed
        self.block(s.body, scope, loops)
        ends_with = [self.narrowed] if _falls_through(s.body) else []
        self.narrowed = entry
        if s.otherwise is not None:
            self.block(s.otherwise, scope, loops)
        if s.otherwise is None or _falls_through(s.otherwise):
            ends_with.append(self.narrowed)
        self.narrowed = frozenset.intersection(*ends_with) if ends_with else entry

    def _stmt_Roll(self, s: ast.Roll, scope: dict, loops: int) -> None:
        scope[s.var] = self.element(self.expr(s.source, scope), s.source)
        self.bind(s.var, s.span, scope[s.var])
        self._forget({s.var}, scope)

    def _stmt_Shuffle(self, s: ast.Shuffle, scope: dict, loops: int) -> None:
        if s.name not in self.vars:
            self.error(
                s.span,
                f"cannot shuffle '{s.name}'",
                did_you_mean(s.name, self.vars) or "shuffle a `var` holding a list",
            )
        else:
            self.used.add("var:" + s.name)
            key_types, val_t = self.vars[s.name]
            t = self._indexed(s.name, key_types, val_t, s.keys, scope, s) if len(s.keys) >= len(key_types) else None
            if t is None or not (t == ANY or is_list(t)):
                self.error(
                    s.span,
                    f"cannot shuffle '{s.name}'" + "[...]" * len(s.keys) + ": not a list",
                    "shuffle a list: a `var` holding one, or an entry of a map of lists",
                )
        self._forget({s.name}, scope)

    def _stmt_Emit(self, s: ast.Emit, scope: dict, loops: int) -> None:
        self.emitted.add(s.event)
        args = [self.expr(a, scope) for a in s.args]
        event = self._event(s.event, s.span)
        if event is not None:
            self.arguments(s, f"event '{s.event}'", [self.type_of(p.type) for p in event.params], args, s.args, event)
        self._forget(None, scope)  # its triggers may change any variable

    def _stmt_Perform(self, s: ast.Perform, scope: dict, loops: int) -> None:
        kind = self.expr(s.entity, scope)
        if s.cancel_event is not None:
            self.stmt(ast.Emit(span=s.span, event=s.cancel_event, args=s.cancel_args), scope, loops)
        args = [self.expr(a, scope) for a in s.args]
        name = kind.name if isinstance(kind := strip(kind), Named) else None
        declared = self.slot_types.get((name, s.slot)) if name is not None else None
        # its kind declares what the slot takes: check the arguments' types too
        if name is not None and declared is not None:
            self.arguments(
                s, f"slot '{name}.{s.slot}'", declared, args, s.args, self.slot_signatures.get(name, {}).get(s.slot)
            )
            self._forget(None, scope)  # the card's effect may change any variable
            return
        arities = self.slot_arity.get(s.slot)
        if arities is None:
            self.error(
                s.span,
                f"no card has a slot '{s.slot}'",
                did_you_mean(s.slot, self.slot_arity) or "declare it in a card: effect { ... }",
            )
        elif len(args) not in arities:
            headers = self._slot_headers(s.slot)
            self.error(
                s.span,
                f"slot '{s.slot}' takes {' or '.join(map(str, sorted(arities)))} argument(s), given {len(args)}"
                + (f": {headers[0][0]}" if headers else ""),
                f"as declared at {headers[0][1]}" + (f" ({len(headers) - 1} more)" if len(headers) > 1 else "")
                if headers
                else None,
            )
        self._forget(None, scope)  # the card's effect may change any variable

    def _slot_headers(self, slot: str) -> list[tuple[str, Span]]:
        """Each way a slot named `slot` is declared, as written, where: an entity's `slot
        NAME(...)` or a card's header (a card writing `NAME { ... }` with no declaration
        takes nothing), one of each parameter list."""
        found: dict[str, Span] = {}
        for kind, sigs in self.slot_signatures.items():
            if slot in sigs:
                found.setdefault(f"`slot {slot}({params_text(sigs[slot].params)})` in entity {kind}", sigs[slot].span)
        for d in self.program.decls:
            if isinstance(d, ast.Card) and slot not in self.slot_signatures.get(d.kind, {}):
                for name, _, span, params in d.slots:
                    if name == slot:
                        found.setdefault(f"`{slot}({params_text(params)})` in card '{d.name}'", span)
        return list(found.items())

    def _stmt_Log(self, s: ast.Log, scope: dict, loops: int) -> None:
        self.expr(s.text, scope)
        a = s.audience
        if isinstance(a, ast.Name) and a.id in ("all", "everyone", "everybody") and a.id not in scope:
            self.error(
                a.span, f"`log to {a.id}`: a `log to` tells one seat", f"`log` alone tells everyone: drop `to {a.id}`"
            )
            return
        if s.audience is not None:
            self.expect(s.audience, scope, PLAYER, "a `log to` audience")

    def _stmt_Win(self, s: ast.Win, scope: dict, loops: int) -> None:
        t = self.expr(s.winners, scope)
        if not (fits(t, PLAYER) or fits(t, lst(PLAYER))) and not self.none_misfit(
            s.winners, t, PLAYER, "`win` takes a player"
        ):
            self.error(s.winners.span, f"`win` takes a player or a list of players, not {show(t)}")

    def _stmt_GameOver(self, s: ast.GameOver, scope: dict, loops: int) -> None:
        t = self.expr(s.winners, scope)
        e = s.winners
        if isinstance(e, ast.Name) and e.id not in scope and self.vars.get(e.id, ((), ANY))[0]:
            keys, val = self.vars[e.id]  # `game over score`: the map read whole, not who has most
            self.error(
                e.span,
                f"`game over` takes a list of winners, and `{e.id}` is a map of {show(val)} by "
                + "][".join(show(k) for k in keys),
                f"the seats with the most: `game over best(players, p => {e.id}[p])`",
            )
            return
        if not fits(t, lst(PLAYER)):
            self.error(
                s.winners.span,
                f"`game over` takes a list of winners, not {show(t)}",
                "write `game over []` for no winner, `game over [p]` for one",
            )

    def _stmt_Require(self, s: ast.Require, scope: dict, loops: int) -> None:
        self.cond(s.condition, scope, "a `require` condition")
        self.expr(s.message, scope)
        self.narrowed |= _facts(s.condition, True, self._facts_memo)  # past it, the condition holds

    def _stmt_Break(self, s: ast.Break, scope: dict, loops: int) -> None:
        if loops == 0:
            self.error(s.span, "`break` outside a loop", "use `return` to leave a procedure")

    def _stmt_Grant(self, s: ast.Grant, scope: dict, loops: int) -> None:
        if s.until is not None and self._event(s.until, s.span) is not None:
            self.used.add("event:" + s.until)
        self.modifier(s.modifier, scope)
        self._forget(None, scope)  # a query's answers change

    def _stmt_Cancel(self, s: ast.Cancel, scope: dict, loops: int) -> None:
        pass  # at run time: an error if no effect is about to resolve

    def _stmt_LinkStmt(self, s: ast.LinkStmt, scope: dict, loops: int) -> None:
        a, b = self.expr(s.a, scope), self.expr(s.b, scope)
        if INT in (a, b) or BOOL in (a, b) or STR in (a, b):
            self.error(s.span, "`link` joins two nodes (components or cells), not numbers or texts")

    def _stmt_Consume(self, s: ast.Consume, scope: dict, loops: int) -> None:
        q = self.queries.get(s.query)
        if q is None:
            self.error(s.span, f"unknown query '{s.query}'", did_you_mean(s.query, self.queries))
        else:
            args = [self.expr(a, scope) for a in s.args]
            self.arguments(s, f"query '{s.query}'", [self.type_of(p.type) for p in q.params], args, s.args, q)
        self._forget(None, scope)

    def _stmt_Return(self, s: ast.Return, scope: dict, loops: int) -> None:
        self.returned(s, scope)

    def _stmt_CallStmt(self, s: ast.CallStmt, scope: dict, loops: int) -> None:
        self.call_procedure(ast.Call(span=s.span, func=s.name, args=s.args), scope)

    def call_procedure(self, s: ast.Call, scope) -> None:
        args = [self.expr(a, scope) for a in s.args]
        proc = self.procs.get(s.func)
        if proc is None:
            hint = did_you_mean(s.func, self.procs)
            if s.func in self.defs:
                hint = f"'{s.func}' is a function (def): use its value in an expression"
            self.error(s.span, f"unknown procedure '{s.func}'", hint)
        else:
            self.used.add("proc:" + s.func)
            self.arguments(s, f"procedure '{s.func}'", [self.type_of(p.type) for p in proc.params], args, s.args, proc)
            self._use(self._name_span(s.span, s.func), s.func, "procedure", proc.span, self.results.get(s.func) or ANY)
        self._forget(None, scope)  # a procedure may change any variable

    def returned(self, s: ast.Return, scope) -> None:
        if s.value is None:
            if self.result is not None:
                self.error(
                    s.span,
                    f"`return` without a value in a procedure that returns {show(self.result)}",
                    "write `return VALUE`",
                )
            return
        if self.result is None:
            call = self.proc_call(s.value)
            if call is not None:
                self.call_procedure(call, scope)
            else:
                self.expr(s.value, scope)
            # A statement after a bare `return` in the same block is read as its value.
            next_line = s.value.span.line > s.span.line
            self.error(
                s.value.span,
                "`return` with a value in a procedure that declares no result",
                "`return` reads the next line as its value: a `return` must end its block"
                if next_line
                else "declare its result type: procedure NAME(...): TYPE { ... }",
            )
            return
        t = self.value_type(s.value, scope)
        if not fits(t, self.result) and not self.none_misfit(
            s.value, t, self.result, f"procedure '{self.result_of}' returns {show(self.result)}"
        ):
            self.error(s.value.span, f"procedure '{self.result_of}' returns {show(self.result)}, not {show(t)}")

    def value_type(self, e, scope):
        """The type of the value of a `let`, an assignment or a `return`: an expression, or
        exactly one call of a procedure that returns a value."""
        call = self.proc_call(e)
        if call is None:
            return self.expr(e, scope)
        self.call_procedure(call, scope)
        result = self.results.get(call.func)
        if result is None:
            self.error(
                e.span,
                f"procedure '{call.func}' returns no value",
                f"declare its result type (procedure {call.func}(...): TYPE) and `return` a value",
            )
            return ANY
        return result

    def proc_call(self, e) -> ast.Call | None:
        """`e` if it is a call of a procedure (not of a function), else None."""
        if isinstance(e, ast.Call) and e.func in self.procs and e.func not in self.defs:
            return e
        return None

    def assign(self, s: ast.Assign, scope) -> None:
        # A variable's reads in its own update (`history[p] = append(history[p], c)`) are
        # not reads by the rules: one only ever updated from itself is never read (but for
        # `_zones`, read by more than the rules).
        own = "var:" + s.name if s.name in self.vars and s.name not in scope and s.name not in self._zones else None
        unread = own is not None and own not in self.used
        value = self.value_type(s.value, scope)
        self._assigned(s, scope, value)
        if own is not None and unread:
            self.used.discard(own)
        self._forget({s.name}, scope)
        target: tuple | None = ("n", s.name)
        for key in s.keys:
            k = _key(key)
            target = None if target is None or k is None else ("i", target, k)
        if target is not None and s.op == "=" and value not in (ANY, NONE) and not is_opt(value):
            self.narrowed |= {target}  # what was just given a value is not none

    def _assigned(self, s: ast.Assign, scope, value) -> None:
        """The value assigned fits what the local or variable holds."""
        at = self._name_span(s.span, s.name)
        if s.name in scope:
            kind = self.table.locals.get(self._where.get(s.name), _LOCAL).kind  # type: ignore[arg-type]
            self._use(at, s.name, kind, self._where.get(s.name), scope[s.name])
            want = self._indexed(s.name, (), scope[s.name], s.keys, scope, s)
            if want is not None and not fits(value, want) and not fits(want, value) and want != NONE:
                self.error(
                    s.value.span, f"'{s.name}' holds {show(want)}, not {show(value)}", self._literal_hint(s.value, want)
                )
            elif not s.keys and is_opt(value) and want is not None and not is_opt(want) and want != ANY:
                scope[s.name] = join(want, value)  # it may be none from here on
            return
        if s.name not in self.vars:
            if s.name in self.options or s.name in self.constants:
                self.error(
                    s.span, f"'{s.name}' is not a variable and cannot change", "declare a `var` to hold changing state"
                )
            else:
                self.error(
                    s.span,
                    f"unknown variable '{s.name}'",
                    did_you_mean(s.name, list(self.vars) + list(scope)) or f"declare it: var {s.name}: ...",
                )
            return
        keys, val_t = self.vars[s.name]
        self._use_var(at, s.name)
        if len(s.keys) < len(keys):
            self.error(s.span, f"'{s.name}' is a map: assign one entry, {s.name}" + "[key]" * len(keys) + " = ...")
            return
        val_t = self._indexed(s.name, keys, val_t, s.keys, scope, s)
        if val_t is None:
            return
        if s.op != "=" and not fits(val_t, INT):
            self.error(s.span, f"`{s.op}=` needs a number, '{s.name}' holds {show(val_t)}")
        if (
            not fits(value, val_t)
            and not (value in (lst(ANY), lst(NONE)) and isinstance(val_t, ListOf | Maybe))
            and not self.none_misfit(s.value, value, val_t, f"'{s.name}' holds {show(val_t)}")
        ):
            hint = self._literal_hint(s.value, val_t)
            if hint is None and isinstance(val_t, ListOf) and fits(strip(value), val_t.item):
                hint = f"a list of one: `[{_written(s.value)}]`"  # `hand[south] = pc(blue, 7)`
            self.error(s.value.span, f"'{s.name}' holds {show(val_t)}, not {show(value)}", hint)

    def _indexed(self, name: str, key_types, val_t, key_exprs, scope, node):
        """The type reached by indexing `name` (map keys, then list positions), or None."""
        for depth, key in enumerate(key_exprs):
            k = self.expr(key, scope)
            if depth < len(key_types):
                want = key_types[depth]
                if not fits(k, want) and not fits(strip(k), want):
                    self.error(key.span, f"'{name}' is keyed by {show(want)}, not {show(k)}")
                continue
            if val_t == ANY:
                continue
            if not isinstance(val_t, ListOf):
                self.error(node.span, f"'{name}' is not a map or list here", "index only maps and lists")
                return None
            if not fits(k, INT):
                self.error(key.span, f"a list index is an int, not {show(k)}")
            val_t = val_t.item
        return val_t

    def arguments(self, node, what: str, params: list, args: list, exprs=(), decl=None) -> None:
        """Each argument's type fits its parameter's (`exprs`: the arguments as written, for
        an argument that may be none: the error names it and why); `decl` (what declares the
        parameters: a def, procedure, query, event or slot) is shown with a count that differs."""
        if len(args) != len(params):
            shown = f": {decl.name}({params_text(decl.params)})" if decl is not None else ""
            self.error(
                node.span,
                f"{what} takes {len(params)} argument{'s' if len(params) != 1 else ''}, given {len(args)}{shown}",
                f"it is declared at {decl.span}" if decl is not None else None,
            )
            return
        wrong = [i for i, (p, a) in enumerate(zip(params, args)) if not fits(a, p) and not fits(strip(a), p)]
        if len(wrong) == 2:  # `add_influence(poland, w, 1)`: two arguments that fit each other's places
            i, j = wrong
            if fits(strip(args[i]), params[j]) and fits(strip(args[j]), params[i]):
                shown = f"{decl.name}({params_text(decl.params)})" if decl is not None else what
                self.error(
                    node.span,
                    f"arguments {i + 1} and {j + 1} of {what} are in each other's place: "
                    f"it takes {show(params[i])} then {show(params[j])}, given {show(args[i])} then {show(args[j])}",
                    f"swap them: {shown}",
                )
                return
        for i, (p, a) in enumerate(zip(params, args), 1):
            if not fits(a, p):
                e = exprs[i - 1] if len(exprs) >= i else None
                if e is not None and self.none_misfit(e, a, p, f"argument {i} of {what} should be {show(p)}"):
                    continue
                hint = self._literal_hint(e, p) if e is not None else None
                self.error(node.span, f"argument {i} of {what} should be {show(p)}, not {show(a)}", hint)

    # ---- expressions --------------------------------------------------------
    def element(self, t: Type, node) -> Type:
        if t == ANY:
            return ANY
        if isinstance(t, ListOf):
            return t.item
        hint = "for example 1..6 or [a, b]"
        if isinstance(t, TypeName):  # `for p in player`, `for c in Crop`: the type, not its members
            hint = (
                "`players` is the list of the seats in play (`members(player)`: every seat)"
                if t.of == PLAYER
                else f"`members({show(t.of)})` lists its members"
            )
        self.error(node.span, f"expected a list here, not {show(t)}", hint)
        return ANY

    def cond(self, e, scope, what: str) -> None:
        self.expect(e, scope, BOOL, what)

    def expect(self, e, scope, want, what: str) -> None:
        if isinstance(e, ast.Name) and e.id not in scope and self.vars.get(e.id, ((), ANY))[0]:
            # `when won`: a whole map, where one value is wanted (it reads as `any`)
            keys, held = self.vars[e.id]
            keyed = "][".join(show(k) for k in keys)
            self.error(
                e.span,
                f"{what} must be {show(want)}, and `{e.id}` is a map of {show(held)} by {keyed}",
                f"read one entry, `{e.id}[...]`" + (f", e.g. `{e.id}[viewer] > 0`" if want == BOOL else ""),
            )
            return
        t = self.expr(e, scope)
        if not fits(t, want) and not self.none_misfit(e, t, want, f"{what} must be {show(want)}"):
            hint = None
            if want == BOOL and strip(t) == INT and not isinstance(e, ast.Int):  # `where won[p]`: a number
                hint = f"a number is no condition: compare it, `{_written(e)} > 0`"
            elif want == BOOL and is_list(strip(t)):
                hint = f"a list is no condition: `count({_written(e)}) > 0`, or `x in {_written(e)}`"
            elif want == BOOL and is_opt(t):  # `when viewer`: a value that may be none, not a truth
                hint = f"say what must hold: `{_written(e)} != none`"
            elif want == PLAYER and kind_of(t) not in (None, "player"):
                hint = "name the seat: a loop's `p`, `players[0]`, or a seat's name"
            self.error(e.span, f"{what} must be {show(want)}, not {show(t)}", hint)

    def expr(self, e, scope: dict):
        method = getattr(self, "_" + type(e).__name__)
        t = method(e, scope)
        if self.narrowed and isinstance(t, Maybe) and _key(e) in self.narrowed:
            t = t.inner  # checked not none here (`x != none`), and unchanged since
        self.table.types[e.span] = t
        return t

    def narrowed_by(self, e, truth: bool) -> frozenset:
        """The narrowed expressions, with those `e` being `truth` says are not none."""
        return self.narrowed | _facts(e, truth, self._facts_memo)

    def _forget(self, names: set[str] | None, scope: dict) -> None:
        """What was narrowed and may have changed is not known any more: what reads one of
        `names` (bound or assigned); if one is a variable of the game, what calls a function
        or a query too (it may read it); if `names` is None (a procedure, an event or a
        card's effect ran: any variable may have changed), what reads any variable, calls a
        function or a query, or reads a changeable property."""
        if not self.narrowed:
            return
        if names is not None and not any(n in self.vars for n in names):
            self.narrowed = frozenset(k for k in self.narrowed if not _mentions(k, names))
            return
        if self._computed is None:
            self._computed = set(self.defs) | set(self.queries)
            self._stateful = self._computed | set(self.vars)
        if names is None:
            stateful = self._stateful
            if any(n in self.vars for n in scope):  # a local named as a variable: no procedure changes it
                stateful = stateful - scope.keys()
            self.narrowed = frozenset(
                k for k in self.narrowed if not _mentions(k, stateful) and not self._reads_changeable(k)
            )
        else:
            self.narrowed = frozenset(k for k in self.narrowed if not _mentions(k, names | self._computed))

    def _reads_changeable(self, key: tuple) -> bool:
        """Does `key` read a changeable property (one a query answers)?"""
        if key[0] == "m":
            return key[2] in self.queries or self._reads_changeable(key[1])
        if key[0] == "i":
            return self._reads_changeable(key[1]) or self._reads_changeable(key[2])
        if key[0] == "c":
            return any(self._reads_changeable(a) for a in key[2])
        return False

    def _numbers_compared(self, e: ast.Call, args: list) -> bool:
        """`max(a, b)` takes two numbers, `max(xs)`, `min(xs)` and `sum(xs)` a list: a value
        that may be none among them stops the rule when it runs (`max(vp[p], c.bonus)` with
        `bonus: int?`, `min([c.ops for c in hand])`), and so does a number given alone.
        True if reported."""
        f = e.func
        if len(args) == 2:
            told = False
            for a, t in zip(e.args, args):
                if not fits(t, INT):
                    if not self.none_misfit(a, t, INT, f"`{f}` of two values compares numbers"):
                        self.error(a.span, f"`{f}` of two values compares numbers, not {show(t)}")
                    told = True
            return told
        t = args[0]
        if isinstance(t, ListOf) and isinstance(t.item, Maybe) and fits(t.item.inner, INT):
            why = why_none(t.item)
            item = _written(e.args[0].element) if isinstance(e.args[0], ast.Comprehension) else "x"
            self.error(
                e.args[0].span,
                f"`{f}` of a list whose items may be none{f' ({why})' if why else ''}: it stops the rule when one is",
                f"give each item a default, `{item} ?? 0`, or leave the nones out, `if {item} != none`",
            )
            return True
        if t == INT:
            self.error(
                e.args[0].span, f"`{f}` takes a list of numbers (or, for max and min, two numbers), not one number"
            )
            return True
        return False

    def none_misfit(self, e, t, want, what: str) -> bool:
        """If `t` is a `T?` whose `T` would fit `want`: report that `e` may be none where
        `what` needs a value, naming where the none may come from and how to narrow it;
        True if reported."""
        if not isinstance(t, Maybe) or not fits(t.inner, want):
            return False
        self.error(e.span, f"{what}, but {self.maybe_none(e, t)}", self.none_hint(e, want))
        return True

    def maybe_none(self, e, t) -> str:
        """ "`x` may be none (why)": an expression of type `T?`, and where the none comes from."""
        why = why_none(t)
        if not why and isinstance(e, ast.Call) and e.func in ("first", "last") and e.args:
            why = f"{_written(e.args[0])} may be empty"
        return f"`{_written(e)}` may be none" + (f" ({why})" if why else "")

    def none_hint(self, e, want) -> str:
        """How to use a value that may be none: narrow it, or give a default of the type needed."""
        text = _written(e)
        default = _DEFAULTS.get(strip(want))
        if default is None and is_list(strip(want)):
            default = "[]"
        check = f"check it first: `if {text} != none {{ ... }}`"
        return check + (f", or give a default: `{text} ?? {default}`" if default is not None else "")

    def _Int(self, e, scope):
        return INT

    def _Bool(self, e, scope):
        return BOOL

    def _NoneLit(self, e, scope):
        return NONE

    def _Str(self, e, scope):
        for p in e.parts:
            if not isinstance(p, str):
                self.expr(p, scope)
        return STR

    def _Name(self, e, scope):
        n = e.id
        if n in scope:
            if n in self._bare_fields and n not in self._where:  # an entity's own property, by bare name
                self._use(e.span, n, "field", self._field_span(kind_of(scope["self"]), n), scope[n])
                return scope[n]
            kind = "self" if n == "self" else self.table.locals.get(self._where.get(n), _LOCAL).kind  # type: ignore[arg-type]
            self._use(e.span, n, kind, self._where.get(n), scope[n])
            return scope[n]
        if n in self.vars:
            self.used.add("var:" + n)
            keys, val = self.vars[n]
            self._use_var(e.span, n)
            return ANY if keys else val
        if n in self.options:
            self.used.add("option:" + n)
            self._use(e.span, n, "option", self.declared.get("option:" + n), self.options[n])
            return self.options[n]
        if n == "players":
            self._use(e.span, n, "players", None, lst(PLAYER))
            return lst(PLAYER)
        if n in self.constants:
            self._use(e.span, n, "constant", self.declared.get("const:" + n), self.constants[n])
            return self.constants[n]
        if n in self.defs:
            t = self._Call(ast.Call(span=e.span, func=n, args=()), scope)
            self._use(e.span, n, "def", self.defs[n].span, t)
            return t
        if n in self.types:
            self._use(e.span, n, "type", self.declared.get("type:" + n), TypeName(self.types[n]))
            return TypeName(self.types[n])
        if self.grids and re.fullmatch(r"[a-z]+[0-9]+", n):
            first = self.types[self.grids[0]]
            self._use(e.span, n, "constant", self.declared.get("type:" + self.grids[0]), first)
            return first  # a cell name of the first grid, e.g. a1
        for grid in self.grids[1:]:
            if re.fullmatch(rf"{grid.lower()}_[a-z]+[0-9]+", n):
                self._use(e.span, n, "constant", self.declared.get("type:" + grid), self.types[grid])
                return self.types[grid]  # a later grid's cells are prefixed: track_a1
        if n in self._stray_params:  # a declared slot's parameter, not in force in this slot
            if not self._stray_told:
                message, hint = self._stray_params[n]
                self.error(e.span, f"unknown name '{n}': {message}", hint)
                self._stray_told = True  # its other uses, and the others' uses, are the same mistake
            return ANY
        owner = self._param_owners_now().get(n)
        slot = self._slot_now
        if slot is not None and slot[2] and n not in scope and (owner is not None or len(n) == 1):
            # in a card's slot: its own parameters are what the name most likely meant
            slot_name, kind, names, sig = slot
            declared = f" (`slot {slot_name}({params_text(sig.params)})` of {kind})" if sig is not None else ""
            self.error(
                e.span,
                f"unknown name '{n}'",
                did_you_mean(n, scope)
                or f"this `{slot_name}` has the parameters {', '.join(names)}{declared}: use one of them, "
                "or bind the name with `let`",
            )
            return ANY
        if owner is not None or len(n) == 1:
            # A parameter elsewhere, or a one-letter name (a local's, by habit): only a local
            # here is a likely slip for it, never a global that would compile and mean another
            # thing (`s` is no slip for the seat `us`).
            elsewhere = f" (it is a parameter of {owner})" if owner is not None else ""
            self.error(
                e.span,
                f"unknown name '{n}'",
                did_you_mean(n, scope)
                or f"no parameter or local '{n}' here{elsewhere}: declare it as a parameter, or bind it with `let`",
            )
            return ANY
        known = list(scope) + list(self.vars) + list(self.options) + list(self.constants) + list(self.defs)
        known.append("players")
        if n in ("offered", "logged", "ended", "winner", "deciding", "modifiers"):
            self.error(e.span, f"unknown name '{n}'", f"a test's `{n}` is called: `{n}()`, in an `expect` or a `reach`")
            return ANY
        if n.lower() in ("null", "nil", "nothing", "undefined"):
            self.error(e.span, f"unknown name '{n}'", "write `none` for no value")
            return ANY
        unnamed = self._unnamed_hint(n)
        if unnamed is not None:
            self.error(e.span, f"unknown name '{n}'", unnamed)
            return ANY
        # the words for truth and for no value are close to a slip too (`fals`, `True`)
        literal = difflib.get_close_matches(n, ["true", "false", "none"], n=1, cutoff=0.75)
        self.error(
            e.span, f"unknown name '{n}'", f"did you mean `{literal[0]}`?" if literal else did_you_mean(n, known)
        )
        return ANY

    def _unnamed_hint(self, n: str) -> str | None:
        """The hint for a name that looks like one the game has but cannot be written: a
        seat `p2` of a header without `seats` (the seats are p1, p2, ... in the narration
        only), or a component a `generate` makes (`red_5` of `named "{suit}_{rank}"`)."""
        header = self.program.header
        seat = re.fullmatch(r"p(\d+)", n)
        if seat and not header.seats and 0 < int(seat.group(1)) <= header.max_players:
            k = int(seat.group(1))
            return (
                f"the seats p1, p2, ... of a header without `seats` are not names in the rules: "
                f"write `members(player)[{k - 1}]`, or name the seats in the header (`seats [...]`)"
            )
        for d in self.program.decls:
            if not isinstance(d, ast.Generate):
                continue
            pattern = "".join(re.escape(part) if isinstance(part, str) else r"\w+?" for part in d.name_template.parts)
            if pattern and re.fullmatch(pattern, n, re.IGNORECASE):
                return (
                    f"a component `generate {d.kind}` makes is not a name in the rules: find it by its "
                    f"properties, `first([c for c in members({d.kind}) if c.PROPERTY == VALUE])`"
                )
        return None

    def _param_owners_now(self) -> dict[str, str]:
        """Each name some declaration takes as a parameter (a procedure's, a def's, a query's,
        a declared slot's, a card's slot header's), with the first that does, as words."""
        if self._param_owners is None:
            owners: dict[str, str] = {}
            for kind, sigs in self.slot_signatures.items():
                for sig in sigs.values():
                    for p in sig.params:
                        owners.setdefault(p.name, f"{kind}'s `slot {sig.name}(...)`")
            for d in self.program.decls:
                if isinstance(d, ast.Procedure | ast.Def | ast.Query):
                    what = {ast.Procedure: "procedure", ast.Def: "def", ast.Query: "query"}[type(d)]
                    for p in d.params:
                        owners.setdefault(p.name, f"{what} {d.name}")
                elif isinstance(d, ast.Card):
                    for slot, _, _, params in d.slots:
                        for p in params:
                            owners.setdefault(p.name, f"card {d.name}'s `{slot}`")
            self._param_owners = owners
        return self._param_owners

    def _ListLit(self, e, scope):
        types = [self.expr(i, scope) for i in e.items]
        if not types:
            return lst(ANY)  # fits any list type
        element = types[0]
        for t in types[1:]:
            element = join(element, t)
        return lst(element)

    def _Comprehension(self, e, scope):
        inner = dict(scope)
        kept, kept_where = self.narrowed, dict(self._where)
        try:
            for clause in e.clauses:  # each clause sees the names of the clauses before it
                inner[clause.var] = self.element(self.expr(clause.iterable, inner), clause.iterable)
                self.bind(clause.var, clause.span, inner[clause.var])
                self._forget({clause.var}, inner)
                if clause.condition is not None:
                    self.cond(clause.condition, inner, "a comprehension's `if`")
                    self.narrowed = self.narrowed_by(clause.condition, True)
            return lst(self.expr(e.element, inner))
        finally:
            self.narrowed, self._where = kept, kept_where

    def _Range(self, e, scope):
        self.expect(e.low, scope, INT, "a range's start")
        self.expect(e.high, scope, INT, "a range's end")
        low, high = _literal_value(e.low), _literal_value(e.high)
        if type(low) is int and type(high) is int and low > high:  # `8..1`: counts up, so holds nothing
            # in a generate, no component at all (an error); elsewhere an empty list, which
            # the language allows (`count(3..2)` is 0), but written as such is likely a slip
            (self.error if self._generating else self.warn)(
                e.span,
                f"the range {low}..{high} is empty: a range counts up from its first number",
                f"write `{high}..{low}`; to go down, `sort_by({high}..{low}, k => 0 - k)`",
            )
        return lst(INT)

    def _BinOp(self, e, scope):
        op = e.op
        if op == "??":
            self._defaulted = e.left  # its own none has a default: a hint need not give one
        a = self.expr(e.left, scope)
        if op in ("and", "or", "??"):  # the right side is read only where the left says
            kept = self.narrowed
            if op != "??":
                self.narrowed = self.narrowed_by(e.left, op == "and")
            try:
                b = self.expr(e.right, scope)
            finally:
                self.narrowed = kept
        else:
            b = self.expr(e.right, scope)
        if op == "??":
            return self._coalesce(e, a, b)
        if op in ("and", "or"):
            for t, node in ((a, e.left), (b, e.right)):
                if not fits(t, BOOL) and not self.none_misfit(node, t, BOOL, f"`{op}` needs true/false"):
                    self.error(node.span, f"`{op}` needs true/false, not {show(t)}")
            return BOOL
        if op in ("in", "not in"):
            if b != ANY and not is_list(b):
                self.error(e.right.span, f"`{op}` needs a list on its right, not {show(b)}")
            elif isinstance(b, ListOf) and ANY not in (strip(a), strip(b.item)) and NONE not in (a, strip(b.item)):
                if join(strip(a), strip(b.item)) == ANY:  # `0 in deck`: a position for a card, never found
                    self.error(
                        e.span,
                        f"a list of {show(b.item)} never holds {show(a)}: this `{op}` is always "
                        f"{'false' if op == 'in' else 'true'}",
                        f"look for a {show(b.item)} in it",
                    )
            return BOOL
        if op in ("==", "!="):
            if not (
                fits(a, b)
                or fits(b, a)
                or NONE in (a, b)
                or ANY in (a, b)
                or fits(strip(a), strip(b))
                or fits(strip(b), strip(a))
            ):
                self.error(
                    e.span,
                    f"comparing {show(a)} with {show(b)} is always {'false' if op == '==' else 'true'}",
                    "compare values of the same type",
                )
            elif NONE in (a, b) and (b if a == NONE else a) in (INT, BOOL, STR):
                # `if n == none` for a roll's number: a value of a type without `?` is never none
                t, side = (b, e.right) if a == NONE else (a, e.left)
                self.warn(
                    e.span,
                    f"`{_written(side)}` is {show(t)}, never none: this is always {'false' if op == '==' else 'true'}",
                    "compare it with a value it can take, or read a value that may be none (a `T?` property, "
                    "`first(xs)`, a `choose ... optional`)",
                )
            return BOOL
        if op == "+" and is_list(a):
            return join(a, b) if is_list(b) else a
        if op == "+" and STR in (a, b) and fits(a, STR) and fits(b, STR):
            return STR
        for t, node in ((a, e.left), (b, e.right)):
            if not fits(t, INT) and not self.none_misfit(node, t, INT, f"`{op}` needs numbers"):
                text = op == "+" and STR in (a, b)  # `"round " + round`: text is built by interpolation
                value = _written(e.right if a == STR else e.left)
                hint = f'build text by interpolation: "... {{{value}}}" puts the value in the text' if text else None
                self.error(node.span, f"`{op}` needs numbers, not {show(t)}", hint)
        return BOOL if op in ("<", "<=", ">", ">=") else INT

    def _coalesce(self, e, a, b):
        """`x ?? d`: x if it is not none, else d; a `T?` and a `T` give a `T`."""
        if a == NONE:
            return b
        if not is_opt(a) and a != ANY:
            self.warn(
                e.span,
                f"`{_written(e.left)}` is {show(a)}, never none: `?? {_written(e.right)}` is never used",
                f"write `{_written(e.left)}` alone",
            )
            return a
        value = strip(a)
        if not (fits(b, value) or fits(value, b) or fits(strip(b), value) or b == NONE):
            self.error(
                e.right.span,
                f"the default after `??` of `{_written(e.left)}` ({show(a)}) must be {show(value)}, not {show(b)}",
                f"for example `{_written(e.left)} ?? {_DEFAULTS[value]}`" if value in _DEFAULTS else None,
            )
            return value  # reported here: what uses it is not a new mistake
        return join(value, b)

    def _Not(self, e, scope):
        self.cond(e.operand, scope, "`not`'s operand")
        return BOOL

    def _Neg(self, e, scope):
        self.expect(e.operand, scope, INT, "`-`'s operand")
        return INT

    def _IfExpr(self, e, scope):
        self.cond(e.condition, scope, "an `if` condition")
        kept = self.narrowed
        try:
            self.narrowed = self.narrowed_by(e.condition, True)
            then = self.expr(e.then, scope)
            self.narrowed = kept | _facts(e.condition, False, self._facts_memo)
            otherwise = self.expr(e.otherwise, scope)
        finally:
            self.narrowed = kept
        for branch in (e.then, e.otherwise):  # `then hand else [...]`: a whole map, read as one value
            if isinstance(branch, ast.Name) and branch.id not in scope and self.vars.get(branch.id, ((), ANY))[0]:
                keys, held = self.vars[branch.id]
                self.error(
                    branch.span,
                    f"`{branch.id}` is a map of {show(held)} by {']['.join(show(k) for k in keys)}: "
                    "an `if` gives one value",
                    f"read one entry, `{branch.id}[...]`",
                )
        return join(then, otherwise)

    def _Member(self, e, scope):
        t = self.expr(e.obj, scope)
        kind = kind_of(t)  # the component kind whose property is read (None: not a kind)
        if isinstance(t, Maybe) and kind is not None and e.name in self.fields.get(kind, {}) and not t.trusted:
            hint = self.none_hint(e.obj, t.inner)
            field = self.fields[kind][e.name]
            default = _DEFAULTS.get(strip(field)) if is_opt(field) else None
            if default is not None and e is not self._defaulted:  # the property may be none too
                hint += f", and there `{_written(e)} ?? {default}` (`{e.name}` may be none too)"
            self.error(e.span, f"{self.maybe_none(e.obj, t)}: `.{e.name}` of it would fail", hint)
        t = strip(t)
        if t == ANY:
            return ANY
        if kind is None or kind not in self.fields:
            self.error(
                e.span,
                f"{show(t)} has no properties (reading .{e.name})",
                "properties belong to components declared with `entity`",
            )
            return ANY
        fields = self.fields[kind]
        if e.name not in fields:
            shown = ", ".join(list(fields)[:12]) + (", ..." if len(fields) > 12 else "")
            self.error(
                e.span,
                f"{kind} has no property '{e.name}'",
                did_you_mean(e.name, fields) or (f"{kind}'s properties: {shown}" if fields else None),
            )
            return ANY
        if kind not in self.entities:
            self._lacking(e, kind, scope)
        field = fields[e.name]
        found = field.inner if isinstance(field, Maybe) and self._given(e, scope) else field
        if e.span.end_column is not None:  # the property's name ends the expression
            at = Span(e.span.path, e.span.line, e.span.end_column - len(e.name), e.span.end_column)
            self._use(at, e.name, "field", self._field_span(kind, e.name), found)
        return found

    def _use_var(self, span, name: str) -> None:
        """A use of the game's variable `name` written at `span` (read, assigned, shuffled)."""
        keys, t = self.vars[name]
        self.table.use(span, Binding(name, "var", self.declared.get("var:" + name), _map_type(keys, t)))

    def _field_span(self, kind: str | None, name: str):
        """Where property `name` of `kind` is declared (its entity's field), if known."""
        if kind is None:
            return None
        entity = self.entities.get(kind)
        if entity is not None:
            return next((f.span for f in entity.fields if f.name == name), entity.span)
        return self.declared.get("type:" + kind)

    def _pile(self, e, scope) -> bool:
        """Is `e` a variable of the game, or an entry of one (`discard`, `hand[p]`): a
        pile that play fills and empties, so that `first`/`last` of it may be none?"""
        while isinstance(e, ast.Index):
            e = e.obj
        return isinstance(e, ast.Name) and e.id in self.vars and e.id not in scope

    def _given(self, e: ast.Member, scope) -> bool:
        """Is `e` a property of one component that gives it: `self.f` in a card, or `name.f`
        of a component named outright, where the card writes f (not `none`) or the table row
        it is made from has f's cell filled? (Then it is not none, though the property is `T?`.)"""
        if not isinstance(e.obj, ast.Name):
            return False
        if e.obj.id == "self":
            name = self.card_now.name if self.card_now is not None else None
        elif e.obj.id not in scope and e.obj.id not in self.vars:
            name = e.obj.id
        else:
            return False
        if name is None:
            return False
        if self._given_props is None:
            self._given_props = self._props_given()
        return (name, e.name) in self._given_props

    def _props_given(self) -> set[tuple[str, str]]:
        """(component, property) for each property a card writes (not as `none`) or a table
        row's cell fills, a card that extends the row overriding it."""
        given: set[tuple[str, str]] = set()
        for t in self.program.tables:
            d = t.decl
            if not isinstance(d, ast.DataTable):
                continue
            for row in t.live():
                for c in d.columns:
                    cell = row.row.cells.get(c.column)
                    if cell is None:
                        continue
                    text = cell.value.strip() if isinstance(cell.value, str) else None
                    nones = [r.text for r in c.readings if isinstance(r.value, ast.NoneLit)]
                    if text is None or (text and text not in d.empty and text not in nones):
                        given.add((row.name, c.prop))
        for d in self.program.decls:
            if isinstance(d, ast.Card):
                for fv in d.props:
                    if isinstance(fv.value, ast.NoneLit):
                        given.discard((d.name, fv.name))
                    else:
                        given.add((d.name, fv.name))
        return given

    def _Index(self, e, scope):
        keys = [e.key]
        base = e.obj
        while isinstance(base, ast.Index):
            keys.insert(0, base.key)
            base = base.obj
        if isinstance(base, ast.Name) and base.id in self.vars and base.id not in scope:
            self.used.add("var:" + base.id)
            key_types, val_t = self.vars[base.id]
            self._use_var(base.span, base.id)
            if len(keys) < len(key_types):
                for depth, key in enumerate(keys):
                    self._indexed(base.id, key_types[depth : depth + 1], ANY, [key], scope, e)
                return ANY  # a part of a map: index it further
            result = self._indexed(base.id, key_types, val_t, keys, scope, e)
            return ANY if result is None else result
        k = self.expr(e.key, scope)
        t = self.expr(e.obj, scope)
        if not fits(k, INT):
            self.error(e.key.span, f"a list index is an int, not {show(k)}")
        return self.element(t, e.obj)

    def _Lambda(self, e, scope):
        inner = dict(scope)
        inner[e.param] = ANY
        kept, kept_where = self.narrowed, dict(self._where)
        self.bind(e.param, e.span, ANY)
        self._forget({e.param}, inner)
        try:
            self.expr(e.body, inner)
        finally:
            self.narrowed, self._where = kept, kept_where
        return ANY

    def _Call(self, e, scope):
        f = e.func
        if f in self.queries:
            self.used.add("query:" + f)
            q = self.queries[f]
            args = [self.expr(a, scope) for a in e.args]
            self.arguments(e, f"query '{f}'", [self.type_of(p.type) for p in q.params], args, e.args, q)
            result = _noted(self.type_of(q.type), f"query '{f}' is declared `{{t}}`")
            self._use(self._name_span(e.span, f), f, "query", q.span, result)
            return result
        if f in self.defs:
            self.used.add("def:" + f)
            d = self.defs[f]
            args = [self.expr(a, scope) for a in e.args]
            self.arguments(e, f"function '{f}'", [self.type_of(p.type) for p in d.params], args, e.args, d)
            t = self.def_types.get(f, ANY)
            result = _noted(t, f"function '{f}' may give none: {why_none(t)}" if why_none(t) else "")
            self._use(self._name_span(e.span, f), f, "def", d.span, result)
            return result
        if f in SPECIAL:
            lo, hi = SPECIAL[f]
            if not lo <= len(e.args) <= hi:
                self.error(e.span, f"{f}() takes 1 argument, given {len(e.args)}")
                return ANY
            if f == "members":
                arg = e.args[0]
                if isinstance(arg, ast.Name) and (arg.id in self.types):
                    self._use(self._name_span(e.span, f), f, "builtin", None, lst(self.types[arg.id]))
                    return lst(self.types[arg.id])
                self.error(
                    arg.span,
                    "members(...) takes a type name",
                    did_you_mean(getattr(arg, "id", ""), self.types) or "for example members(Suit)",
                )
                return ANY
            self.expr(e.args[0], scope)
            self._use(self._name_span(e.span, f), f, "builtin", None, STR)
            return STR
        if f in self.procs:
            self.error(
                e.span,
                f"'{f}' is a procedure: it cannot be called inside an expression (it may wait for decisions)",
                f"call it as a statement of its own: `let x = {f}(...)`, then use x"
                if self.results.get(f) is not None
                else f"call it as a statement of its own: {f}(...)",
            )
            return ANY
        b = BUILTINS.get(f)
        if b is None:
            self.error(
                e.span,
                f"unknown function '{f}'",
                did_you_mean(f, list(BUILTINS) + list(self.defs) + list(SPECIAL)),
            )
            return ANY
        result = self._builtin_result(e, scope, b)
        self._use(self._name_span(e.span, f), f, "builtin", None, result)
        return result

    def _not_a_list(self, e: ast.Call, a0: Type, scope) -> bool:
        """A built-in that takes a list first given something else (`count(round)`,
        `append(n, pool)`: the item first), or a map variable read whole (`count(score)`):
        an error at the argument, with the fix; True when reported."""
        arg = e.args[0]
        if isinstance(arg, ast.Name) and arg.id not in scope and self.vars.get(arg.id, ((), ANY))[0]:
            keys, val = self.vars[arg.id]
            keyed = "][".join(show(k) for k in keys)
            self.error(
                arg.span,
                f"{e.func}() takes a list, and `{arg.id}` is a map of {show(val)} by {keyed}",
                f"read one entry, `{arg.id}[...]`, or list them: `[{arg.id}[k] for k in ...]`",
            )
            return True
        t = strip(a0)
        if t == ANY or is_list(t) or t == STR or isinstance(t, TypeName) or isinstance(a0, TypeName):
            return False
        swapped = len(e.args) == 2 and e.func in ("append", "without", "index_of")
        hint = (
            f"the list comes first: `{e.func}({_written(e.args[1])}, {_written(arg)})`"
            if swapped
            else f"`{e.func}(xs)` takes a list, such as `[x for x in ...]`, a list variable or `players`"
        )
        self.error(arg.span, f"{e.func}() takes a list first, not {show(a0)}", hint)
        return True

    def _item_misfit(self, e: ast.Call, xs: Type, x: Type) -> bool:
        """`append(xs, x)`, `without(xs, x)` or `index_of(xs, x)` given an item of another
        kind than the list's (`without(deck, 0)`: a position for a card, `append(hand,
        deck)`: a whole list for one card): at run time such a call finds nothing to remove
        or adds a stranger to the list, and the game goes on wrong. An error at the item;
        True when reported."""
        if not isinstance(xs, ListOf):
            return False
        item, given = strip(xs.item), strip(x)
        if ANY in (item, given) or NONE in (item, given) or join(item, given) != ANY:
            return False
        f, arg = e.func, e.args[1]
        if isinstance(given, ListOf) and fits(given.item, item):
            hint = (
                f"to add every item of a list, join them: `concat({_written(e.args[0])}, {_written(arg)})`"
                if f == "append"
                else f"`{f}` takes one item: `[y for y in {_written(e.args[0])} if not y in {_written(arg)}]` "
                "drops them all"
                if f == "without"
                else f"`{f}` finds one item, not a list of {show(item)}"
            )
        elif given == INT and f != "index_of":
            hint = f"name the item itself, not its position: `{f}({_written(e.args[0])}, {_written(e.args[0])}[...])`"
        else:
            hint = f"give it a {show(item)}: the list `{_written(e.args[0])}` holds {show(item)}"
        self.error(arg.span, f"{f}() of a list of {show(item)} takes a {show(item)}, not {show(x)}", hint)
        return True

    def _builtin_result(self, e: ast.Call, scope, b):
        """The type of the call `e` of the built-in function `b`."""
        f = e.func
        args = [self.expr(a, scope) for a in e.args]
        lo, hi = b.arity
        if not lo <= len(args) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            self.error(e.span, f"{f}() takes {want} argument{'s' if hi != 1 else ''}, given {len(args)}", b.doc)
            return ANY
        r = b.returns
        a0 = args[0] if args else ANY
        if f in _LIST_FIRST and self._not_a_list(e, a0, scope):
            return _RETURNS.get(r, ANY) if r not in ("elem", "elem?", "list") else ANY
        if f in ("max", "min", "sum") and self._numbers_compared(e, args):
            return INT  # reported once, at its argument: what it gives is no new mistake
        if f in ("best", "sort_by") and len(args) == 2 and not isinstance(e.args[1], ast.Lambda):
            # `best(players, won)`: a map, not a score per item; play stops at the call
            xs, given = _written(e.args[0]), _written(e.args[1])
            self.error(
                e.args[1].span,
                f"{f}() takes a score for each item, written `x => SCORE`, not `{given}`",
                f"write `{f}({xs}, x => {given}[x])`"
                if isinstance(e.args[1], ast.Name)
                else f"write `{f}({xs}, x => ...)`",
            )
            return a0 if is_list(a0) else lst(ANY)
        if f in ("append", "without", "index_of") and len(args) == 2 and self._item_misfit(e, a0, args[1]):
            return a0 if f != "index_of" else INT
        if (
            f in ("rotate", "index_of")
            and len(args) == 2
            and isinstance(a0, ListOf)
            and not isinstance(a0.item, Maybe)
            and self.none_misfit(e.args[1], args[1], a0.item, f"`{f}` needs an item of the list")
        ):  # a none is in no list: play stops at the call (`rotate(players, first([...]))`)
            return a0 if f == "rotate" else INT
        if r == "elem":
            return self.element(a0, e.args[0]) if len(args) == 1 else INT
        if r == "elem?":  # none only from a pile of the game's state: a list worked out is trusted
            pile = self._pile(e.args[0], scope)
            return opt(self.element(a0, e.args[0]), f"{_written(e.args[0])} may be empty", not pile)
        if r == "list":
            if not isinstance(a0, ListOf):
                return lst(ANY)
            if f == "append":  # the list's items and the item added, joined: xs of T, none -> T?
                return lst(join(a0.item, args[1]))
            if f == "concat" and is_list(args[1]):
                return join(a0, args[1])
            return a0
        if r == "cell?":
            return opt(strip(a0), "there may be no cell there") if f == "neighbour" else ANY
        return _RETURNS.get(r, ANY)


def ends(stmts) -> bool:
    """Does running `stmts` never reach their end: every path returns or ends the game?"""
    return any(_ends(s) for s in stmts)


def _ends(s) -> bool:
    if isinstance(s, ast.Return | ast.Win | ast.GameOver):
        return True
    if isinstance(s, ast.If):
        return s.otherwise is not None and ends(s.otherwise) and all(ends(body) for _, body in s.branches)
    if isinstance(s, ast.May):
        return s.otherwise is not None and ends(s.body) and ends(s.otherwise)
    if isinstance(s, ast.While):  # `while true` ends only by a `break` of its own
        return isinstance(s.condition, ast.Bool) and s.condition.value and not _breaks(s.body)
    return False


def _breaks(stmts) -> bool:
    """Does a `break` in `stmts` leave the loop they are the body of?"""
    for s in stmts:
        if isinstance(s, ast.Break):
            return True
        if isinstance(s, ast.If) and any(_breaks(b) for b in [b for _, b in s.branches] + [s.otherwise or ()]):
            return True
        if isinstance(s, ast.May) and (_breaks(s.body) or _breaks(s.otherwise or ())):
            return True
    return False


def _gathered(
    diags: list[Diagnostic], owner: Callable[[Diagnostic], str | None]
) -> tuple[list[Diagnostic], dict[str, list[Diagnostic]]]:
    """The errors `owner` names a declaration for, by that name, and the rest as they were:
    what `_at_removal` and `_at_replacement` tell once, at the declaration, in their stead."""
    kept: list[Diagnostic] = []
    owned: dict[str, list[Diagnostic]] = {}
    for d in diags:
        name = owner(d) if d.severity == "error" else None
        if name is None:
            kept.append(d)
        else:
            owned.setdefault(name, []).append(d)
    return kept, owned


def _more(places: list[Diagnostic]) -> str:
    """ " and N more place(s)" beyond the first of `places`, or nothing."""
    return f" and {len(places) - 1} more place{'s' if len(places) > 2 else ''}" if len(places) > 1 else ""


_UNKNOWN = re.compile(r"unknown (?:procedure|function|name|query|event|variable) '(\w+)'")


def _at_removal(diags: list[Diagnostic], removed: tuple[ast.Remove, ...]) -> list[Diagnostic]:
    """The errors of names a `remove` took away that the rules still use (`remove procedure
    gain_vp`, and the game's cards calling it), as one error at the `remove`, naming where
    the first use is and how many there are: the mistake is the removal, not each use
    (often in the included game's files, not the designer's)."""
    by_name = {r.name: r for r in removed if r.kind != "card"}
    if not by_name:
        return diags

    def used(d: Diagnostic) -> str | None:
        found = _UNKNOWN.match(d.message)
        return found.group(1) if found is not None and found.group(1) in by_name else None

    kept, uses = _gathered(diags, used)
    for name, places in uses.items():
        r = by_name[name]
        first = places[0].span
        more = _more(places)
        kept.append(
            Diagnostic(
                r.span,
                f"`remove {r.kind} {name}`: the rules still use it, at {first.path}:{first.line}{more}",
                f"keep it (drop this `remove`), or write `replace {r.kind} {name} ...` with what it should do now",
            )
        )
    return kept


_ARITY = re.compile(r"(procedure|function|query|event) '(\w+)' takes \d+ arguments?, given \d+")


def _at_replacement(diags: list[Diagnostic], replaced: tuple[ast.Replace, ...]) -> list[Diagnostic]:
    """The errors of calls, in other files, of a procedure, def, query or event a `replace`
    gave other parameters (`replace procedure gain_vp(s: player)` where the included game
    calls `gain_vp(s, 1)`), as one error at the `replace`: the new parameters are the
    mistake, not each call the game made as it always did."""
    by_name = {}
    for r in replaced:
        name = getattr(r.decl, "name", None)
        if isinstance(r.decl, ast.Procedure | ast.Def | ast.Query | ast.Event) and name:
            by_name[name] = r
    if not by_name:
        return diags

    def called(d: Diagnostic) -> str | None:
        found = _ARITY.match(d.message)
        r = by_name.get(found.group(2)) if found is not None else None
        return found.group(2) if found is not None and r is not None and d.span.path != r.span.path else None

    kept, calls = _gathered(diags, called)
    for name, places in calls.items():
        r = by_name[name]
        first = places[0]
        more = _more(places)
        params = params_text(r.decl.params)  # type: ignore[union-attr]
        kept.append(
            Diagnostic(
                r.span,
                f"this `replace` gives '{name}' the parameters ({params}), but the rules still call it as before, "
                f"at {first.span.path}:{first.span.line}{more} ({first.message.split(':')[0]})",
                "keep the parameters the rules call it with, and change what it does; or replace its callers too",
            )
        )
    return kept


_CALLED = re.compile(r"(?:argument \d+ of |arguments \d+ and \d+ of )?(?:function|procedure|query) '(\w+)'")


def _at_shadowing(diags: list[Diagnostic], shadowing: dict[str, Span]) -> list[Diagnostic]:
    """The errors of calls of a def (query, procedure) named like a built-in, where the
    rules call it as the built-in (`count([c for c in hand[p] if ...])` with `def count(p:
    player)`), as one error at the declaration, in place of its warning: the name is the
    mistake, not each call the game made as it always did."""
    if not shadowing:
        return diags

    def calls(d: Diagnostic) -> str | None:
        found = _CALLED.match(d.message)
        return found.group(1) if found is not None and found.group(1) in shadowing else None

    kept, found = _gathered(diags, calls)
    for name, places in found.items():
        first = places[0]
        kept = [d for d in kept if not (d.severity == "warning" and d.span == shadowing[name])]
        kept.append(
            Diagnostic(
                shadowing[name],
                f"'{name}' is a built-in function, and this declaration takes its place in every rule: the rules "
                f"call it as the built-in, at {first.span.path}:{first.span.line}{_more(places)} ({first.message})",
                f"name it for what it counts or gives, e.g. '{name}_of' or 'my_{name}'",
            )
        )
    return kept


def _var_at_replacement(
    diags: list[Diagnostic], replaced: tuple[ast.Replace, ...], sources: dict[str, str]
) -> list[Diagnostic]:
    """The errors, in other files, of a variable a `replace` gave another type (`replace var
    passes: bool = false` where the included game counts `passes += 1`), as one error at
    the `replace`: the new type is the mistake, not each rule that uses it as it always did."""
    by_name = {r.decl.name: r.decl for r in replaced if isinstance(r.decl, ast.Var)}
    spans = {r.decl.name: r.span for r in replaced if isinstance(r.decl, ast.Var)}
    if not by_name:
        return diags

    def uses(d: Diagnostic) -> str | None:
        lines = sources.get(d.span.path, "").split("\n")
        at = lines[d.span.line - 1] if 0 < d.span.line <= len(lines) else ""
        for name in [*re.findall(r"'(\w+)'", d.message), *re.findall(r"\w+", at[d.span.column - 1 :])]:
            if name in by_name and d.span.path != spans[name].path:
                return name
        return None

    kept, found = _gathered(diags, uses)
    for name, places in found.items():
        first = places[0]
        kept.append(
            Diagnostic(
                spans[name],
                f"this `replace` makes '{name}' hold {_type_text(by_name[name].type)}, "
                "but the rules still use it as before, "
                f"at {first.span.path}:{first.span.line}{_more(places)} ({first.message})",
                "keep the type the rules use it as, and change its starting value; or replace those rules too",
            )
        )
    return kept


def _type_text(t) -> str:
    """A declared type as written (`player -> int`, `list Card`, `Suit?`)."""
    if isinstance(t, ast.MapType):
        return f"{_type_text(t.key)} -> {_type_text(t.value)}"
    if isinstance(t, ast.ListType):
        return f"list {_type_text(t.element)}"
    if isinstance(t, ast.OptionalType):
        return f"{_type_text(t.inner)}?"
    return getattr(t, "name", "?")


MAX_UNUSED_SHOWN = 20  # "never used" warnings of one kind told one by one; the rest in one more


def _fewer_unused(found: list[Diagnostic]) -> list[Diagnostic]:
    """The warnings of things never used, called, emitted or read, at most
    MAX_UNUSED_SHOWN of each kind, then one naming how many more and the first of them
    (a file of 6,000 unused defs is told in 21 warnings, not 6,000): a long file's check
    stays readable, and bounded."""
    kept: list[Diagnostic] = []
    more: dict[str, list[Diagnostic]] = {}
    shown: dict[str, int] = {}
    for d in found:
        kind = d.message.split(" '")[0] + " '" + d.message.rsplit("' ", 1)[-1] if "' " in d.message else d.message
        if d.severity != "warning" or shown.get(kind, 0) < MAX_UNUSED_SHOWN:
            shown[kind] = shown.get(kind, 0) + 1
            kept.append(d)
        else:
            more.setdefault(kind, []).append(d)
    for rest in more.values():
        names = [m.group(1) for d in rest if (m := re.search(r"'(\w+)'", d.message))]
        listed = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        first = rest[0]
        kept.append(
            Diagnostic(
                first.span,
                f"{len(rest)} more like this: {first.message.replace(names[0], '...') if names else first.message} "
                f"({listed})",
                first.hint,
                "warning",
            )
        )
    return kept


@functools.lru_cache(maxsize=256)
def _bundled(path: str) -> bool:
    """Whether `path` is a file of the bundled games or card sets (`include twid`); asked
    of each variable's file, so answered once a file."""
    where = Path(path).resolve()
    return any(where.is_relative_to(folder.resolve()) for folder in (BUNDLED, BUNDLED_CARDS))


def _beside_files(program: Program) -> list[Path]:
    """The designer's test files of the game that are not part of the program, those the
    "never read" warning reads (`_read_beside`): `NAME.test.game` beside a file of it, the
    `*.test.game` of a `tests/` folder beside one (where `gamedef test NAME` finds them)."""
    files: list[Path] = []
    for source in program.sources:
        path = Path(source)
        if path.suffix != ".game" or path.name.endswith(".test.game"):
            continue
        files.append(path.with_name(path.name.removesuffix(".game") + ".test.game"))
        folder = path.parent / "tests"
        if folder.is_dir():
            files.extend(sorted(folder.glob("*.test.game")))
    return [f for f in dict.fromkeys(files) if str(f) not in program.sources and f.is_file()]


def beside_digest(program: Program) -> str:
    """A digest of the test files beside the game (`_beside_files`), their names and
    contents: what a check's warnings read besides the program. A remembered check (the
    verdicts of `gamedef check`, the language server's recent checks) is keyed by it too,
    so that editing only a test file (a variable it alone read, removed) is checked again."""
    digest = hashlib.sha256()
    for file in _beside_files(program):
        try:
            if file.stat().st_size > MAX_FILE_BYTES:  # (not read: `parse_file` refuses it too)
                continue
            data = file.read_bytes()
        except OSError:
            continue
        digest.update(f"{file}\0{len(data)}\0".encode("utf-8", "surrogatepass"))
        digest.update(data)
    return digest.hexdigest()[:32]


def _read_beside(program: Program) -> set[str]:
    """The names read in the designer's test files of the game that are not part of the
    program (`_beside_files`): a variable only a test reads is read, wherever the test is
    written. Any name counts (a local of the same name too), so that a warning is never a
    false alarm; a file that does not parse reads nothing."""
    names: set[str] = set()
    for file in _beside_files(program):
        try:
            module = parse_file(file)
        except GameDefError:
            continue
        names |= ast.names_in(module.decls)
    return names


def check_program(program: Program) -> list[Diagnostic]:
    """Check a program; raise GameDefError with every error, return the warnings."""
    return check_game(program)[1]


def check_game(program: Program, *, warn_unread: bool = True) -> tuple[SymbolTable, list[Diagnostic]]:
    """Check a program; raise GameDefError with every error. Its symbol table (what each
    name and expression resolved to, the compiler's input: `compile_game(program,
    symbols=...)`) and the warnings. A caller that drops the warnings (a load, to compile)
    passes `warn_unread=False`: whether a variable is never read is then not asked, as
    answering it reads the test files beside the game (a first load of The Wall is Down
    would read its tests' 0.5 s of text for nothing)."""
    with no_collection():  # linear in the program's size (core/limits.py)
        checker = Checker(program)
        checker.warn_unread = warn_unread
        diags = checker.run()
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise GameDefError(errors)
    return checker.table, [d for d in diags if d.severity == "warning"]


def local_types(program: Program) -> dict[str, dict[str, Type]]:
    """Each procedure's locals and their types (the checker's: types.py), by procedure name.
    A name bound with two types is left out (its type is not known): only what is sure is
    checked."""
    checker = Checker(program, scope_types=True)
    checker.run()
    bound = checker.table.scopes
    out = {}
    for proc, scope in checker.local_types.items():
        kinds = bound.get(proc, {})
        out[proc] = {n: t for n, t in scope.items() if len(kinds.get(n, ())) <= 1}
    return out


_LOCAL = Binding("", "local", None, ANY)


# The built-ins every game may call, whatever its components (not a grid's or a map's):
# a def, query or procedure of the same name and arity would take their place.
_GENERIC = frozenset(
    "count sum max min abs any all first last append concat without rotate index_of best sort sort_by str "
    "members initial".split()
)
_ARRANGE = re.compile(r"__test_\d+_arrange_\d+")  # a test's `arrange` block (language/testcode.py)
_EXPECT = re.compile(r"__test_(\d+)_expect_(\d+)")  # an `expect`'s condition (language/testcode.py), not a side of it


def _literal_value(e) -> int | bool | str | None:
    """A constant written as it is (a number, `-3`, true/false, a name), or None."""
    if isinstance(e, ast.Int | ast.Bool):
        return e.value
    if isinstance(e, ast.Neg) and isinstance(e.operand, ast.Int):
        return -e.operand.value
    if isinstance(e, ast.Name):
        return e.id
    return None


def _literal_choices(e) -> list | None:
    """An option's choices when they are written out (`1..8`, `[a, b]`), else None."""
    if isinstance(e, ast.Range):
        low, high = _literal_value(e.low), _literal_value(e.high)
        if isinstance(low, int) and isinstance(high, int) and not isinstance(low | high, bool) and high - low < 10_000:
            return list(range(low, high + 1))
        return None
    if isinstance(e, ast.ListLit):
        items = [_literal_value(x) for x in e.items]
        return None if any(x is None for x in items) else items
    return None


def _map_type(keys: tuple[Type, ...], value: Type) -> Type:
    """A variable's type for the record: its value type, or a map of its keys to it."""
    return MapOf(keys, value) if keys else value


def _names(props: list[str]) -> str:
    """`a`, `a or b`, `a, b or c`: the properties a component leaves out."""
    return props[0] if len(props) == 1 else ", ".join(props[:-1]) + " or " + props[-1]


# ---- none and narrowing ------------------------------------------------------------


def _noted(t, why: str):
    """`t` with the note of why it may be none (`{t}` in `why`: the type as shown), if it
    is a `T?`; any other type as it is."""
    return opt(t.inner, why.replace("{t}", show(t)), t.trusted) if isinstance(t, Maybe) and why else t


def _key(e) -> tuple | None:
    """What an expression reads, without where it is written: two expressions with the
    same key have the same value wherever nothing they read has changed in between (an
    expression changes nothing). None for one that is not narrowed (a list made, a
    comparison, ...)."""
    t = type(e)
    if t is ast.Name:
        return ("n", e.id)
    if t is ast.Member:
        inner = _key(e.obj)
        return None if inner is None else ("m", inner, e.name)
    if t is ast.Index:
        obj, key = _key(e.obj), _key(e.key)
        return None if obj is None or key is None else ("i", obj, key)
    if t is ast.Call:
        args = tuple(_key(a) for a in e.args)
        return None if None in args else ("c", e.func, args)
    if t in (ast.Int, ast.Bool):
        return ("lit", e.value)
    return None


def _mentions(key: tuple, names) -> bool:
    """Does `key` read one of `names` (a name, or a function called)?"""
    if key[0] == "n":
        return key[1] in names
    if key[0] == "c":
        return key[1] in names or any(_mentions(a, names) for a in key[2])
    if key[0] == "m":
        return _mentions(key[1], names)
    if key[0] == "i":
        return _mentions(key[1], names) or _mentions(key[2], names)
    return False


def _written(e, limit: int = 48) -> str:
    """An expression as a designer would write it (for a message), shortened if long."""
    text = _write(e)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _write(e) -> str:
    t = type(e)
    if t is ast.Name:
        return e.id
    if t is ast.Member:
        return f"{_write(e.obj)}.{e.name}"
    if t is ast.Index:
        return f"{_write(e.obj)}[{_write(e.key)}]"
    if t is ast.Call:
        return f"{e.func}({', '.join(_write(a) for a in e.args)})"
    if t is ast.Int:
        return str(e.value)
    if t is ast.Bool:
        return "true" if e.value else "false"
    if t is ast.NoneLit:
        return "none"
    if t is ast.BinOp:
        return f"{_write(e.left)} {e.op} {_write(e.right)}"
    if t is ast.Not:
        return f"not {_write(e.operand)}"
    if t is ast.ListLit:
        return f"[{', '.join(_write(i) for i in e.items)}]"
    return "..."


def _facts(e, truth: bool, memo: dict | None = None) -> frozenset:
    """The expressions (their `_key`s) that are surely not none where `e` is `truth`:
    `x != none` true, `x == none` false, both sides of a true `and`, both of a false `or`.
    `memo` keeps the answers by node (a long `and` chain is asked at each of its links)."""
    t = type(e)
    if t is ast.Not:
        return _facts(e.operand, not truth, memo)
    if t is not ast.BinOp:
        return frozenset()
    if memo is not None:
        known = memo.get((id(e), truth))
        if known is not None and known[0] is e:
            return known[1]
    found = _binop_facts(e, truth, memo)
    if memo is not None:
        memo[(id(e), truth)] = (e, found)
    return found


def _binop_facts(e: ast.BinOp, truth: bool, memo: dict | None) -> frozenset:
    left, right = e.left, e.right
    if isinstance(left, ast.Call) and left.func == "count" and len(left.args) == 1 and isinstance(right, ast.Int):
        # `count(xs) > 0` true (or `count(xs) == 0` false): first(xs) and last(xs) are not none
        nonempty = {(">", 0), ("!=", 0), (">=", 1)} if truth else {("==", 0), ("<", 1), ("<=", 0)}
        key = _key(left.args[0])
        if key is not None and (e.op, right.value) in nonempty:
            return frozenset((("c", "first", (key,)), ("c", "last", (key,))))
    if e.op in ("==", "!=") and truth == (e.op == "!="):
        other = e.left if isinstance(e.right, ast.NoneLit) else e.right if isinstance(e.left, ast.NoneLit) else None
        key = _key(other) if other is not None else None
        return frozenset() if key is None else frozenset((key,))
    if (e.op == "and" and truth) or (e.op == "or" and not truth):
        return _facts(e.left, truth, memo) | _facts(e.right, truth, memo)
    if e.op in ("and", "or"):  # either side may be why: what both say
        return _facts(e.left, truth, memo) & _facts(e.right, truth, memo)
    return frozenset()


def _changed(stmts) -> tuple[set[str], bool]:
    """The names `stmts` bind or assign, and whether they call out (a procedure, an
    event's triggers, a card's slot: any variable may change)."""
    names: set[str] = set()
    calls = False
    for s in stmts:
        if isinstance(s, ast.Let | ast.Assign):
            names.add(s.name)
            calls = calls or isinstance(s.value, ast.Call)
        elif isinstance(s, ast.For | ast.Choose | ast.Roll):
            names.add(s.var)
        elif isinstance(s, ast.Shuffle):
            names.add(s.name)
        elif isinstance(s, ast.CallStmt | ast.Emit | ast.Perform | ast.Grant | ast.Consume | ast.Return):
            calls = True
        for body in _bodies(s):
            inner, inner_calls = _changed(body)
            names |= inner
            calls = calls or inner_calls
    return names, calls


def _bodies(s) -> list:
    """The blocks of statements a statement holds."""
    if isinstance(s, ast.If):
        return [b for _, b in s.branches] + ([s.otherwise] if s.otherwise is not None else [])
    if isinstance(s, ast.May):
        return [s.body] + ([s.otherwise] if s.otherwise is not None else [])
    if isinstance(s, ast.While | ast.For):
        return [s.body]
    return []


def _falls_through(stmts) -> bool:
    """Can running `stmts` go on to the statement after them (not ending in a `return`,
    the game's end or a `break`)? After `if x == none { break }`, x is not none."""
    for s in stmts:
        if isinstance(s, ast.Break) or _ends(s):
            return False
        if isinstance(s, ast.If) and s.otherwise is not None:
            if not any(_falls_through(b) for b in [b for _, b in s.branches] + [s.otherwise]):
                return False
    return True
