"""Parse .game text into the frozen syntax tree of `syntax.py`.

The grammar lives in `grammar/gamedef.lark` (one LALR grammar, its analysis cached
by lark); this module only shapes lark's tree into typed nodes with positions and
turns lark's exceptions into `Diagnostic`s with a caret and a suggestion.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from stat import S_ISREG

import attrs
import lark
from lark import Token, Transformer, v_args
from lark.parse_tree_builder import ExpandSingleChild, PropagatePositions

from interpreter.core.errors import Diagnostic, GameDefError, Span, did_you_mean
from interpreter.core.limits import MAX_FILE_BYTES, MAX_INT, MAX_NESTING, MAX_SYNTAX_ERRORS, no_collection
from interpreter.core.paths import GRAMMAR
from interpreter.language import recovery, treecache
from interpreter.language import syntax as ast
from interpreter.language.sources import read_source


class _BareSlot(tuple):
    """A card's slot written without parentheses, told apart from `effect() { ... }`
    (which declares no parameters) until `card_decl` records it in `Card.bare_slots`."""


@functools.cache
def keywords() -> tuple[str, ...]:
    """The language's keywords: every word the grammar quotes (the grammar is their one source)."""
    return tuple(sorted(set(re.findall(r'"([a-z_]+)"', grammar_text()))))


def grammar_text() -> str:
    """The grammar, where core/paths.py finds it in a checkout and when installed."""
    return GRAMMAR.read_text(encoding="utf-8")


class _Positions:
    """Lark's position propagation of a `?rule`, less its calls that change nothing.

    Lark wraps every rule's callback in a `PropagatePositions`, a Python call per
    reduction that reads its children's positions. Most reductions of an expression are of
    a `?rule` with one child (`expr` to `or_expr` to ... to `atom`), whose result is that
    child itself: lark then copies the child's own positions onto it as its "container"
    positions, which it already holds (a tree placed by lark has both, a token is left
    alone, a tree with no position gets none). Such a reduction returns the child at once;
    any other is placed by lark's own code. The trees are the same, positions and all
    (tests/language/test_parser_positions.py); the parse of The Wall is Down is about a quarter
    faster (benchmarks/README.md)."""

    __slots__ = ("_inner", "_lark_call", "_single")

    def __init__(self, propagate: PropagatePositions) -> None:
        self._lark_call = propagate
        self._inner = propagate.node_builder
        # no child left out by the rule: one child is the result (lark's ExpandSingleChild)
        self._single = type(self._inner) is ExpandSingleChild

    def __call__(self, children: list):
        # Holds no state between calls: the one grammar serves every thread that parses.
        if len(children) == 1:
            if self._single:
                return children[0]
            if self._inner(children) is children[0]:
                return children[0]
            # (the child was left out: lark builds and places the node, built again)
        return self._lark_call(children)


class _Lark(lark.Lark):
    """`lark.Lark` with the position propagation of each `?rule` made `_Positions`."""

    def _prepare_callbacks(self) -> None:
        super()._prepare_callbacks()
        for rule, callback in self._callbacks.items():
            if type(callback) is PropagatePositions and rule.options.expand1 and not rule.alias:
                self._callbacks[rule] = _Positions(callback)


@functools.cache
def _lark() -> lark.Lark:
    return _Lark(
        grammar_text(),
        parser="lalr",
        start=["start", "expr"],
        propagate_positions=True,
        maybe_placeholders=False,
        cache=True,
    )


def _span(path: str, meta_or_token, offset: int = 0) -> Span:
    line = getattr(meta_or_token, "line", 0) or 0
    column = getattr(meta_or_token, "column", 0) or 0
    end_line = getattr(meta_or_token, "end_line", line)
    end = getattr(meta_or_token, "end_column", None) if end_line == line else None
    return Span(path, line, column + offset, end)


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "{": "{{", "}": "}}"}


_ZONE = object()  # the `zone` mark of a var declaration


class _Builder(Transformer):
    """One method per grammar alias; each returns a syntax node."""

    def __init__(self, path: str, base: Span | None = None):
        super().__init__()
        self.path = path
        self.base = base
        self._seat_titles: dict[str, str] = {}  # filled by `seat_name`, read by the header
        self._present: dict[tuple[str, ...], tuple[str, ...]] = {}  # `with [...]` of `roles`, by the seats before it
        self._header_spans: dict[str, Span] = {}  # where the header's `players` and `seats` are written

    # -- helpers --
    def _s(self, meta) -> Span:
        span = _span(self.path, meta)
        if self.base is None:
            return span
        end = None if span.end_column is None else self.base.column + span.end_column - 1
        return Span(self.path, self.base.line, self.base.column + span.column - 1, end)

    def string(self, tok: Token) -> ast.Str:
        """Split a string literal into text and `{expr}` parts, parsing each expr."""
        raw = tok[1:-1]
        text = re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), raw)
        parts: list = []
        pos = 0
        for match in re.finditer(r"(?<!\{)\{([^{}]+)\}(?!\})", text):
            if match.start() > pos:
                parts.append(text[pos : match.start()].replace("{{", "{").replace("}}", "}"))
            assert tok.line is not None and tok.column is not None  # the lexer places every token it makes
            line, column = tok.line, tok.column + 1 + match.start(1)
            if self.base is not None:
                line, column = self.base.line, self.base.column + column - 1
            span = Span(self.path, line, column)
            parts.append(parse_expression(match.group(1), span))
            pos = match.end()
        if pos < len(text):
            parts.append(text[pos:].replace("{{", "{").replace("}}", "}"))
        self._lone_brace(tok, text)
        return ast.Str(span=_span(self.path, tok), parts=tuple(parts))

    def _lone_brace(self, tok: Token, text: str) -> None:
        """A `{` never closed (`"wins trick {t"`) or a `}` never opened in a string: the
        text would be shown as written, braces and all, with no value put in. An error at
        the brace (`{{` and `}}` are the braces themselves)."""
        rest = re.sub(r"(?<!\{)\{[^{}]+\}(?!\})", lambda m: " " * len(m.group(0)), text)
        rest = rest.replace("{{", "  ").replace("}}", "  ")
        at = min((i for i in (rest.find("{"), rest.find("}")) if i >= 0), default=-1)
        if at < 0:
            return
        assert tok.line is not None and tok.column is not None  # the lexer places every token it makes
        # an escape (`\"`) shifts the text's columns from the file's: then at the string
        line, column = tok.line, tok.column + 1 + at if "\\" not in tok else tok.column
        if self.base is not None:
            line, column = self.base.line, self.base.column + column - 1
        brace = rest[at]
        message = "this '{' in a string is never closed" if brace == "{" else "this '}' in a string closes no '{'"
        raise GameDefError(
            [
                Diagnostic(
                    Span(self.path, line, column, column + 1),
                    message,
                    "close it: `{VALUE}` puts a value in the text; write `{{` or `}}` for a brace itself",
                )
            ]
        )

    def plain(self, tok: Token) -> str:
        return "".join(p for p in self.string(tok).parts if isinstance(p, str))

    # -- top level --
    def start(self, decls):
        out = []
        for d in decls:
            out.extend(d if isinstance(d, list) else [d])
        return out

    @v_args(meta=True)
    def game_decl(self, meta, children):
        name, rest = str(children[0]), children[1:]
        title = name
        if rest and isinstance(rest[0], Token):
            title, rest = self.plain(rest[0]), rest[1:]
        items = dict(rest)
        present, self._present = self._present, {}  # a later header (`replace game`) has its own
        lo, hi, usual = items.get("players", (1, 1, 0))
        spans, self._header_spans = self._header_spans, {}
        if usual and not lo <= usual <= hi:
            message = f"the default of {usual} players is outside {lo}..{hi}"
            raise GameDefError([Diagnostic(self._s(meta), message, "pick a count in range")])
        return ast.GameHeader(
            span=self._s(meta),
            name=name,
            title=title,
            min_players=lo,
            max_players=hi,
            default_players=usual,
            seats=items.get("seats", ()),
            rulebook=items.get("rulebook"),
            summary=items.get("summary"),
            roles=tuple(r for r in items.get("roles", ()) if len(r) == 2),
            option_roles=tuple(r for r in items.get("roles", ()) if len(r) == 4),
            seat_titles=tuple(self._seat_titles.items()),
            present=tuple(present.items()),
            players_span=spans.get("players"),
            seats_span=spans.get("seats"),
        )

    def _number(self, token: Token, span: Span | None = None) -> int:
        """A whole number written in the file, refused past MAX_INT before `int()`
        (a literal of thousands of digits is slow to convert, and no game needs it)."""
        if len(token) > len(str(MAX_INT)) or int(token) > MAX_INT:
            shown = f"{token[:24]}{'...' if len(token) > 24 else ''}"
            where = span or self._s(token)
            raise GameDefError([Diagnostic(where, f"the number {shown} is too large", f"numbers go up to {MAX_INT:,}")])
        return int(token)

    @v_args(meta=True)
    def players_item(self, meta, c):
        counts = [self._number(t) for t in c]
        self._header_spans["players"] = self._s(meta)
        return ("players", (counts[0], counts[1], counts[2] if len(counts) == 3 else 0))

    @v_args(meta=True)
    def seats_item(self, meta, c):
        self._header_spans["seats"] = self._s(meta)
        return ("seats", c[0])

    def rulebook_item(self, c):
        return ("rulebook", self.plain(c[0]))

    def summary_item(self, c):
        return ("summary", self.plain(c[0]))

    def roles_item(self, c):
        return ("roles", tuple(c))

    def role_rule(self, c):
        """`3 players: [...]`, or `3 players when static == us: [...]` (count, seats, option, value).
        `with [...]` after the seats names the seats in play that no player plays (kept
        by the seats it goes with, for the header's `present`)."""
        if c and isinstance(c[-1], list):  # role_with
            *c, also = c
            self._present[tuple(c[-1])] = self._present.get(tuple(c[-1]), ()) + tuple(also)
        if len(c) == 3:
            return (self._number(c[0]), c[2], *c[1])
        return (self._number(c[0]), c[1])

    def role_with(self, c):
        return list(c[0])

    def role_when(self, c):
        return (str(c[0]), str(c[1]))

    def seat_names(self, c):
        return tuple(c)

    def seat_name(self, c):
        """`german "Germany"`: a seat and, optionally, how it is written for players."""
        name = str(c[0])
        if len(c) > 1:
            self._seat_titles[name] = self.plain(c[1])
        return name

    def names(self, c):
        return tuple(str(t) for t in c)

    @v_args(meta=True)
    def include_decl(self, meta, c):
        return ast.Include(span=self._s(meta), path=self.plain(c[0]))

    @v_args(meta=True)
    def include_bundled(self, meta, c):
        return ast.Include(span=self._s(meta), path="/".join(str(t) for t in c), bundled=True)

    @v_args(meta=True)
    def option_decl(self, meta, c):
        name, typ, default, *rest = c
        choices, desc = None, ""
        for item in rest:
            if isinstance(item, Token):
                desc = self.plain(item)
            else:
                choices = item
        return ast.Option(
            span=self._s(meta),
            name=str(name),
            type=typ,
            default=default,
            choices=choices,
            description=desc,
        )

    def choices(self, c):
        return c[0]

    @v_args(meta=True)
    def enum_decl(self, meta, c):
        return ast.Enum(span=self._s(meta), name=str(c[0]), members=tuple(c[1:]))

    @v_args(meta=True)
    def enum_member(self, meta, c):
        title = self.plain(c[1]) if len(c) > 1 else str(c[0]).replace("_", " ")
        return ast.EnumMember(span=self._s(meta), name=str(c[0]), title=title)

    @v_args(meta=True)
    def entity_decl(self, meta, c):
        fields = tuple(x for x in c[1:] if isinstance(x, ast.Field))
        shorts = [x for x in c[1:] if isinstance(x, ast.Str)]
        return ast.Entity(
            span=self._s(meta),
            name=str(c[0]),
            fields=fields,
            short=shorts[0] if shorts else None,
            slots=tuple(x for x in c[1:] if isinstance(x, ast.SlotSignature)),
        )

    @v_args(meta=True)
    def slot_decl(self, meta, c):
        return ast.SlotSignature(span=self._s(meta), name=str(c[0]), params=c[1] if len(c) > 1 else ())

    @v_args(meta=True)
    def field_decl(self, meta, c):
        changeable = "changeable" in c[2:]
        unique = "unique" in c[2:]
        rest = [x for x in c[2:] if x not in ("changeable", "unique")]
        vis = rest[0] if rest else None
        return ast.Field(
            span=self._s(meta),
            name=str(c[0]),
            type=c[1],
            visible=vis if vis is not None and vis != "never" else None,
            hidden=vis == "never",
            changeable=changeable,
            unique=unique,
        )

    def changeable(self, c):
        return "changeable"

    def unique(self, c):
        return "unique"

    def visible_when(self, c):
        return c[0]

    def visible_never(self, c):
        return "never"

    def short_decl(self, c):
        return self.string(c[0])

    @v_args(meta=True)
    def generate_decl(self, meta, c):
        iters = tuple(x for x in c[2:] if isinstance(x, tuple))
        values = tuple(x for x in c[2:] if isinstance(x, ast.FieldValue))
        return ast.Generate(
            span=self._s(meta),
            kind=str(c[0]),
            name_template=self.string(c[1]),
            iterators=iters,
            values=values,
        )

    def iter_clause(self, c):
        return (str(c[0]), c[1])

    @v_args(meta=True)
    def field_value(self, meta, c):
        return ast.FieldValue(span=self._s(meta), name=str(c[0]), value=c[1])

    @v_args(meta=True)
    def card_decl(self, meta, c):
        name, rest = str(c[0]), list(c[1:])
        title, kind = name.replace("_", " "), "Card"
        if rest and isinstance(rest[0], Token) and rest[0].type == "STRING":
            title = self.plain(rest.pop(0))
        if rest and isinstance(rest[0], Token) and rest[0].type == "NAME":
            kind = str(rest.pop(0))
        has_title = len(c) > 1 and isinstance(c[1], Token) and c[1].type == "STRING"
        has_kind = any(isinstance(x, Token) and x.type == "NAME" for x in c[1:3])
        props, slots, triggers, statics, leaves, text, has_text = [], [], [], [], [], "", False
        bare: list[str] = []
        for item in rest:
            if isinstance(item, _BareSlot):
                bare.append(item[0])
                slots.append(tuple(item))
            elif isinstance(item, ast.FieldValue):
                props.append(item)
            elif isinstance(item, ast.Trigger):
                triggers.append(item)
            elif isinstance(item, ast.StaticModifier):
                statics.append(item)
            elif isinstance(item, ast.LeaveHook):
                leaves.append(item)
            elif isinstance(item, tuple) and item[0] == "text":
                text, has_text = item[1], True
            else:
                slots.append(item)
        return ast.Card(
            span=self._s(meta),
            name=name,
            title=title,
            kind=kind,
            props=tuple(props),
            slots=tuple(slots),
            text=text,
            triggers=tuple(triggers),
            statics=tuple(statics),
            leaves=tuple(leaves),
            has_title=has_title,
            has_kind=has_kind,
            has_text=has_text,
            bare_slots=tuple(bare),
        )

    @v_args(meta=True)
    def leave_hook(self, meta, c):
        return ast.LeaveHook(span=self._s(meta), var=str(c[0]), body=c[1])

    @v_args(meta=True)
    def card_prop(self, meta, c):
        return ast.FieldValue(span=self._s(meta), name=str(c[0]), value=c[1])

    @v_args(meta=True)
    def card_slot(self, meta, c):
        params = c[1] if len(c) > 2 else ()
        return (str(c[0]), c[-1], self._s(meta), params)

    @v_args(meta=True)
    def card_bare_slot(self, meta, c):
        """`effect { ... }`, no parentheses: it takes the parameters its kind declares."""
        return _BareSlot((str(c[0]), c[-1], self._s(meta), ()))

    def card_text(self, c):
        return ("text", self.plain(c[0]))

    @v_args(meta=True)
    def var_decl(self, meta, c):
        zone = c[-1] is _ZONE
        c = c[:-1] if zone else c
        bounds = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "bounds"), None)
        c = [x for x in c if not (isinstance(x, tuple) and x[0] == "bounds")]
        seen = str(c[3]) if len(c) > 3 else "all"
        span = self._s(meta)
        if bounds is not None and bounds[0] > bounds[1]:
            raise GameDefError(
                [Diagnostic(span, f"bounds from {bounds[0]} to {bounds[1]} are empty", "write the lowest first")]
            )
        return ast.Var(span=span, name=str(c[0]), type=c[1], default=c[2], seen_by=seen, zone=zone, bounds=bounds)

    def var_bounds(self, c):
        return ("bounds", (c[0], c[1]))

    @v_args(meta=True)
    def invariant_decl(self, meta, c):
        return ast.Invariant(span=self._s(meta), text=self.plain(c[0]), value=c[1])

    def zone(self, c):
        return _ZONE

    def seen_by(self, c):
        return c[0]

    @v_args(meta=True)
    def grid_decl(self, meta, c):
        return ast.Grid(span=self._s(meta), name=str(c[0]), columns=c[1], rows=c[2])

    @v_args(meta=True)
    def graph_decl(self, meta, c):
        return ast.Graph(span=self._s(meta), name=str(c[0]))

    @v_args(meta=True)
    def link_decl(self, meta, c):
        return ast.Link(span=self._s(meta), node=str(c[0]), others=c[1], kind=str(c[2]) if len(c) > 2 else None)

    # -- tables --
    @v_args(meta=True)
    def table_decl(self, meta, c):
        kind, path, items = str(c[0]), self.plain(c[1]), c[2:]
        named = [x for x in items if isinstance(x, tuple) and x[0] == "named"]
        titled = [x[1] for x in items if isinstance(x, tuple) and x[0] == "titled"]
        span = self._s(meta)
        if len(named) > 1 or len(titled) > 1:
            word = "named" if len(named) > 1 else "titled"
            raise GameDefError(
                [Diagnostic(span, f"a table says `{word} by` twice", "one column gives the names, one the titles")]
            )
        return ast.DataTable(
            span=span,
            kind=kind,
            path=path,
            name_columns=named[0][1] if named else (),
            name_span=named[0][2] if named else None,
            renames=named[0][3] if named else (),
            title_column=titled[0] if titled else None,
            columns=tuple(x for x in items if isinstance(x, ast.Column)),
            ignored=tuple(n for x in items if isinstance(x, tuple) and x[0] == "ignore" for n in x[1]),
            empty=tuple(t for x in items if isinstance(x, tuple) and x[0] == "empty" for t in x[1]),
        )

    @v_args(meta=True)
    def table_named(self, meta, c):
        span = self._s(meta)
        columns = tuple(str(t) for t in c if isinstance(t, Token))
        twice = [n for i, n in enumerate(columns) if n in columns[:i]]
        if twice:
            raise GameDefError(
                [Diagnostic(span, f"`named by` reads the column '{twice[0]}' twice", "name each column once")]
            )
        return ("named", columns, span, tuple(x for x in c if not isinstance(x, Token)))

    def rename(self, c):
        return (self.plain(c[0]), str(c[1]))

    def table_titled(self, c):
        return ("titled", str(c[0]))

    @v_args(meta=True)
    def table_ignore(self, meta, c):
        span = self._s(meta)
        return ("ignore", tuple((n, span) for n in c[0]))

    def table_empty(self, c):
        return ("empty", tuple(self.plain(t) for t in c))

    @v_args(meta=True)
    def table_column(self, meta, c):
        names = [str(t) for t in c if isinstance(t, Token)]
        options = [x for x in c if isinstance(x, tuple)]
        separators = [x[1] for x in options if x[0] == "separated"]
        counters = [x[1] for x in options if x[0] == "counted"]
        return ast.Column(
            span=self._s(meta),
            prop=names[0],
            column=names[-1],
            separator=separators[-1] if separators else None,
            readings=tuple(r for x in options if x[0] == "with" for r in x[1]),
            counter=counters[-1] if counters else None,
        )

    def separated(self, c):
        return ("separated", self.plain(c[0]))

    def counted(self, c):
        return ("counted", self.plain(c[0]))

    def readings(self, c):
        return ("with", tuple(c))

    @v_args(meta=True)
    def reading(self, meta, c):
        return ast.Reading(span=self._s(meta), text=self.plain(c[0]), value=c[1])

    @v_args(meta=True)
    def links_decl(self, meta, c):
        kind = [x[1] for x in c if isinstance(x, tuple) and x[0] == "kind"]
        c = [x for x in c if not (isinstance(x, tuple) and x[0] == "kind")]
        columns = (str(c[1]), str(c[2])) if len(c) == 3 else None
        return ast.Links(
            span=self._s(meta), path=self.plain(c[0]), columns=columns, kind_column=kind[0] if kind else None
        )

    def link_kind(self, c):
        return ("kind", str(c[0]))

    # -- types --
    @v_args(meta=True)
    def named_type(self, meta, c):
        return ast.NamedType(span=self._s(meta), name=str(c[0]))

    @v_args(meta=True)
    def list_type(self, meta, c):
        return ast.ListType(span=self._s(meta), element=c[0])

    @v_args(meta=True)
    def optional_type(self, meta, c):
        return ast.OptionalType(span=self._s(meta), inner=c[0])

    @v_args(meta=True)
    def map_type(self, meta, c):
        return ast.MapType(span=self._s(meta), key=c[0], value=c[1])

    # -- behaviour --
    @v_args(meta=True)
    def event_decl(self, meta, c):
        params = c[1] if len(c) > 1 else ()
        return ast.Event(span=self._s(meta), name=str(c[0]), params=params)

    @v_args(meta=True)
    def def_decl(self, meta, c):
        params = c[1] if len(c) > 2 else ()
        return ast.Def(span=self._s(meta), name=str(c[0]), params=params, body=c[-1])

    @v_args(meta=True)
    def query_decl(self, meta, c):
        params = c[1] if len(c) > 3 else ()
        return ast.Query(span=self._s(meta), name=str(c[0]), params=params, type=c[-2], base=c[-1])

    @v_args(meta=True)
    def static_modifier(self, meta, c):
        return ast.StaticModifier(span=self._s(meta), condition=c[0], modifier=c[1])

    def _modifier(self, meta, c, op: str, has_value: bool):
        name, rest = str(c[0]), list(c[1:])
        names = rest.pop(0) if rest and isinstance(rest[0], tuple) else ()
        value = rest.pop(0) if has_value else None
        where = rest[0][1] if rest else None
        return ast.Modifier(span=self._s(meta), query=name, names=names, op=op, value=value, where=where)

    @v_args(meta=True)
    def mod_set(self, meta, c):
        return self._modifier(meta, c, "=", True)

    @v_args(meta=True)
    def mod_add(self, meta, c):
        return self._modifier(meta, c, "+", True)

    @v_args(meta=True)
    def mod_sub(self, meta, c):
        return self._modifier(meta, c, "-", True)

    @v_args(meta=True)
    def mod_forbid(self, meta, c):
        return self._modifier(meta, c, "forbid", False)

    @v_args(meta=True)
    def mod_allow(self, meta, c):
        return self._modifier(meta, c, "allow", False)

    def where(self, c):
        return ("where", c[0])

    def until_event(self, c):
        return ("until", str(c[0]))

    def forever(self, c):
        return ("until", None)

    @v_args(meta=True)
    def grant_stmt(self, meta, c):
        return ast.Grant(span=self._s(meta), until=c[0][1], once=False, modifier=c[1])

    @v_args(meta=True)
    def grant_once_stmt(self, meta, c):
        return ast.Grant(span=self._s(meta), until=c[0][1], once=True, modifier=c[1])

    @v_args(meta=True)
    def link_stmt(self, meta, c):
        return ast.LinkStmt(span=self._s(meta), a=c[0], b=c[1], kind=str(c[2]) if len(c) > 2 else None)

    @v_args(meta=True)
    def consume_stmt(self, meta, c):
        return ast.Consume(span=self._s(meta), query=str(c[0]), args=c[1] if len(c) > 1 else ())

    @v_args(meta=True)
    def procedure_decl(self, meta, c):
        params = next((x for x in c[1:-1] if isinstance(x, tuple)), ())
        result = next((x for x in c[1:-1] if not isinstance(x, tuple)), None)  # a type node
        return ast.Procedure(span=self._s(meta), name=str(c[0]), params=params, body=c[-1], result=result)

    def result_type(self, c):
        return c[0]

    @v_args(meta=True)
    def trigger_decl(self, meta, c):
        event, rest = str(c[0]), list(c[1:])
        names = (
            rest.pop(0)
            if rest
            and isinstance(rest[0], tuple)
            and not rest[0]
            or (rest and isinstance(rest[0], tuple) and all(isinstance(n, str) for n in rest[0]))
            else ()
        )
        body = rest.pop()
        where = rest[0] if rest else None
        return ast.Trigger(span=self._s(meta), event=event, names=names, where=where, body=body)

    def params(self, c):
        return tuple(c)

    @v_args(meta=True)
    def param(self, meta, c):
        return ast.Param(span=self._s(meta), name=str(c[0]), type=c[1])

    @v_args(meta=True)
    def variant_decl(self, meta, c):
        name, rest = str(c[0]), list(c[1:])
        title, base = name.replace("_", " "), None
        if rest and isinstance(rest[0], Token) and rest[0].type == "STRING":
            title = self.plain(rest.pop(0))
        if rest and isinstance(rest[0], Token) and rest[0].type == "NAME":
            base = str(rest.pop(0))
        decls, excludes, cites, notes = [], [], [], []
        for item in rest:
            if isinstance(item, tuple) and item and item[0] == "excludes":
                excludes.extend(item[1])
            elif isinstance(item, ast.Cite):
                cites.append(item.section)
            elif isinstance(item, ast.Note):
                notes.append(item.text)
            elif isinstance(item, list):  # `remove card [a, b]`
                decls.extend(item)
            else:
                decls.append(item)
        return ast.Variant(
            span=self._s(meta),
            name=name,
            title=title,
            base=base,
            decls=tuple(decls),
            excludes=tuple(excludes),
            cites=tuple(cites),
            notes=tuple(notes),
        )

    def excludes(self, c):
        return ("excludes", c[0])

    @v_args(meta=True)
    def cite_decl(self, meta, c):
        return ast.Cite(span=self._s(meta), section=self.plain(c[0]))

    @v_args(meta=True)
    def note_decl(self, meta, c):
        return ast.Note(span=self._s(meta), text=self.plain(c[0]))

    @v_args(meta=True)
    def remove_decl(self, meta, c):
        names = c[1] if isinstance(c[1], tuple) else (str(c[1]),)
        return [ast.Remove(span=self._s(meta), kind=c[0], name=n) for n in names]

    def remove_kind(self, c):
        return str(c[0])

    @v_args(meta=True)
    def replace_decl(self, meta, c):
        return ast.Replace(span=self._s(meta), decl=c[0])

    # -- designers' tests --
    @v_args(meta=True)
    def test_decl(self, meta, c):
        """A test block: its settings (each at most once) and its steps, in order."""
        name, rest = str(c[0]), c[1:]
        title = name
        if rest and isinstance(rest[0], Token):
            title, rest = self.plain(rest[0]), rest[1:]
        fields: dict = {"variants": [], "options": [], "steps": [], "citations": []}
        settings: list[tuple[str, Span]] = []
        for kind, value, span in rest:
            if kind == "players":
                settings.append(("players", span))
            elif kind == "variants":
                settings.extend((f"variant:{v}", span) for v in value)
            elif kind == "options":
                settings.extend((f"option:{name}", span) for name, _ in value)
            if kind in ("variants", "options", "steps", "citations"):
                fields[kind].extend(value)
                continue
            if kind in fields:
                raise GameDefError([Diagnostic(span, f"a test gives its {kind} once", "remove one of the two")])
            fields[kind] = value
        return ast.Test(
            span=self._s(meta),
            name=name,
            title=title,
            players=fields.get("players"),
            seed=fields.get("seed", 0),
            variants=tuple(fields["variants"]),
            options=tuple(fields["options"]),
            state=fields.get("state"),
            dice=tuple(fields.get("dice", ())),
            run=fields.get("run"),
            steps=tuple(fields["steps"]),
            citations=tuple(fields["citations"]),
            source_range=(meta.start_pos, meta.end_pos),
            settings=tuple(settings),
        )

    @v_args(meta=True)
    def test_players(self, meta, c):
        return ("players", self._number(c[0]), self._s(meta))

    @v_args(meta=True)
    def test_variant(self, meta, c):
        return ("variants", [str(c[0])], self._s(meta))

    @v_args(meta=True)
    def test_option(self, meta, c):
        return ("options", [(str(c[0]), c[1])], self._s(meta))

    @v_args(meta=True)
    def test_rule(self, meta, c):
        return ("citations", [self.plain(c[0])], self._s(meta))

    @v_args(meta=True)
    def test_block(self, meta, c):
        """`arrange { ... }` (a step) or `run { ... }` (played instead of play())."""
        word, span = str(c[0]), self._s(meta)
        if word == "arrange":
            return ("steps", [ast.TestStep(span=span, kind="arrange", body=c[1])], span)
        if word == "run":
            return ("run", c[1], span)
        raise GameDefError(
            [Diagnostic(span, f"a test has no block '{word}'", "write `arrange { ... }` or `run { ... }`")]
        )

    @v_args(meta=True)
    def test_word(self, meta, c):
        """seed N, state "FILE", dice [..], play "LABEL", ..., expect CONDITION."""
        word, values, span = str(c[0]), c[1:], self._s(meta)
        if word == "play":
            if not all(isinstance(v, ast.Str) for v in values):
                raise GameDefError([Diagnostic(span, 'play takes labels: play "LABEL", ...', None)])
            return ("steps", [self._play(v) for v in values], span)
        if word in ("seed", "state", "dice", "expect", "reach") and len(values) != 1:
            raise GameDefError([Diagnostic(span, f"`{word}` takes one value", None)])
        value = values[0]
        if word == "seed" and isinstance(value, ast.Int):
            return ("seed", value.value, span)
        text = _plain_text(value) if isinstance(value, ast.Str) else None
        if word == "state" and text is not None:
            return ("state", text, span)
        if word == "dice" and isinstance(value, ast.ListLit) and all(_die(x) is not None for x in value.items):
            return ("dice", [_die(x) for x in value.items], span)
        if word == "expect":
            return ("steps", [_expectation(value, value.span)], span)
        if word == "reach":  # the first label offered is played until the condition holds
            forms: list[tuple[str, str, str, str]] = []
            step = ast.TestStep(span=value.span, kind="until", expr=_with_forms(value, forms), forms=tuple(forms))
            return ("steps", [step], span)
        if word in ("seed", "state", "dice"):
            shape = {"seed": "a whole number", "state": 'a file name: state "FILE.toml"', "dice": "a list: dice [4, 6]"}
            raise GameDefError([Diagnostic(span, f"`{word}` takes {shape[word]}", None)])
        hint = "a test has: players, seed, variant, option, state, dice, run, arrange, play, reach, expect, rule"
        raise GameDefError(
            [
                Diagnostic(
                    span, f"unknown test item '{word}'", did_you_mean(word, hint.split(": ")[1].split(", ")) or hint
                )
            ]
        )

    def _play(self, label: ast.Str) -> ast.TestStep:
        text = _plain_text(label)
        if text is None:
            raise GameDefError([Diagnostic(label.span, "a label to play is plain text, with no {...}", None)])
        return ast.TestStep(span=label.span, kind="play", text=text)

    # -- statements --
    def block(self, c):
        return tuple(c)

    @v_args(meta=True)
    def let_stmt(self, meta, c):
        return ast.Let(span=self._s(meta), name=str(c[0]), value=c[1])

    def _assign(self, meta, c, op):
        name, keys = c[0]
        return ast.Assign(span=self._s(meta), name=name, keys=keys, op=op, value=c[1])

    @v_args(meta=True)
    def set_stmt(self, meta, c):
        return self._assign(meta, c, "=")

    @v_args(meta=True)
    def add_stmt(self, meta, c):
        return self._assign(meta, c, "+")

    @v_args(meta=True)
    def sub_stmt(self, meta, c):
        return self._assign(meta, c, "-")

    def target(self, c):
        return (str(c[0]), tuple(c[1:]))

    @v_args(meta=True)
    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        otherwise = None
        for item in c[2:]:
            if item[0] == "elif":
                branches.append(item[1])
            else:
                otherwise = item[1]
        return ast.If(span=self._s(meta), branches=tuple(branches), otherwise=otherwise)

    def elif_part(self, c):
        return ("elif", (c[0], c[1]))

    def else_part(self, c):
        return ("else", c[0])

    @v_args(meta=True)
    def for_stmt(self, meta, c):
        return ast.For(span=self._s(meta), var=str(c[0]), iterable=c[1], body=c[2])

    @v_args(meta=True)
    def while_stmt(self, meta, c):
        return ast.While(span=self._s(meta), condition=c[0], body=c[1])

    @v_args(meta=True)
    def choose_stmt(self, meta, c):
        opts = dict(c[3:])
        return ast.Choose(
            span=self._s(meta),
            var=str(c[0]),
            options=c[1],
            player=c[2],
            prompt=opts.get("prompt"),
            label=opts.get("label"),
            optional="optional" in opts,
            secret="secret" in opts,
        )

    def prompt_opt(self, c):
        return ("prompt", self.string(c[0]))

    def label_opt(self, c):
        return ("label", c[0])

    def optional_opt(self, c):
        return ("optional", True)

    def secret_opt(self, c):
        return ("secret", True)

    @v_args(meta=True)
    def may_stmt(self, meta, c):
        prompt = next((x[1] for x in c if isinstance(x, tuple) and x and x[0] == "may prompt"), None)
        c = [x for x in c if not (isinstance(x, tuple) and x and x[0] == "may prompt")]
        otherwise = c[3][1] if len(c) > 3 else None
        return ast.May(
            span=self._s(meta),
            player=c[0],
            text=self.string(c[1]),
            body=c[2],
            otherwise=otherwise,
            prompt=prompt,
        )

    def may_prompt(self, c):
        return ("may prompt", self.string(c[0]))

    @v_args(meta=True)
    def roll_stmt(self, meta, c):
        return ast.Roll(span=self._s(meta), var=str(c[0]), source=c[1])

    @v_args(meta=True)
    def shuffle_stmt(self, meta, c):
        name, keys = c[0]
        return ast.Shuffle(span=self._s(meta), name=name, keys=keys)

    @v_args(meta=True)
    def emit_stmt(self, meta, c):
        return ast.Emit(span=self._s(meta), event=str(c[0]), args=c[1] if len(c) > 1 else ())

    @v_args(meta=True)
    def perform_stmt(self, meta, c):
        c = list(c)
        cancel = c.pop() if c and isinstance(c[-1], tuple) and c[-1] and c[-1][0] == "cancellable" else None
        target, args = c[0], (c[1] if len(c) > 1 else ())
        if not isinstance(target, ast.Member):
            raise GameDefError(
                [
                    Diagnostic(
                        self._s(meta),
                        "`perform` runs a card's slot: perform CARD.SLOT(...)",
                        "for example: perform c.effect()",
                    )
                ]
            )
        return ast.Perform(
            span=self._s(meta),
            entity=target.obj,
            slot=target.name,
            args=args,
            cancel_event=cancel[1] if cancel else None,
            cancel_args=cancel[2] if cancel else (),
        )

    def cancellable(self, c):
        return ("cancellable", str(c[0]), c[1] if len(c) > 1 else ())

    @v_args(meta=True)
    def cancel_stmt(self, meta, c):
        return ast.Cancel(span=self._s(meta))

    @v_args(meta=True)
    def log_stmt(self, meta, c):
        return ast.Log(span=self._s(meta), text=self.string(c[0]), audience=None)

    @v_args(meta=True)
    def log_headline_stmt(self, meta, c):
        return ast.Log(span=self._s(meta), text=self.string(c[0]), audience=None, headline=True)

    @v_args(meta=True)
    def log_to_stmt(self, meta, c):
        return ast.Log(span=self._s(meta), text=self.string(c[1]), audience=c[0])

    @v_args(meta=True)
    def win_stmt(self, meta, c):
        return ast.Win(span=self._s(meta), winners=c[0])

    @v_args(meta=True)
    def game_over_stmt(self, meta, c):
        return ast.GameOver(span=self._s(meta), winners=c[0])

    @v_args(meta=True)
    def require_stmt(self, meta, c):
        return ast.Require(span=self._s(meta), condition=c[0], message=self.string(c[1]))

    @v_args(meta=True)
    def break_stmt(self, meta, c):
        return ast.Break(span=self._s(meta))

    @v_args(meta=True)
    def return_stmt(self, meta, c):
        return ast.Return(span=self._s(meta), value=c[0] if c else None)

    @v_args(meta=True)
    def cite_stmt(self, meta, c):
        return ast.Cite(span=self._s(meta), section=self.plain(c[0]))

    @v_args(meta=True)
    def note_stmt(self, meta, c):
        return ast.Note(span=self._s(meta), text=self.plain(c[0]))

    @v_args(meta=True)
    def call_stmt(self, meta, c):
        return ast.CallStmt(span=self._s(meta), name=str(c[0]), args=c[1] if len(c) > 1 else ())

    def args(self, c):
        return tuple(c)

    # -- expressions --
    @v_args(meta=True)
    def lambda_(self, meta, c):
        return ast.Lambda(span=self._s(meta), param=str(c[0]), body=c[1])

    @v_args(meta=True)
    def if_expr(self, meta, c):
        return ast.IfExpr(span=self._s(meta), condition=c[0], then=c[1], otherwise=c[2])

    def _bin(self, meta, op, c):
        return ast.BinOp(span=self._s(meta), op=op, left=c[0], right=c[-1])

    @v_args(meta=True)
    def or_(self, meta, c):
        return self._bin(meta, "or", c)

    @v_args(meta=True)
    def and_(self, meta, c):
        return self._bin(meta, "and", c)

    @v_args(meta=True)
    def not_(self, meta, c):
        return ast.Not(span=self._s(meta), operand=c[0])

    @v_args(meta=True)
    def compare_(self, meta, c):
        return self._bin(meta, str(c[1]), c)

    @v_args(meta=True)
    def in_(self, meta, c):
        return self._bin(meta, "in", c)

    @v_args(meta=True)
    def not_in(self, meta, c):
        return self._bin(meta, "not in", c)

    @v_args(meta=True)
    def coalesce_(self, meta, c):
        return self._bin(meta, "??", c)

    @v_args(meta=True)
    def range_(self, meta, c):
        return ast.Range(span=self._s(meta), low=c[0], high=c[1])

    @v_args(meta=True)
    def add(self, meta, c):
        return self._bin(meta, "+", c)

    @v_args(meta=True)
    def sub(self, meta, c):
        return self._bin(meta, "-", c)

    @v_args(meta=True)
    def mul(self, meta, c):
        return self._bin(meta, "*", c)

    @v_args(meta=True)
    def div(self, meta, c):
        return self._bin(meta, "/", c)

    @v_args(meta=True)
    def mod(self, meta, c):
        return self._bin(meta, "%", c)

    @v_args(meta=True)
    def neg_int(self, meta, c):
        return ast.Neg(span=self._s(meta), operand=ast.Int(span=self._s(meta), value=self._number(c[0], self._s(meta))))

    @v_args(meta=True)
    def neg(self, meta, c):
        return ast.Neg(span=self._s(meta), operand=c[0])

    @v_args(meta=True)
    def member(self, meta, c):
        return ast.Member(span=self._s(meta), obj=c[0], name=str(c[1]))

    @v_args(meta=True)
    def index(self, meta, c):
        return ast.Index(span=self._s(meta), obj=c[0], key=c[1])

    @v_args(meta=True)
    def call(self, meta, c):
        return ast.Call(span=self._s(meta), func=str(c[0]), args=c[1] if len(c) > 1 else ())

    @v_args(meta=True)
    def int_lit(self, meta, c):
        return ast.Int(span=self._s(meta), value=self._number(c[0], self._s(meta)))

    @v_args(meta=True)
    def about_decl(self, meta, c):
        return ast.About(span=self._s(meta), name=str(c[0]), text=self.plain(c[1]))

    @v_args(meta=True)
    def payoff_decl(self, meta, c):
        total = next((x[1] for x in c if isinstance(x, tuple)), None)
        name, low, high, value = [x for x in c if not isinstance(x, tuple)]
        span = self._s(meta)
        if low >= high:
            raise GameDefError([Diagnostic(span, f"a payoff from {low} to {high} is empty", "write the lowest first")])
        return ast.Payoff(span=span, var=str(name), low=low, high=high, value=value, total=total)

    @v_args(meta=True)
    def estimate_decl(self, meta, c):
        name, *bounds, value = c
        span = self._s(meta)
        low, high = bounds if bounds else (None, None)
        if low is not None and high is not None and low >= high:
            raise GameDefError(
                [Diagnostic(span, f"an estimate from {low} to {high} is empty", "write the lowest first")]
            )
        return ast.Estimate(span=span, var=str(name), low=low, high=high, value=value)

    def payoff_sum(self, c):
        return ("sum", c[0])

    def bound(self, c):
        return self._number(c[0])

    def neg_bound(self, c):
        return -self._number(c[0])

    @v_args(meta=True)
    def view_decl(self, meta, c):
        return ast.View(span=self._s(meta), items=tuple(c))

    @v_args(meta=True)
    def view_line(self, meta, c):
        return ast.ViewLine(span=self._s(meta), text=c[0], when=c[1] if len(c) > 1 else None)

    @v_args(meta=True)
    def view_status(self, meta, c):
        return ast.ViewLine(span=self._s(meta), text=c[0], when=c[1] if len(c) > 1 else None, status=True)

    @v_args(meta=True)
    def view_board(self, meta, c):
        return ast.ViewBoard(span=self._s(meta), var=str(c[0]))

    def view_by(self, c):
        return ("by", c[0])

    def view_as(self, c):
        return ("as", c[0])

    def view_when(self, c):
        return ("when", c[0])

    def view_layout(self, c):
        return ("layout", str(c[0]))

    @v_args(meta=True)
    def view_places(self, meta, c):
        return ast.ViewPlaces(span=self._s(meta), kind=str(c[0]), x=str(c[1]), y=str(c[2]))

    @v_args(meta=True)
    def view_table(self, meta, c):
        group = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "by"), None)
        label = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "as"), None)
        when = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "when"), None)
        rest = [x for x in c if not isinstance(x, tuple)]
        title, row, rows, column, columns, cell = rest
        return ast.ViewTable(
            span=self._s(meta),
            title=self.plain(title),
            row=str(row),
            rows=rows,
            group=group,
            label=label,
            column=str(column),
            columns=columns,
            cell=cell,
            when=when,
        )

    @v_args(meta=True)
    def view_lines(self, meta, c):
        group = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "by"), None)
        label = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "as"), None)
        layout = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "layout"), None)
        when = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "when"), None)
        title, var, items, text = [x for x in c if not isinstance(x, tuple)]
        return ast.ViewLines(
            span=self._s(meta),
            title=self.plain(title),
            var=str(var),
            items=items,
            group=group,
            text=text,
            when=when,
            label=label,
            layout=layout,
        )

    def str_lit(self, c):
        return self.string(c[0])

    @v_args(meta=True)
    def true_lit(self, meta, c):
        return ast.Bool(span=self._s(meta), value=True)

    @v_args(meta=True)
    def false_lit(self, meta, c):
        return ast.Bool(span=self._s(meta), value=False)

    @v_args(meta=True)
    def none_lit(self, meta, c):
        return ast.NoneLit(span=self._s(meta))

    @v_args(meta=True)
    def name(self, meta, c):
        return ast.Name(span=self._s(meta), id=str(c[0]))

    @v_args(meta=True)
    def empty_list(self, meta, c):
        return ast.ListLit(span=self._s(meta), items=())

    @v_args(meta=True)
    def list_lit(self, meta, c):
        return ast.ListLit(span=self._s(meta), items=tuple(c))

    @v_args(meta=True)
    def comprehension(self, meta, c):
        return ast.Comprehension(span=self._s(meta), element=c[0], clauses=tuple(c[1:]))

    @v_args(meta=True)
    def comp_for(self, meta, c):
        cond = c[2] if len(c) > 2 else None
        return ast.ForClause(span=self._s(meta), var=str(c[0]), iterable=c[1], condition=cond)


_TOKEN_WORDS = {
    "RBRACE": "'}'",
    "LBRACE": "'{'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "COLON": "':'",
    "EQUAL": "'='",
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "$END": "end of file",
    "DOT": "'.'",
}


def _expected_words(expected: set[str]) -> list[str]:
    words = []
    for name in sorted(expected):
        if name in _TOKEN_WORDS:
            words.append(_TOKEN_WORDS[name])
            continue
        try:
            pattern = _lark().get_terminal(name).pattern
        except KeyError:
            pattern = None
        if pattern is not None and pattern.type == "str":
            words.append(f"'{pattern.value}'")
        else:
            words.append(name.lower())
    return sorted(set(words))


# The options written after `choose NAME from LIST by PLAYER`: keywords, never a variable's name.
_CHOOSE_OPTIONS = ("label", "prompt", "optional", "secret")


# `var NAME: TYPE` alone on its line, with no `= VALUE` (a comment may follow).
_BARE_VAR = re.compile(r"([ \t]*)var[ \t]+([A-Za-z_]\w*)[ \t]*:[ \t]*([^=#\n]*?)[ \t]*(?:#[^\n]*)?$")
# The value a variable of a type usually starts at, by the type as written (a map's: its values').
_STARTS: tuple[tuple[str, str], ...] = (
    (r"int", "0"),
    (r"bool", "false"),
    (r"str", '""'),
    (r"list\b.*", "[]"),
    (r".*\?", "none"),
)


def _var_without_value(err: lark.exceptions.UnexpectedInput, path: str, text: str) -> tuple[int, Diagnostic] | None:
    """A `var` declared without its starting value (`var x: int`): the parser wants the
    `=` and meets the next line (or the end), so the mistake is reported at the `var`,
    with the declaration as it should be written. The position of the `var`, and its error."""
    expected = set(getattr(err, "expected", ()) or getattr(err, "accepts", ()) or ())
    if "EQUAL" not in expected or isinstance(err, lark.exceptions.UnexpectedCharacters):
        return None
    pos = _error_position(err, text)
    token = getattr(err, "token", None)
    start = recovery.line_start(text, pos)
    if token is None or token.type == "$END":  # at the end of the file: its last line of code
        start = len(text) + 1
    elif text[start:pos].strip():
        return None  # the token is on the var's own line: the error is there already
    code = ""
    while start > 0:  # the line of code before the token's
        start = recovery.line_start(text, start - 1)
        code = text[start : recovery.line_end(text, start)]
        if code.split("#", 1)[0].strip():
            break
    bare = _BARE_VAR.fullmatch(code)
    if bare is None or not bare.group(3):
        return None
    indent, name, written = bare.groups()
    value_type = written.rsplit("->", 1)[-1].strip()
    start_value = next((v for pattern, v in _STARTS if re.fullmatch(pattern, value_type)), None)
    line = text.count("\n", 0, start) + 1
    span = Span(path, line, len(indent) + 1, len(indent) + 1 + len(code.split("#", 1)[0].strip()))
    hint = (
        f"write `var {name}: {written} = {start_value}`"
        if start_value is not None
        else f"write `var {name}: {written} = VALUE`, the value it holds when the game starts"
    )
    return start + len(indent), Diagnostic(span, f"variable '{name}' has no starting value", hint)


def _value_if_without_else(err: lark.exceptions.UnexpectedInput, path: str, text: str) -> Diagnostic | None:
    """An `if` written as a value with no `else` (`let bonus = if d == 6 then 2`): the
    parser wants `else` and meets the next line, so the mistake is reported where the value
    ends, on the line of the `if`, with what is missing."""
    expected = set(getattr(err, "expected", ()) or ())
    token = getattr(err, "token", None)
    if "ELSE" not in expected or isinstance(err, lark.exceptions.UnexpectedCharacters):
        return None
    pos = _error_position(err, text)
    if token is not None and token.type != "$END" and text[recovery.line_start(text, pos) : pos].strip():
        return None  # on the `if`'s own line: the error is there already
    start = recovery.line_start(text, pos) if token is not None and token.type != "$END" else len(text) + 1
    while start > 0:  # the line of code before the token's
        start = recovery.line_start(text, start - 1)
        code = text[start : recovery.line_end(text, start)]
        if code.split("#", 1)[0].strip():
            break
    else:
        return None
    if not re.search(r"\bif\b.*\bthen\b", code.split("#", 1)[0]):
        return None
    line = text.count("\n", 0, start) + 1
    end = len(code.split("#", 1)[0].rstrip()) + 1
    return Diagnostic(
        Span(path, line, end, end + 1),
        "an `if` written as a value has no `else`",
        "a value needs one for when the condition is false: `if COND then A else B` (`else 0`)",
    )


def _syntax_error(err: lark.exceptions.UnexpectedInput, path: str, text: str) -> Diagnostic:
    bare = _var_without_value(err, path, text)
    if bare is not None:
        return bare[1]
    no_else = _value_if_without_else(err, path, text)
    if no_else is not None:
        return no_else
    one_count = _players_one_count(err, path, text)
    if one_count is not None:
        return one_count
    line, column = getattr(err, "line", 0) or 0, getattr(err, "column", 0) or 0
    if isinstance(err, lark.exceptions.UnexpectedEOF) or line <= 0:
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    span = Span(path, line, column)
    if isinstance(err, lark.exceptions.UnexpectedCharacters):
        assert err.pos_in_stream is not None  # the lexer gives where it stopped
        char = text[err.pos_in_stream] if err.pos_in_stream < len(text) else "?"
        if char == '"':
            return Diagnostic(span, "unterminated string", 'close it with " on the same line')
        return Diagnostic(span, f"unexpected character {char!r}", _CHARACTER_HINTS.get(char, _STRAY))
    token = getattr(err, "token", None)
    expected = set(getattr(err, "expected", set()) or getattr(err, "accepts", set()) or set())
    words = _expected_words(expected)
    hint = None
    found = "end of file" if token is None or token.type == "$END" else repr(str(token))
    previous = _previous_token(text, _error_position(err, text)) if token is not None else ""
    if token is not None and token.type != "$END":
        hint = _slip(text, err, str(token), previous, expected, line, column)
    if not hint and token is not None and token.type == "NAME":
        keyword_choices = [w.strip("'") for w in words if w.startswith("'") and w[1:-1].isalpha()]
        hint = did_you_mean(str(token), keyword_choices)
    elif not hint and previous in _NEEDS_OPERAND and expected & {"NAME", "INT", "STRING"}:
        hint = f"an expression is expected after '{previous}': a value such as 2, a name, or a call"
    if not hint and previous == "}" and token is not None:
        hint = _closed_just_before(text, _error_position(err, text))
    if token is not None and str(token) in _CHOOSE_OPTIONS and expected != {"BY"}:
        hint = f"'{token}' is a keyword (an option of `choose`): a variable cannot be called so"
    if not hint and token is not None:
        # A misspelt keyword is read as a name, and the error comes one token later.
        line_text = text.splitlines()[line - 1] if 0 < line <= len(text.splitlines()) else ""
        before = re.findall(r"[A-Za-z_]+", line_text[: max(0, column - 1)])
        if previous in _CHOOSE_OPTIONS:
            hint = f"'{previous}' is a keyword (an option of `choose`): a variable cannot be called so"
        elif before == ["slot"] and str(token) == ":":
            hint = "'slot' is a keyword in an entity (`slot NAME(p: T)` declares a slot): name the property otherwise"
        elif len(previous) > 2 and previous == (before[-1] if before else None) and previous not in keywords():
            close = did_you_mean(previous, keywords())
            if close:
                hint = f"'{previous}' is not a keyword: {close}"
    if not hint and token is not None and token.type != "$END":
        hint = _order_slip(text[: _error_position(err, text)], str(token), token.type, previous, expected)
    if found == "end of file" and not hint and text.count("{") > text.count("}"):
        hint = f"{text.count('{') - text.count('}')} '{{' not closed: add '}}'"
    if not hint and words:
        words.sort(key=lambda w: (w not in ("'}'", "')'", "']'"), w))  # closers first: the usual slip
        shown = ", ".join(words[:8]) + (", ..." if len(words) > 8 else "")
        hint = f"expected {shown}"
    end = column + len(str(token)) if token is not None and token.type != "$END" else None
    return Diagnostic(Span(path, line, column, end), f"unexpected {found}", hint)


def _order_slip(before: str, token: str, kind: str, previous: str, expected: set) -> str | None:
    """The hint for a word in the wrong place of a declaration: `seen by north` (`seen by`
    takes all, owner or none), an option's description before its `choices`, and two
    labels of a `play` with no comma between."""
    if previous == "by" and re.search(r"\bseen\s+by\s*$", before):
        return "`seen by` takes all, owner or none: `seen by owner`, on a map keyed by player, shows each seat its own"
    if token == "choices" and previous.endswith('"'):
        return 'the description comes last: `option NAME: TYPE = DEFAULT choices LIST "description"`'
    if kind == "STRING" and previous.endswith('"') and "COMMA" in expected:
        return f"a ',' is missing between {previous} and {token}: write them as a list, `{previous}, {token}`"
    return None


def _players_one_count(err: lark.exceptions.UnexpectedInput, path: str, text: str) -> Diagnostic | None:
    """`players 2` in a game header: the parser wants `..` and finds the next line's
    word (`seats`). Reported at the count, the mistake, with the range it means."""
    if isinstance(err, lark.exceptions.UnexpectedCharacters) or len(getattr(err, "expected", ()) or ()) != 1:
        return None  # only `..` may follow a header's `players N` (a test's `players N` is whole)
    pos = _error_position(err, text)
    m = re.search(r"\bplayers[ \t]+(\d+)\s*$", text[max(0, pos - 200) : pos])
    if m is None:
        return None
    start = max(0, pos - 200) + m.start(1)
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    n = m.group(1)
    return Diagnostic(
        Span(path, line, column, column + len(n)),
        f"`players {n}` is one number: `players` takes the range of player counts",
        f"write `players {n}..{n}` for exactly {n} players, or `players {n}..MAX` for {n} to MAX",
    )


def _slip(
    text: str,
    err: lark.exceptions.UnexpectedInput,
    token: str,
    previous: str,
    expected: set[str],
    line: int,
    column: int,
) -> str | None:
    """The hint for a slip the error's place shows (`else if`, `n++`, `if n = 1`, `var m = 0`,
    ...), most specific first; None if none shows."""
    pos = _error_position(err, text)
    before = _line_before(text, line, column)
    if _after_return(text, line):
        return "`return` reads the next line as the value it returns: a `return` must end its block"
    if previous in ("else", "elseif", "elsif") and (token == "if" or previous != "else"):
        return "there is no `else if`: write `elif CONDITION { ... }` for another branch"
    if token == "=" and previous == "=" and text[pos - 1] == "=":
        return "`==` compares; one `=` gives a value: `let NAME = VALUE`, `NAME = VALUE`"
    if token == "+" and text[pos + 1 : pos + 2] == "+":
        return "there is no `++`: write `NAME += 1`"
    if previous == "," and token in (")", "]"):
        return f"a ',' before '{token}' with nothing after it: remove it, or add what is missing"
    if token == "{" and (header := _UNTYPED_HEADER.match(before)):
        slot, names = header.group(1), [n.strip() for n in header.group(2).split(",")]
        typed = ", ".join(f"{n}: TYPE" for n in names if n)
        return (
            f"write `{slot} {{ ... }}` to take the parameters its kind declares for `{slot}`, "
            f"or give each parameter its type: `{slot}({typed}) {{ ... }}`"
        )
    if expected == {"COLON"} and before.lstrip().startswith("var "):
        return "a variable is declared with its type: `var NAME: TYPE = VALUE` (`var count: int = 0`)"
    if expected == {"COLON"} and token in (")", ","):
        return f"a parameter is written with its type: `{previous}: TYPE` (`{previous}: int`, `{previous}: player`)"
    if expected == {"LPAR"} and token == "{":
        return "write the parentheses even without parameters: `NAME() {`"
    written_as = _statement_slip(token, expected, before)
    if written_as is not None:
        return written_as
    if expected == {"BY"} and (re.match(r"\s*choose\b", before) or _previous_line_starts(text, pos, "choose")):
        if token in _CHOOSE_OPTIONS:  # `by` left out: the option comes where `by PLAYER` must
            return f"a `choose` needs `by PLAYER` before its {token}: `choose NAME from LIST by PLAYER {token} ...`"
        return "say who chooses: `choose NAME from LIST by PLAYER`"
    if token == ":" and {"LBRACE", "LPAR"} <= expected and re.fullmatch(r"\s*[A-Za-z_]\w*\s*", before):
        return f"a card's property is written without ':': `{previous} VALUE` (`ops 3`)"
    if token == "=" and "COMP_OP" in expected:
        return "to compare, write `==`: `=` sets a variable, in a statement of its own"
    if token == "+" and previous.startswith('"'):
        return 'text is built by interpolation, not `+`: write the value inside the text, "... {VALUE}"'
    if token == "elif" and "ELSE" in expected:
        return "`if COND then A else B` has no `elif`: write `else if COND2 then B else C`"
    if token == "then" and "LBRACE" in expected:
        return (
            "an `if` statement's condition is followed by its block, `if COND { ... }`; "
            "`then` is for a value, `if COND then A else B`"
        )
    if token in ("replace", "remove"):
        return (
            f"`{token}` stands in a variant, or outside any declaration in a file that includes a game: "
            "not inside a card, a procedure or another block"
        )
    if _missing_comma(text, pos, token, previous, expected):
        return f"a ',' is missing between `{previous}` and `{token}`?"
    return _open_bracket_before(text, err, expected)


def _statement_slip(token: str, expected: set[str], before: str) -> str | None:
    """The hint for a statement written as another is (`_slip`): a `may` without its player
    (and any other place a text must come), an `else` without the `}` before it, a `choose`
    with a label and a block as a `may` has."""
    if token == "{" and expected == {"STRING"} and re.match(r'\s*may\s+"', before):
        return 'say who may act before the label: `may PLAYER "label" { ... }` (`may p "roll" { ... }`)'
    if expected == {"STRING"}:
        return 'a text in double quotes is expected here: "..."'
    if token == "else" and "RBRACE" in expected:
        return "`else` follows the closing '}' of the `if`'s block: write `} else {`"
    if token.startswith('"') and re.match(r"\s*choose\b.*\bby\s+[A-Za-z_]\w*\s*$", before):
        return (
            'a `choose` names its label with `label "..."` after `by PLAYER`, and has no block: '
            'write `choose NAME from LIST by PLAYER label "..."`, then the statements that use NAME'
        )
    return None


_VALUE_END = re.compile(r'[A-Za-z_]\w*|\d+|"[^"\n]*"|[)\]]')
_VALUE_START = re.compile(r'[A-Za-z_]\w*|\d+|"')


def _missing_comma(text: str, pos: int, token: str, previous: str, expected: set[str]) -> bool:
    """Two values side by side inside a `[...]` or `(...)` where a ',' could separate them
    (`seats [north, east south]`, `f(a b)`): a comma left out, not a misspelt keyword."""
    if "COMMA" not in expected or not _VALUE_END.fullmatch(previous) or not _VALUE_START.match(token):
        return False
    if previous in keywords() or token in keywords():
        return False
    code = re.sub(r'"(?:\\.|[^"\\\n])*"', lambda m: " " * len(m.group()), text[:pos])
    code = re.sub(r"#[^\n]*", lambda m: " " * len(m.group()), code)
    depth: list[str] = []
    for char in code:
        if char in "([{":
            depth.append(char)
        elif char in ")]}" and depth:
            depth.pop()
    return bool(depth) and depth[-1] in "(["


# What an unexpected character was most likely meant as.
_STRAY = "remove it, or quote it in a string"
_CHARACTER_HINTS = {
    "&": "write `and`",
    "|": "write `or`",
    "!": "write `not` (`!=` is 'not equal')",
    "'": 'texts are in double quotes: "..."',
    "\u201c": 'a curly quote, as a word processor writes it: texts are in straight double quotes, "..."',
    "\u201d": 'a curly quote, as a word processor writes it: texts are in straight double quotes, "..."',
    "\u201e": 'a curly quote, as a word processor writes it: texts are in straight double quotes, "..."',
    "\u2018": 'a curly quote, as a word processor writes it: texts are in straight double quotes, "..."',
    "\u2019": 'a curly quote, as a word processor writes it: texts are in straight double quotes, "..."',
    "\u00ab": 'a guillemet, as a word processor writes it: texts are in straight double quotes, "..."',
    "\u00bb": 'a guillemet, as a word processor writes it: texts are in straight double quotes, "..."',
    "\u00a0": "a no-break space (pasted from a word processor?): write an ordinary space",
    ";": "statements end at their own end: remove the ';'",
}


def _previous_line_starts(text: str, pos: int, word: str) -> bool:
    """Does the line of code before the one at `pos` begin with `word`?"""
    start = recovery.line_start(text, pos)
    while start > 0:
        start = recovery.line_start(text, start - 1)
        code = text[start : recovery.line_end(text, start)].split("#", 1)[0].strip()
        if code:
            return re.match(rf"{word}\b", code) is not None
    return False


# After these, an expression must follow: an error there is a missing operand, not a misspelt word.
_NEEDS_OPERAND = frozenset(
    ["=", "==", "!=", "<=", ">=", "<", ">", "+=", "-=", "+", "-", "*", "/", "%", "..", "=>", "and", "or", "not", "in"]
)
_LAST_TOKEN = re.compile(r'(==|!=|<=|>=|\+=|-=|=>|\.\.|[-=+*/%<>,(\[{}:.]|[A-Za-z_]\w*|\d+|"[^"\n]*")\s*$')


# `effect(s) {`: a slot's header with parameters but no types (read as a property's value).
_UNTYPED_HEADER = re.compile(r"^\s*([A-Za-z_]\w*)\s*\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*\)\s*$")


def _line_before(text: str, line: int, column: int) -> str:
    """The text of line `line` before column `column`."""
    lines = text.splitlines()
    return lines[line - 1][: max(0, column - 1)] if 0 < line <= len(lines) else ""


def _previous_token(text: str, pos: int) -> str:
    """The token before `pos` (comments skipped), as written; "" at the start of the text."""
    before = re.sub(r"#[^\n]*", "", text[max(0, pos - 400) : pos])
    m = _LAST_TOKEN.search(before)
    return m.group(1) if m else ""


def _open_bracket_before(text: str, err: lark.exceptions.UnexpectedInput, expected: set[str]) -> str | None:
    """At the first token of a line where a `)` or `]` could come: the `(` or `[` left open
    on the line of code before it, as a hint."""
    pos = _error_position(err, text)
    if not ({"RPAR", "RSQB"} & expected) or not _first_on_line(text, pos):
        return None
    start = recovery.line_start(text, pos)
    while start > 0:
        start = recovery.line_start(text, start - 1)
        code = re.sub(
            r'"(?:\\.|[^"\\\n])*"', lambda m: " " * len(m.group()), text[start : recovery.line_end(text, start)]
        )
        code = code.split("#", 1)[0]
        if not code.strip():
            continue
        open_at: list[int] = []
        for i, char in enumerate(code):
            if char in "([":
                open_at.append(i)
            elif char in ")]" and open_at:
                open_at.pop()
        if not open_at:
            return None
        i = open_at[-1]
        line = text.count("\n", 0, start) + 1
        closer = ")" if code[i] == "(" else "]"
        return f"the '{code[i]}' at line {line}:{i + 1} is not closed: add '{closer}'"
    return None


def _closed_just_before(text: str, pos: int) -> str | None:
    """When the token before `pos` is a `}`: what it closes, as a hint that it may be one too many."""
    stripped = re.sub(r"#[^\n]*", lambda m: " " * len(m.group()), text[:pos]).rstrip()
    end = len(stripped) - 1
    if end < 0 or stripped[end] != "}":
        return None
    opener = next((b.pos for b in recovery.braces(text, end + 1) if b.closed_at == end), None)
    if opener is None:
        return "this '}' closes nothing: remove it"
    where = f"{text.count(chr(10), 0, end) + 1}:{end - recovery.line_start(text, end) + 1}"
    return (
        f"the '}}' at {where} closes `{recovery.opened_by(text, opener)}` (line {text.count(chr(10), 0, opener) + 1}), "
        "so what follows is outside it: is that '}' one too many?"
    )


def _after_return(text: str, line: int) -> bool:
    """Is the line before `line` (ignoring blank lines and comments) a bare `return`? A
    statement after it is then read as its value, and the error comes in that statement."""
    lines = text.splitlines()[: max(0, line - 1)]
    for previous in reversed(lines):
        code = previous.split("#", 1)[0].strip()
        if code:
            return re.search(r"(^|[\s{])return$", code) is not None
    return False


def _check_depth(tree: lark.Tree, path: str, base: Span | None = None) -> None:
    """Refuse a tree nested deeper than MAX_NESTING before anything recurses over it
    (the AST builder, the checker and the compiler all do)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            line, column = getattr(meta, "line", 0) or 0, getattr(meta, "column", 0) or 0
            where = base if base is not None else Span(path, line, column)
            raise GameDefError(
                [
                    Diagnostic(
                        where,
                        f"nested more than {MAX_NESTING} levels deep",
                        "split the expression or block: name a part with `let` or `def`",
                    )
                ]
            )
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, lark.Tree))


def _die(e) -> int | None:
    """A pinned die in a test's `dice [...]`: a whole number, maybe negative."""
    if isinstance(e, ast.Int):
        return e.value
    if isinstance(e, ast.Neg) and isinstance(e.operand, ast.Int):
        return -e.operand.value
    return None


TEST_FORMS = {"offered": "offered", "logged": "logged", "ended": "over"}
# The forms that are values, not truths, in an `expect` condition: the winners, and the seat
# that decides next (none once the game is over); `offered()` with no text is the labels
# offered now.
# `modifiers()` is the number of stated modifiers in force (`until EVENT: ...`, `forever: ...`).
VALUE_FORMS = {"winner": "winner", "deciding": "decider", "modifiers": "modifiers"}


def _form_text(call: ast.Call) -> tuple[str, str]:
    """The text of `offered("TEXT")` or `logged("TEXT")`, and for `logged("TEXT", SEAT)`
    the seat whose narration is read (only the lines that seat is told, as it reads them)."""
    seat = ""
    args = call.args
    if call.func == "logged" and len(args) == 2:
        if not isinstance(args[1], ast.Name):
            raise GameDefError(
                [Diagnostic(args[1].span, 'logged("...", SEAT) takes a seat\'s name second: logged("...", west)', None)]
            )
        seat, args = args[1].id, args[:1]
    arg = args[0] if len(args) == 1 else None
    text = _plain_text(arg) if isinstance(arg, ast.Str) else None
    if text is None:
        shape = f'{call.func}("...")' + (' or logged("...", SEAT)' if call.func == "logged" else "")
        raise GameDefError([Diagnostic(call.span, f"{call.func}() takes one plain text: {shape}", None)])
    return text, seat


def _plain_text(s: ast.Str) -> str | None:
    """The text of a string literal with no `{...}` in it, or None if it has one: a test's
    labels and expected texts are matched as written, not evaluated."""
    parts = [p for p in s.parts if isinstance(p, str)]
    return "".join(parts) if len(parts) == len(s.parts) else None


def _expectation(e, span: Span) -> ast.TestStep:
    """An `expect`: the test's own forms (`offered("TEXT")`, `logged("TEXT")`, `ended()`,
    each maybe under `not`, and `winner() == [SEATS]`), else a condition of the game's."""
    negated = isinstance(e, ast.Not) and isinstance(e.operand, ast.Call) and e.operand.func in TEST_FORMS
    call = e.operand if negated else e
    if isinstance(call, ast.Call) and call.func in TEST_FORMS:
        kind = ("not_" if negated else "") + TEST_FORMS[call.func]
        if call.func == "ended":
            if call.args:
                raise GameDefError([Diagnostic(call.span, "ended() takes no argument", None)])
            return ast.TestStep(span=span, kind=kind)
        text, seat = _form_text(call)
        return ast.TestStep(span=span, kind=kind, text=text, seat=seat)
    if isinstance(e, ast.BinOp) and e.op == "==" and isinstance(e.left, ast.Call) and e.left.func == "winner":
        seats = e.right
        names = tuple(x.id for x in seats.items if isinstance(x, ast.Name)) if isinstance(seats, ast.ListLit) else ()
        if e.left.args or not isinstance(seats, ast.ListLit) or len(names) != len(seats.items):
            raise GameDefError(
                [Diagnostic(e.span, "write the winners as winner() == [SEAT, ...] (or [] for nobody)", None)]
            )
        return ast.TestStep(span=span, kind="winner", names=names)
    forms: list[tuple[str, str, str, str]] = []
    return ast.TestStep(span=span, kind="holds", expr=_with_forms(e, forms), forms=tuple(forms))


def _with_forms(e, forms: list[tuple[str, str, str, str]]):
    """`e` with each test form in it (`offered("TEXT")`, `offered()`, `logged("TEXT")`,
    `ended()`, `winner()`, `deciding()`, `modifiers()`) replaced by a name the test runner
    gives its value, appended to `forms` as (name, kind, text, seat): `expect offered("a")
    and not logged("b")` is a condition like any other. A node with no form in it is returned as it is."""
    if isinstance(e, ast.Call) and (e.func in TEST_FORMS or e.func in VALUE_FORMS):
        kind = TEST_FORMS.get(e.func) or VALUE_FORMS[e.func]
        text = seat = ""
        if e.func == "offered" and not e.args:  # the labels offered now, in order
            kind = "labels"
        elif e.func in ("ended", *VALUE_FORMS):
            if e.args:
                raise GameDefError([Diagnostic(e.span, f"{e.func}() takes no argument", None)])
        else:
            text, seat = _form_text(e)
        name = f"__form_{len(forms)}"
        forms.append((name, kind, text, seat))
        return ast.Name(span=e.span, id=name)
    if isinstance(e, tuple):
        items = tuple(_with_forms(x, forms) for x in e)
        return e if all(a is b for a, b in zip(items, e)) else items
    if not attrs.has(type(e)):
        return e
    changed = {}
    for f in attrs.fields(type(e)):
        if f.name == "span":
            continue
        value = getattr(e, f.name)
        new = _with_forms(value, forms)
        if new is not value:
            changed[f.name] = new
    return attrs.evolve(e, **changed) if changed else e


@functools.lru_cache(maxsize=4096)
def _expression_tree(text: str) -> lark.Tree:
    """The parse tree of an interpolated expression's text. The same few texts fill most
    strings (`{s}`, `{x}`: 177 different texts in The Wall is Down's 577), so each is
    parsed once; the builder makes new syntax nodes of the tree at each use, placed by
    that string's own span, and never changes the tree. A text that fails to parse is
    not kept (its error is raised again)."""
    return _lark().parse(text, start="expr")


def parse_expression(text: str, span: Span) -> ast.Expr:
    """Parse an interpolated `{expr}` inside a string literal."""
    try:
        tree = _expression_tree(text)
    except lark.exceptions.UnexpectedInput as err:
        inner = _syntax_error(err, span.path, text)
        raise GameDefError(
            [
                Diagnostic(
                    span,
                    f"bad expression in string: {{{text}}}: {inner.message}",
                    inner.hint or "a {...} in a string holds one expression",
                )
            ]
        ) from None
    _check_depth(tree, span.path, span)
    return _Builder(span.path, span).transform(tree)


class SyntaxErrors(GameDefError):
    """A file's syntax errors (at most MAX_SYNTAX_ERRORS, then a last one saying more
    follow), and what of the file parsed: `module` holds every declaration outside the
    broken ones, so the checker can still check them. `lost` names what the broken
    declarations declared (a check of the rest must not call those unknown), `whole`
    whether every broken declaration was a leaf that nothing else is built on (a card, a
    procedure, a def...; not an entity, an enum, a table or the game header), so that
    checking the rest is worth doing."""

    def __init__(
        self,
        diagnostics: list[Diagnostic],
        module: ast.Module,
        lost: frozenset[str],
        whole: bool,
        bound: tuple[tuple[str, int, int], ...] = (),
    ):
        super().__init__(diagnostics)
        self.module = module
        self.lost = lost
        self.whole = whole
        self.bound = bound  # (name, first line, last line): a left-out statement's name, where it was in scope

    def __reduce__(self):  # an exception is pickled by its arguments: these, not the message
        return (SyntaxErrors, (self.diagnostics, self.module, self.lost, self.whole, self.bound))

    def explains(self, d: Diagnostic) -> bool:
        """Is `d`, found checking the rest of the file, about a name a broken declaration
        declared, or a name a broken statement bound (where that statement's scope was)?"""
        if not self.lost and not self.bound:
            return False
        named = set(re.findall(r"'(\w+)'", d.message))
        named.update(w for code in re.findall(r"`([^`]*)`", d.message) for w in re.findall(r"\w+", code))
        named.update(re.findall(r"\w+", self._text_at(d)))
        here = d.span.path == self.module.path
        return bool(named & self.lost) or any(
            here and first <= d.span.line <= last and name in named for name, first, last in self.bound
        )

    def _text_at(self, d: Diagnostic) -> str:
        """The source text a diagnostic of this file points at (`left` in `n = left + 1`)."""
        if d.span.path != self.module.path or d.span.line <= 0:
            return ""
        lines = self.module.source.split("\n")
        if d.span.line > len(lines):
            return ""
        line = lines[d.span.line - 1]
        return line[d.span.column - 1 : (d.span.end_column or d.span.column + 1) - 1]


# What a declaration is built on by others: losing one to a syntax error makes a check of the
# rest report errors that are only its echo.
_FOUNDATIONS = ("entity", "enum", "table", "links", "generate", "grid", "graph", "game", "include", "option")


def _error_position(err: lark.exceptions.UnexpectedInput, text: str) -> int:
    """Where in `text` a syntax error is: the bad character, the unexpected token, or the end."""
    if isinstance(err, lark.exceptions.UnexpectedCharacters):
        return err.pos_in_stream if err.pos_in_stream is not None else len(text)
    token = getattr(err, "token", None)
    if token is None or token.type == "$END" or token.start_pos is None:
        return len(text)
    return token.start_pos


def _unclosed_diagnostic(path: str, text: str, brace: int, pos: int, owner: str | None) -> Diagnostic:
    """A `{` whose `}` is missing, named where it opens and by what it opens."""
    line = text.count("\n", 0, brace) + 1
    column = brace - recovery.line_start(text, brace) + 1
    what = recovery.opened_by(text, brace)
    inside = f" in {owner}" if owner and not what.startswith(owner) else ""
    message = f"this '{{' of `{what}`{inside} is never closed" if what else "this '{' is never closed"
    if pos >= len(text.rstrip()):
        hint = "add '}' where its block ends: the file ends inside it"
    else:
        at = text.count("\n", 0, pos) + 1
        after = text[pos : recovery.line_end(text, pos)].strip()
        hint = f"add '}}' where its block ends: `{after[:40]}` at line {at} is read as part of it"
    return Diagnostic(Span(path, line, column, column + 1), message, hint)


def _owner(text: str, line: recovery.Line | None) -> str | None:
    """`card spy`, `procedure turn`: the declaration a line starts, as the designer wrote it."""
    if line is None:
        return None
    words = re.match(r"(?:replace[ \t]+|remove[ \t]+)?[A-Za-z_]+(?:[ \t]+([A-Za-z_]\w*))?", text[line.pos :])
    if words is None:
        return None
    head = words.group(0)
    return head if words.group(1) is not None else line.word


def _parse_recovering(
    text: str, path: str, first: lark.exceptions.UnexpectedInput, bound: list[tuple[str, int, int]]
) -> tuple[lark.Tree, list[Diagnostic], set[str], bool]:
    """After a syntax error: each broken declaration left out (made blank, so positions
    stay) and the text parsed again, until it parses or MAX_SYNTAX_ERRORS are found. The
    parse of what remains, the errors, the names the broken declarations declared, and
    whether each of them was a leaf (see `SyntaxErrors`). Added to `bound`: the names a
    broken statement left out would have bound, with the lines where they are its echo."""
    lines = recovery.boundaries(text)
    found: list[Diagnostic] = []
    lost: set[str] = set()
    whole = True
    work = text
    done = 0  # the declarations before this are parsed, in `parsed`: later parses skip them
    parsed: list = []
    err: lark.exceptions.UnexpectedInput | None = first
    while err is not None:
        pos = _error_position(err, work)
        if len(found) >= MAX_SYNTAX_ERRORS:
            span = _syntax_error(err, path, work).span
            hint = "fix these and check again: the rest of the file was not read"
            found.append(Diagnostic(span, f"... and more syntax errors: the first {MAX_SYNTAX_ERRORS} are above", hint))
            whole = False
            break
        diagnostic = _syntax_error(err, path, work)
        anchor = pos
        token = getattr(err, "token", None)
        at_boundary = any(line.pos == pos and not line.close for line in lines)
        expected = set(getattr(err, "expected", ()) or ())
        if token is not None and (token.type == "$END" or at_boundary) and "RBRACE" in expected:
            # The parser gave up at a declaration or at the end: perhaps a `}` is missing above.
            unclosed = _unclosed_brace(path, work, pos, token.type == "$END", lines)
            if unclosed is not None:
                anchor, diagnostic = unclosed
        elif (bare := _var_without_value(err, path, work)) is not None:
            anchor, diagnostic = bare  # only the `var` is left out, not what follows it
        elif (left := _block_left_by_layout(work, err, pos)) is not None:
            # A statement back at the indentation of the `{` of the block it is read in.
            anchor, statement = left
            owner = _owner(work, recovery.enclosing([x for x in lines if work[x.pos] != " "], anchor))
            diagnostic = _unclosed_diagnostic(path, work, anchor, statement, owner)
        line_only = _line_of_statement(work, err, pos) if anchor == pos and not at_boundary else None
        if line_only is not None:
            # First only the line of the statement (or item) in its block, so the rest of the
            # declaration is still read; kept if the parse then reads past that line. The
            # declarations finished before the one it is in are kept from the parser's stack.
            after = recovery.blank(work, *line_only)
            before, top = _finished_declarations(err, pos)
            keep, skip = (parsed + before, top) if before is not None else (parsed, done)
            try:
                with no_collection():
                    rest = _lark().parse(recovery.blank(after, 0, skip), start="start")
                found.append(diagnostic)
                bound.extend(_bound_until(work, lines, line_only))
                return lark.Tree("start", keep + rest.children), found, lost, whole
            except lark.exceptions.UnexpectedInput as again:
                if _error_position(again, after) >= line_only[1]:
                    found.append(diagnostic)
                    bound.extend(_bound_until(work, lines, line_only))
                    work, err, parsed, done = after, again, keep, skip
                    continue
        live = [x for x in lines if work[x.pos] != " "]  # the lines not yet left out
        opened = [t for t in _open_declarations(err) if t < anchor]
        start = recovery.enclosing(live, anchor)
        if opened:  # the innermost declaration the parser is inside, by its keyword
            start = recovery.Line(opened[-1], recovery.indentation(work, opened[-1]), "", False)
        elif (
            anchor == pos
            and _first_on_line(work, anchor)
            and not at_boundary
            and (start is None or recovery.indentation(work, pos) <= start.indent)
        ):
            # A line that begins a declaration the parser does not know (`procedur play() {`).
            start = recovery.Line(pos, recovery.indentation(work, pos), "", False)
            named = re.match(r"\w+[ \t]+([A-Za-z_]\w*)", work[pos:])
            if named:
                lost.add(named.group(1))
        begin = recovery.line_start(work, start.pos if start is not None else anchor)
        end = recovery.region_end(work, live, start, pos if anchor == pos else anchor + 1)
        if end <= anchor or not work[begin:end].strip():
            end = recovery.region_end(work, live, None, pos + 1)  # no progress: up to the next declaration
        found.append(diagnostic)
        names, foundation = _declared_in(work, live, begin, end)
        lost |= names
        whole = whole and not foundation
        if not work[begin:end].strip():
            whole = False
            break  # nothing left to leave out: stop rather than loop
        before, top = _finished_declarations(err, pos)
        if before is not None and begin <= top:
            # The parser's stack holds the declarations before the broken one, parsed: kept,
            # and skipped from now on (a file of many errors is not parsed again and again).
            parsed.extend(before)
            done = end
        elif not any(b.closed_at is None for b in recovery.braces(work, begin, done)):
            # At the top level: what comes before it is whole declarations, parsed once here
            # and skipped from now on (a file of many errors is not parsed again and again).
            try:
                with no_collection():
                    parsed.extend(_lark().parse(recovery.blank(work[:begin], 0, done), start="start").children)
                done = end
            except lark.exceptions.UnexpectedInput:
                pass  # met again in the parse below, and reported there
        work = recovery.blank(work, begin, end)
        try:
            with no_collection():
                rest = _lark().parse(recovery.blank(work, 0, done), start="start")
            return lark.Tree("start", parsed + rest.children), found, lost, whole
        except lark.exceptions.UnexpectedInput as again:
            err = again
    return lark.Tree("start", parsed), found, lost, False


def _declared_in(work: str, live: list[recovery.Line], begin: int, end: int) -> tuple[set[str], bool]:
    """The names the declarations between `begin` and `end` declare, and whether one of
    them is a declaration others are built on (`_FOUNDATIONS`)."""
    names: set[str] = set()
    foundation = False
    for line in live:
        if begin <= line.pos < end and not line.close:
            name = recovery.declared_name(work, line)
            if name:
                names.add(name)
            word = line.word if line.word not in ("replace", "remove") else work[line.pos :].split(None, 2)[1]
            foundation = foundation or word in _FOUNDATIONS
    return names, foundation


def _unclosed_brace(path: str, work: str, pos: int, at_end: bool, lines) -> tuple[int, Diagnostic] | None:
    """The `{` left open before `pos` (where the parser met a declaration, or the end),
    with its diagnostic; None if every `{` there is closed but those around `pos`."""
    outer = recovery.indentation(work, pos) if not at_end else 0
    held = sum(
        1 for b in recovery.braces(work, pos) if b.closed_at is None and recovery.indentation(work, b.pos) < outer
    )
    brace = recovery.unclosed_brace(work, pos, held)
    if brace is None:
        return None
    owner = _owner(work, recovery.enclosing([x for x in lines if work[x.pos] != " "], brace))
    return brace, _unclosed_diagnostic(path, work, brace, pos, owner)


# A statement that binds a name: left out, its name is not reported unknown where it is used.
_BINDS = re.compile(r"^[ \t]*(?:let|choose|roll|for)[ \t]+([A-Za-z_]\w*)", re.MULTILINE)


def _bound_until(work: str, lines: list[recovery.Line], line_only: tuple[int, int]) -> list[tuple[str, int, int]]:
    """The name the statement in `line_only` binds, if any, with the lines it would have been
    used in: from its line to the next declaration that starts a line unindented."""
    start = recovery.line_start(work, line_only[0])
    first = work.count("\n", 0, start) + 1
    after = next((x.pos for x in lines if x.pos > line_only[1] and x.indent == 0 and not x.close), len(work))
    last = work.count("\n", 0, after) + (1 if after == len(work) else 0)
    return [(name, first, last) for name in _BINDS.findall(work, start, line_only[1])]


def _block_left_by_layout(work: str, err: lark.exceptions.UnexpectedInput, pos: int) -> tuple[int, int] | None:
    """The `{` of the block the parser is in, if the statement with the error begins a line
    indented no deeper than that `{`'s line while the block's first line was indented
    deeper: by the layout the block had ended, so its `}` is what is missing."""
    parser = getattr(err, "interactive_parser", None)
    stack = getattr(getattr(parser, "parser_state", None), "value_stack", None) or []
    begin = pos
    for value in reversed(stack):
        if isinstance(value, Token) and value.type == "LBRACE":
            brace = value.start_pos
            break
        if isinstance(value, lark.Tree) and value.data.startswith("__") and "_star_" in value.data:
            continue  # the block's statements before this one
        start = value.start_pos if isinstance(value, Token) else getattr(value.meta, "start_pos", None)
        begin = start if start is not None else begin
    else:
        return None
    if brace is None or not _first_on_line(work, begin) or recovery.line_start(work, begin) <= brace:
        return None
    if work[brace + 1 : recovery.line_end(work, brace)].split("#", 1)[0].strip():
        return None  # not the last word of its line: its block is not laid out by lines
    indent = recovery.indentation(work, brace)
    first = recovery.first_code_line_after(work, brace, 10**6)
    if recovery.indentation(work, begin) > indent or first is None or recovery.indentation(work, first) <= indent:
        return None
    return brace, begin


def _line_of_statement(work: str, err: lark.exceptions.UnexpectedInput, pos: int) -> tuple[int, int] | None:
    """Where the statement (or item) in a block that has the error at `pos` begins and
    where its line ends, if it is all on that line, first on it, inside a block, and has
    no brace of its own to open or close (leaving it out then leaves the block whole)."""
    parser = getattr(err, "interactive_parser", None)
    stack = getattr(getattr(parser, "parser_state", None), "value_stack", None)
    if not stack:
        return None
    begin = pos
    for value in reversed(stack):
        if isinstance(value, Token) and value.type == "LBRACE":
            break
        if isinstance(value, lark.Tree) and value.data.startswith("__") and "_star_" in value.data:
            if value.data.startswith("__start_star"):
                return None  # at the top level: a declaration, left out whole
            break
        start = value.start_pos if isinstance(value, Token) else getattr(value.meta, "start_pos", None)
        if start is None:
            return None
        begin = start
    else:
        return None  # at the top level: a declaration, left out whole
    end = recovery.line_end(work, pos)
    if recovery.line_start(work, begin) != recovery.line_start(work, pos) or not _first_on_line(work, begin):
        return None
    depth = 0
    for m in recovery.BRACES.finditer(work, begin, end):
        depth += {"{": 1, "}": -1}.get(m.group(), 0)
        if depth < 0:
            return None
    return (begin, end) if depth == 0 else None


# The keywords that begin a declaration (the parser's names of their tokens); `when`, `while`
# and `game` only at the top level (elsewhere they begin a trigger or a statement).
_DECLARATION_TOKENS = frozenset(w.upper() for w in recovery.DECLARATION_WORDS.split("|"))
_TOP_LEVEL_TOKENS = frozenset(["WHEN", "WHILE", "GAME"])


def _open_declarations(err: lark.exceptions.UnexpectedInput) -> list[int]:
    """Where the declarations the parser was inside at the error begin, outermost first:
    the positions of their keywords on the parser's stack."""
    parser = getattr(err, "interactive_parser", None)
    stack = getattr(getattr(parser, "parser_state", None), "value_stack", None) or []
    out = []
    for i, value in enumerate(stack):
        if isinstance(value, Token) and value.start_pos is not None:
            top = i == 0 or (i == 1 and isinstance(stack[0], lark.Tree))
            if value.type in _DECLARATION_TOKENS or (top and value.type in _TOP_LEVEL_TOKENS):
                out.append(value.start_pos)
    return out


def _finished_declarations(err: lark.exceptions.UnexpectedInput, pos: int) -> tuple[list | None, int]:
    """The top-level declarations the parser had finished at the error, and where the
    unfinished one begins (`pos` if it had not begun one); None if the stack does not say."""
    parser = getattr(err, "interactive_parser", None)
    stack = getattr(getattr(parser, "parser_state", None), "value_stack", None)
    if stack is None:
        return None, pos
    star = stack[0] if stack and isinstance(stack[0], lark.Tree) and stack[0].data == "__start_star_0" else None
    rest = stack[1:] if star is not None else stack
    if rest and not (isinstance(rest[0], Token) and rest[0].start_pos is not None):
        return None, pos
    return (list(star.children) if star is not None else []), (rest[0].start_pos if rest else pos)


def _first_on_line(text: str, pos: int) -> bool:
    """Is the character at `pos` the first but blanks on its line?"""
    return not text[recovery.line_start(text, pos) : pos].strip()


def parse_text(text: str, path: str = "<string>") -> ast.Module:
    """Parse one file's text. On syntax errors, raise `SyntaxErrors`: each error found by
    leaving out the declaration it is in and reading on, and what of the file parsed."""
    try:
        with no_collection():  # a long file's tree: linear, not slower per KB (limits.py)
            tree = _lark().parse(text, start="start")
    except lark.exceptions.UnexpectedInput as err:
        bound: list[tuple[str, int, int]] = []
        tree, found, lost, whole = _parse_recovering(text, path, err, bound)
        decls, more = _build(tree, path)
        module = ast.Module(path=path, source=text, decls=tuple(decls))
        raise SyntaxErrors(sorted(found + more, key=_where), module, frozenset(lost), whole, tuple(bound)) from None
    decls, found = _build(tree, path)
    if found:
        raise SyntaxErrors(found, ast.Module(path=path, source=text, decls=tuple(decls)), frozenset(), False)
    return ast.Module(path=path, source=text, decls=tuple(decls))


def _where(d: Diagnostic) -> tuple[int, int]:
    return (d.span.line, d.span.column)


def _build(tree: lark.Tree, path: str) -> tuple[list, list[Diagnostic]]:
    """The syntax nodes of a parsed file. If the builder refuses a declaration (a number
    too large, empty bounds), the file is built again declaration by declaration: each
    refused one is reported and left out, and the others are still built (the whole
    file at once first: no cost to a file without errors)."""
    _check_depth(tree, path)
    try:
        with no_collection():
            return _Builder(path).transform(tree), []
    except lark.exceptions.VisitError as err:
        if not isinstance(err.orig_exc, GameDefError):
            raise
    builder = _Builder(path)
    decls: list = []
    found: list[Diagnostic] = []
    with no_collection():
        for child in tree.children:
            try:
                decls.extend(builder.start([builder.transform(child)]))
            except lark.exceptions.VisitError as err:
                if not isinstance(err.orig_exc, GameDefError):
                    raise
                found.extend(err.orig_exc.diagnostics)
    return decls, found


@functools.lru_cache(maxsize=64)
def _parse_cached(path: str, mtime: float, size: int) -> ast.Module:
    text = read_source(Path(path))
    module = treecache.tree(path, text, lambda: parse_text(text, path))
    assert isinstance(module, ast.Module)  # what parse_text made, or its pickle read back
    return module


def parse_file(path: str | Path, span: Span | None = None) -> ast.Module:
    """Parse a file, reusing the tree while the file is unchanged. `span` is the
    `include` that names it, where an unreadable file is reported."""
    p = Path(path)
    try:
        stat = p.stat()
    except (OSError, ValueError):
        return parse_text(read_source(p, span), str(p))  # read_source says what is wrong
    if not S_ISREG(stat.st_mode) or stat.st_size > MAX_FILE_BYTES:
        return parse_text(read_source(p, span), str(p))
    return _parse_cached(str(p), stat.st_mtime, stat.st_size)
