"""`list` and `info`: the bundled games, their player counts, options and variants."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli.shared import entry, option_lines, options_of, put
from interpreter.runtime.load import bundled_games, find_game, load_game


def cmd_list(args) -> int:
    """Each bundled game with its player counts, options (with their defaults and
    choices) and variants, and the options each variant adds."""
    from interpreter.language.program import load_program

    if getattr(args, "names", False):
        print("\n".join(bundled_games()))
        return 0
    for name, path in bundled_games().items():
        program = load_program(path)
        h = program.header
        count = str(h.min_players) if h.min_players == h.max_players else f"{h.min_players}-{h.max_players}"
        put(f"{name:<24} {h.title} ({count} players)")
        base = options_of(path)
        put("\n".join(option_lines(base, base.option_decls, "    ")))
        for v in program.all_variants.values():
            put("\n".join(entry("    ", f"--variant {v.name}", v.title)))
            game = options_of(path, [v.name])
            added = [n for n in game.option_decls if n not in base.option_decls]
            for line in option_lines(game, added, "        "):
                put(line)
    return 0


def _rulebook_line(path: Path, h) -> str:
    """`rulebook: ...` naming only what is shipped: the rulebook the rules cite is the
    publisher's, shipped only when it lies beside the game as a file of its own; otherwise
    the line says so and points at the rules in brief that the game ships (`summary`)."""
    if not h.rulebook:
        return "rulebook: (none named)"
    shipped = (path.parent / h.rulebook).is_file() and h.rulebook != h.summary
    if shipped:
        return f"rulebook: {path.parent / h.rulebook}"
    brief = f"; the rules in brief: `gamedef rules {path.stem}`" if h.summary else ""
    return f"rulebook: {h.rulebook}, the publisher's, cited by section (not shipped{brief})"


def cmd_info(args) -> int:
    """One game as a newcomer needs it: title, player counts and seats, options, variants
    (with what they exclude and the options they add), and where its rules are cited."""
    from interpreter.check.rules_index import rules_listing
    from interpreter.language.program import load_program

    path = find_game(args.game)
    program = load_program(path)
    game = load_game(str(path))
    h = program.header
    count = str(h.min_players) if h.min_players == h.max_players else f"{h.min_players} to {h.max_players}"
    usual = f", {h.default_players} by default" if h.default_players and h.min_players != h.max_players else ""
    put(f"{h.title} ({path.stem}): {count} players{usual}")
    for n in range(h.min_players, h.max_players + 1):
        put(f"    {n} player{'' if n == 1 else 's'}: {', '.join(game.seats_for(n))}")
    put(_rulebook_line(path, h))
    lines = option_lines(game.compiled, game.compiled.option_decls, "    ")
    put("options:" + ("" if lines else " none"))
    for line in lines:
        put(line)
    put("variants:" + ("" if program.all_variants else " none"))
    for v in program.all_variants.values():
        excludes = f" (not with {', '.join(v.excludes)})" if v.excludes else ""
        put("\n".join(entry("    ", f"--variant {v.name}", f"{v.title}{excludes}")))
        with_v = options_of(path, [v.name])
        added = [n for n in with_v.option_decls if n not in game.compiled.option_decls]
        for line in option_lines(with_v, added, "        "):
            put(line)
    cited = rules_listing(path, []).count("\n")
    brief = " and the rules in brief" if program.header.summary else ""
    put(f"rules: {cited} lines of rulebook citations and interpretations{brief} (`gamedef rules {path.stem}`)")
    return 0
