"""Where a declaration with a syntax error ends, and which `{` was left open, read from the layout.

The parser (parser.py) meets a syntax error at one token; to report the errors after it
too, it leaves out the declaration around that token and parses the rest again. Where
that declaration begins the parser's own stack says (the innermost declaration keyword
it is inside); where it ends is read from the lines here: a declaration starts on a line
whose first word is a declaration's keyword (`card`, `procedure`, `def`, ...; `when` and
`while` only at the start of a line, since indented they are statements or a card's
trigger), and it ends where the next one of the same or an outer indentation starts, or
where a `}` of an outer indentation closes what holds it. Leaving it out keeps every
other declaration, nested ones too: a broken card inside a `variant { ... }` costs that
card, not the variant. (Without a keyword on the stack, the lines say where it begins too.)

A `{` left open is found the same way: a `{` that ends a line expects its `}` at the start
of the first line indented no deeper than its own, so the `{` whose `}` is missing is
named where it opens rather than where the parser gave up (the next card, or the end of
the file).
"""

from __future__ import annotations

import re

import attrs

# Words that start a declaration (or an item of a test, view or variant) and never a statement.
DECLARATION_WORDS = (
    "about|card|def|entity|enum|estimate|event|generate|graph|grid|include|invariant|links|option|"
    "payoff|procedure|query|remove|replace|table|test|var|variant|view"
)
_STARTS = re.compile(
    rf"^(?P<indent>[ \t]*)(?:(?P<word>{DECLARATION_WORDS}|game(?![ \t]+over\b)|when|while)\b|(?P<close>\}}))",
    re.MULTILINE,
)
# What the braces are counted through: strings and comments are skipped (a string ends at its line).
BRACES = re.compile(r'"(?:\\.|[^"\\\n])*"|#[^\n]*|[{}]')
_NAME_AFTER = re.compile(r"[ \t]+(?:(?:card|procedure|def|query|var|event|option|entity|enum)[ \t]+)?([A-Za-z_]\w*)")
_NAMES_NOTHING = (
    "about",
    "game",
    "include",
    "invariant",
    "links",
    "payoff",
    "estimate",
    "test",
    "view",
    "when",
    "while",
)


@attrs.frozen
class Line:
    """The start of a line that bounds a declaration: where its first word is, its
    indentation, the word (`card`, ...), and whether it is a `}` instead."""

    pos: int
    indent: int
    word: str
    close: bool


@attrs.frozen
class Brace:
    """A `{` and the `}` that closes it (None: none in the text read)."""

    pos: int
    closed_at: int | None


def boundaries(text: str) -> list[Line]:
    """Every line of `text` that starts a declaration or begins with `}`, in order."""
    out = []
    for m in _STARTS.finditer(text):
        word = m.group("word") or "}"
        if word in ("when", "while") and m.group("indent"):
            continue  # indented, a card's trigger or a statement
        indent = len(m.group("indent").expandtabs(4))
        out.append(Line(m.start() + len(m.group("indent")), indent, word, m.group("close") is not None))
    return out


def braces(text: str, end: int, start: int = 0) -> list[Brace]:
    """The `{`s of `text` from `start` to `end`, each with its matching `}` (by nesting) if any."""
    out: list[Brace] = []
    stack: list[int] = []
    for m in BRACES.finditer(text, start, end):
        token = m.group()
        if token == "{":
            stack.append(len(out))
            out.append(Brace(m.start(), None))
        elif token == "}" and stack:
            i = stack.pop()
            out[i] = Brace(out[i].pos, m.start())
    return out


def line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return end if end != -1 else len(text)


def indentation(text: str, pos: int) -> int:
    start = line_start(text, pos)
    line = text[start : line_end(text, start)]
    return len(line[: len(line) - len(line.lstrip(" \t"))].expandtabs(4))


def first_code_line_after(text: str, pos: int, indent: int) -> int | None:
    """The position of the first word of the first line after the one at `pos` that holds
    code and is indented no deeper than `indent`; None at the end of the text."""
    start = text.find("\n", pos)
    while start != -1:
        start += 1
        end = text.find("\n", start)
        line = text[start : end if end != -1 else len(text)]
        code = line.lstrip(" \t")
        if code and not code.startswith("#"):
            if len(line[: len(line) - len(code)].expandtabs(4)) <= indent:
                return start + len(line) - len(code)
        start = end
    return None


def unclosed_brace(text: str, end: int, outer: int) -> int | None:
    """The `{` before `end` that is never closed, judged by the layout, when more `{`s
    than `}`s are open at `end` than the `outer` ones a declaration there sits in.

    Of the `{`s that end their line and whose `}` is not at the start of the first line
    indented as theirs, the last; if the layout says nothing, the innermost left open."""
    found = braces(text, end)
    left_open = [b for b in found if b.closed_at is None]
    if len(left_open) <= outer:
        return None
    first_open = left_open[outer].pos
    suspects = []
    for b in found:
        if b.pos < first_open or (b.closed_at is not None and "\n" not in text[b.pos : b.closed_at]):
            continue  # before the braces in question, or closed on its own line
        after = text[b.pos + 1 : line_end(text, b.pos)]
        if after.split("#", 1)[0].strip():
            continue  # not the last word of its line: its block is not laid out by lines
        indent = indentation(text, b.pos)
        closer = first_code_line_after(text, b.pos, indent)
        if closer is None or closer >= end or text[closer] != "}" or indentation(text, closer) != indent:
            suspects.append(b.pos)
    return suspects[-1] if suspects else left_open[-1].pos


def opened_by(text: str, brace: int) -> str:
    """What a `{` opens, as written before it on its line (`if x > 2`, `card spy "Spy"`)."""
    head = text[line_start(text, brace) : brace].split("#", 1)[0].strip()
    return head[:60] + ("..." if len(head) > 60 else "")


def declared_name(text: str, line: Line) -> str | None:
    """The name a declaration line declares (`card spy ...` -> spy), if it names one."""
    if line.close or line.word in _NAMES_NOTHING:
        return None
    m = _NAME_AFTER.match(text, line.pos + len(line.word))
    return m.group(1) if m else None


def enclosing(lines: list[Line], pos: int) -> Line | None:
    """The last declaration line that starts before `pos`."""
    best = None
    for line in lines:
        if line.pos >= pos:
            break
        if not line.close:
            best = line
    return best


def region_end(text: str, lines: list[Line], start: Line | None, after: int) -> int:
    """Where the declaration starting at `start` ends, at or after `after`: the next
    declaration indented no deeper, or a `}` indented less (it closes what holds it)."""
    indent = start.indent if start is not None else 0
    for line in lines:
        if line.pos < after:
            continue
        if (line.close and line.indent < indent) or (not line.close and line.indent <= indent):
            return line_start(text, line.pos)
    return len(text)


def blank(text: str, start: int, end: int) -> str:
    """`text` with the characters in [start, end) made spaces, its line breaks kept, so
    every position after it stays where it was."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]
