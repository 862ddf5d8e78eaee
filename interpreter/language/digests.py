"""Digests of declarations and tables by their value, made once per object and, for the
declarations read from a file, kept with its syntax tree between runs.

A compiled game and a check's verdict are found by the digest of the rules they came from
(compile/gamecache.py `rules_digest`, play/verdicts.py): a digest per declaration and
table, by value, so that the same rules reached through another file or variant are found,
and an edit to one variant leaves the others' digests as they were. A part's digest is
known in one of three ways, each a function of its value alone:

- made: `plain_digest`, the part pickled without pickle's memo, hashed;
- kept with its tree: when a file is parsed, the digests of its declarations (each one at
  the top, each one of a variant, each one a `replace` puts in place: `tree_parts`) are
  made and kept in the tree cache with the tree (language/treecache.py), so a later
  process that reads the file back digests none of them again (`remember_tree`): a check
  after an edit digests the edited file's declarations, not the included game's;
- derived: a part the interpreter makes of others (a card a table's row extends, a card
  given its kind's slot parameters, a table read from its file) is digested as how it was
  made (`derived`): a tag naming the making, the digests of what it was made of and the
  plain values it was given. The making is the interpreter's code, digested with the
  rules (gamecache.py `_interpreter_digest`), so the same recipe is the same value; one
  value reached by two recipes has two digests, which costs a miss, never a wrong hit.
"""

from __future__ import annotations

import hashlib
import io
import pickle

from interpreter.language import syntax as ast

MAX_PARTS = 50_000  # parts whose digest or recipe one process keeps before the memo starts afresh
DIGEST_SIZE = 32  # bytes of one digest (sha256)

_parts: dict[int, tuple[object, bytes]] = {}  # id -> (the part, kept alive so its id is not reused; its digest)
_recipes: dict[int, tuple[object, bytes, tuple, object]] = {}  # id -> (the part, tag, made of, plain values)


def plain_digest(value: object) -> bytes:
    """The digest of a syntax tree or table's pickle without pickle's memo (`fast`): the bytes
    then depend on the values alone, not on which equal objects are one object (a tree read
    back from treecache shares what a fresh parse does not). Syntax trees have no cycles,
    which is what the memo is also for."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.fast = True
    pickler.dump(value)
    return hashlib.sha256(buffer.getbuffer()).digest()


def part_digest(part: object) -> bytes:
    """The digest of one declaration or table by its value, kept by the object: remembered
    from its tree, derived from what it was made of, or made (see the module's doc)."""
    known = _parts.get(id(part))
    if known is not None and known[0] is part:
        return known[1]
    recipe = _recipes.get(id(part))
    if recipe is not None and recipe[0] is part:
        _, tag, made_of, given = recipe
        digest = hashlib.sha256(b"derived " + tag)  # a pickle starts b"\x80": never a plain digest's bytes
        for p in made_of:
            digest.update(part_digest(p))
        digest.update(plain_digest(given))
        made = digest.digest()
    else:
        made = plain_digest(part)
    remember(part, made)
    return made


def remember(part: object, digest: bytes) -> None:
    """Keep `digest` as the digest of `part` for the life of the process."""
    if len(_parts) >= MAX_PARTS:
        _parts.clear()
    _parts[id(part)] = (part, digest)


def derived(made: object, tag: bytes, made_of: tuple, given: object = None) -> None:
    """`made` was made by the interpreter, in the way `tag` names, of the parts `made_of`
    (digested by `part_digest`) and the plain values `given`, and of nothing else: its
    digest is that recipe's (see the module's doc)."""
    if len(_recipes) >= MAX_PARTS:
        _recipes.clear()
    _recipes[id(made)] = (made, tag, made_of, given)


def tree_parts(module: ast.Module) -> list:
    """The parts of a file whose digests are kept with its tree, in order: each declaration
    at the top but a variant, each of a variant's declarations, and for a `replace`, the
    declaration it puts in place (what a program's declarations are taken from)."""
    out: list = []

    def add(decls) -> None:
        for d in decls:
            if isinstance(d, ast.Variant):
                add(d.decls)
            elif isinstance(d, ast.Replace):
                out.append(d.decl)
            else:
                out.append(d)

    add(module.decls)
    return out


def tree_digests(module: ast.Module) -> tuple[bytes, ...]:
    """The digests of `tree_parts(module)`, each remembered (a file just parsed)."""
    return tuple(part_digest(p) for p in tree_parts(module))


def remember_tree(module: object, digests: object) -> bool:
    """Remember the digests kept with a tree read back from the cache; False, remembering
    none, when they are not what `tree_digests` writes for it (a cache file is untrusted
    data: its shape is checked)."""
    if not isinstance(module, ast.Module) or type(digests) is not tuple:
        return False
    parts = tree_parts(module)
    if len(parts) != len(digests) or any(type(d) is not bytes or len(d) != DIGEST_SIZE for d in digests):
        return False
    for part, digest in zip(parts, digests, strict=True):
        remember(part, digest)
    return True
