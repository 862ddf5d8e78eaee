"""The `gamedef` command: run, play, check, test, replay, diff, list, rules, bench and simulate games.

Every failure a user can cause (a bad .game file, transcript, saved state or
argument) is reported as a message with a position and a hint, exit code 2.

This module builds the argument parser and dispatches; each command lives with its kind:
playing.py, designing.py, catalogue.py, many_games.py, and what they share in shared.py.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from interpreter.cli.catalogue import cmd_info, cmd_list
from interpreter.cli.designing import cmd_cards, cmd_check, cmd_diff, cmd_lsp, cmd_new, cmd_rules, cmd_test
from interpreter.cli.learning import cmd_learn
from interpreter.cli.many_games import cmd_balance, cmd_bench, cmd_simulate
from interpreter.cli.playing import cmd_play, cmd_replay, cmd_run, cmd_serve
from interpreter.cli.shared import budget_seconds, positive
from interpreter.cli.terminal import clean_output, error, rendered, worded
from interpreter.core.errors import GameDefError, GameRuntimeError, UsageError
from interpreter.core.limits import MAX_DECISIONS
from interpreter.play.agents import KINDS_HELP


def _max_decisions_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--max-decisions",
        type=positive,
        default=MAX_DECISIONS,
        metavar="N",
        help=f"stop a game that has not ended after N decisions (default {MAX_DECISIONS:,})",
    )


# Each command's --help ends with examples a newcomer can type as they are.
EXAMPLES: dict[str, list[tuple[str, str]]] = {
    "gamedef": [
        ("gamedef list", "the bundled games, their options and variants"),
        ("gamedef run twid --seed 3", "watch four AI players play The Wall is Down"),
        ("gamedef play berlin_wall --seat red", "play a seat yourself"),
        ("gamedef COMMAND --help", "one command's options and examples"),
    ],
    "run": [
        ("gamedef run twid --seed 3", "a whole game, its key events"),
        ("gamedef run berlin_wall --players 3 --variant gravity --verbose", "a variant, the whole story"),
        ("gamedef run twid --agent us=ismcts:50 --quiet", "a search agent for one seat, only the result"),
        ("gamedef run tictactoe --transcript game.toml", "write a transcript for `gamedef replay`"),
    ],
    "play": [
        ("gamedef play berlin_wall --seat red", "you are red; the other seats are random players"),
        ("gamedef play twid --players 2 --seat west --agent east=ismcts:1s", "against a search agent"),
        ("gamedef play twid --seat us --from-state saved.toml", "go on with a game saved on Ctrl-C"),
    ],
    "check": [
        ("gamedef check examples/twid_house_rules.game", "check a file and each of its variants, then play them"),
        ("gamedef check my_cards.game --budget 10", "play what the file adds for 10 seconds (0: no play)"),
    ],
    "diff": [
        ("gamedef diff --game examples/twid_house_rules.game --variant quick_game", "a variant against the game"),
        ("gamedef diff --game my.game --games 200", "and 200 seeded games of both, side by side"),
    ],
    "replay": [("gamedef replay game.toml", "re-run a transcript, every move checked")],
    "list": [("gamedef list", "every bundled game")],
    "info": [("gamedef info walls_and_wonders", "players, seats, options and variants of one game")],
    "cards": [
        ("gamedef cards twid --search Putin", "the cards whose title or text names Putin"),
        ("gamedef cards twid --where ops=3 --where block=W", "filter by properties"),
        ("gamedef cards missiles_now", "any game's components with a text"),
    ],
    "rules": [("gamedef rules berlin_wall --variant gravity", "the rules in brief, then every citation")],
    "learn": [
        ("gamedef learn tictactoe --games 300", "fit an estimate from 300 random games: tictactoe.learned.json"),
        ("gamedef learn missiles_now --players 3 --positions 80", "for three players, 80 positions a game"),
        ("gamedef learn twid --players 2 --out twid.json", "the West and the East, from 600 random games"),
        ("gamedef learn missiles_now --rounds 2", "then 200 games greedy by the first fit, refitted on all"),
        (
            "gamedef learn tictactoe --games 40 --explore 500 --rounds 2 --epsilon 0.1",
            "40 games searched for a win (for a game random play never wins), then 40 greedy by the fit",
        ),
    ],
    "bench": [("gamedef bench tictactoe --games 100", "random playouts: games and decisions a second")],
    "simulate": [
        ("gamedef simulate walls_and_wonders --games 200", "win rates, game length, endings"),
        ("gamedef simulate twid --games 50 --agent us=ismcts:20 --csv", "one CSV row per game"),
    ],
    "balance": [
        ("gamedef balance walls_and_wonders --games 100", "every player count: seats, first player, endings"),
        ("gamedef balance twid --players 2,4 --games 20 --agent ismcts:0.05s:d10 --html twid.html", "a page"),
        ("gamedef balance downfall_of_empires --games 50 --component Action", "how each action fares"),
        (
            "gamedef balance examples/twid_house_rules.game --variant quick_game --players 2 --against base",
            "a variant against the game, on the same seeds",
        ),
        ("gamedef balance twid --players 2 --games 100 --sweep victory_vp=6..12", "where the goal is fair"),
    ],
}


def _epilog(command: str) -> str:
    rows = EXAMPLES.get(command, [])
    return "examples:\n" + "\n".join(f"  {cmd}\n      {what}" for cmd, what in rows) if rows else ""


class _Version(argparse.Action):
    """`--version`, the installed version looked up only when asked (the lookup reads the
    Python installation's metadata, which no other command needs to touch)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"gamedef {_version()}")
        parser.exit(0)


def _version() -> str:
    """The installed distribution's version (`shared.installed_version`)."""
    from interpreter.cli.shared import installed_version

    return installed_version()


def argument_type(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """`parse` as an argparse type: the library's parsers of an argument's text (play/)
    raise a ValueError whose message says what is expected, which argparse shows only when
    it is an ArgumentTypeError (a plain ValueError becomes "invalid value")."""

    def typed(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    typed.__name__ = parse.__name__
    return typed


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gamedef",
        description=__doc__.splitlines()[0],
        epilog=_epilog("gamedef"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="print gamedef's version and exit")
    _completion(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def game_args(p, players=True):
        p.add_argument("game", help="a .game file or a bundled game name (see `gamedef list`)")
        if players:
            p.add_argument("--players", type=int, default=None, help="number of players (default: the game's own)")
            p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
        p.add_argument("--variant", action="append", metavar="V", help="apply a variant (repeatable)")
        p.add_argument(
            "--option", action="append", metavar="NAME=VALUE", help="set a game option (repeatable; see `gamedef info`)"
        )

    def sub_parser(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            help=text,
            description=text[0].upper() + text[1:] + ".",
            epilog=_epilog(name),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    p = sub_parser("run", "play a whole game with AI players, narrated")
    game_args(p)
    p.add_argument("--agent", action="append", metavar="SEAT=KIND", help=f"agent for a seat: {KINDS_HELP}")
    p.add_argument("--transcript", metavar="OUT.toml", help="write the game's transcript")
    p.add_argument("--save-state", metavar="OUT.toml", help="write the final state")
    p.add_argument("--from-state", metavar="STATE.toml", help="start from a saved state")
    p.add_argument("--die", type=int, action="append", help="pin the next random result (repeatable)")
    p.add_argument("--moves", action="store_true", help="show every move, with the whole narration")
    p.add_argument("--verbose", action="store_true", help="the whole narration, not only the key events")
    p.add_argument("--json", action="store_true", help="for tools: one JSON document per line (each move, its lines)")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    _max_decisions_arg(p)
    p.set_defaults(func=cmd_run)

    p = sub_parser("play", "play a game yourself in the terminal against AI seats")
    game_args(p)
    p.add_argument("--seat", required=True, help="the seat you play (its name or title, any case)")
    p.add_argument("--from-state", metavar="STATE.toml", help="go on from a saved state (Ctrl-C offers to save one)")
    p.add_argument("--agent", action="append", metavar="SEAT=KIND", help=f"agent for another seat: {KINDS_HELP}")
    p.add_argument("--transcript", metavar="OUT.toml", help="write the game's transcript")
    p.add_argument(
        "--save-state", metavar="OUT.toml", help="where Ctrl-C saves the game (default gamedef-GAME-seedS.toml)"
    )
    p.add_argument("--die", type=int, action="append", help="pin the next random result (repeatable)")
    _max_decisions_arg(p)
    p.set_defaults(func=cmd_play)

    p = sub_parser("check", "check .game files (and each of their variants)")
    p.add_argument("files", nargs="+", metavar="FILE", help=".game files or bundled game names")
    p.add_argument(
        "--budget",
        type=budget_seconds,
        metavar="SECONDS",
        help="seconds spent playing what each file adds or changes (default 3 for a file that includes a game, "
        "1 for a game of its own; 0: static checks only)",
    )
    p.set_defaults(func=cmd_check)

    p = sub_parser("lsp", "run the language server an editor starts (LSP on stdin and stdout; docs/editor.md)")
    p.set_defaults(func=cmd_lsp)

    p = sub_parser("new", "start a new game, variant or card set in a folder of your own, as a skeleton that runs")
    p.add_argument("what", choices=["game", "variant", "cards"], help="what to start")
    p.add_argument("name", help="its name (lower case, digits, _): the file is NAME.game")
    p.add_argument("dir", nargs="?", default=".", metavar="DIR", help="the folder to write it in (default: here)")
    p.add_argument(
        "--of", metavar="GAME", help="the game a variant or card set builds on: a bundled name or a .game in DIR"
    )
    p.set_defaults(func=cmd_new)

    p = sub_parser("replay", "re-run a transcript and check every move and the result")
    p.add_argument("transcript", help="a transcript written by --transcript (TOML)")
    p.add_argument("--json", action="store_true", help="print the final state as JSON")
    p.add_argument("--from-state", metavar="STATE.toml", help="start from this saved state, not the transcript's")
    p.set_defaults(func=cmd_replay)

    p = sub_parser("test", "run the designers' tests (`test` blocks) of .game files")
    p.add_argument("files", nargs="+", metavar="FILE", help=".game files with test blocks")
    p.add_argument("-k", metavar="WORDS", help="only the tests whose name contains WORDS")
    p.add_argument("--verbose", action="store_true", help="name each test that passes too")
    p.set_defaults(func=cmd_test)

    p = sub_parser("diff", "play transcripts against edited rules: where each first goes differently")
    p.add_argument(
        "transcripts", nargs="*", metavar="TRANSCRIPT", help="transcripts or folders of them (default: the canonical)"
    )
    p.add_argument("--game", metavar="GAME", help="the edited game, played against the rules the transcripts name")
    p.add_argument(
        "--variant",
        action="append",
        metavar="V",
        help="the edited rules are these variants added to the transcripts' (of --game, or of their own game)",
    )
    p.add_argument(
        "--games",
        type=positive,
        metavar="N",
        help="also play N seeded games of both rules: win rates, length and endings side by side",
    )
    p.add_argument(
        "--players", type=positive, metavar="N", help="players in those games (default: the first transcript's)"
    )
    p.add_argument("--seed", type=int, default=1, help="the first seed of those games (default 1)")
    p.set_defaults(func=cmd_diff)

    p = sub_parser("list", "list the bundled games: players, variants and options")
    p.add_argument("--names", action="store_true", help="only the games' names, one a line (for shell completion)")
    p.set_defaults(func=cmd_list)

    p = sub_parser("info", "one game: players and seats, options, variants, rulebook")
    p.add_argument("game", help="a .game file or a bundled game name (see `gamedef list`)")
    p.set_defaults(func=cmd_info)

    p = sub_parser("cards", "list a game's printed cards: number, title, properties, text")
    p.add_argument("game", help="a .game file or a bundled game name")
    p.add_argument("--variant", action="append", metavar="V", help="apply a variant (repeatable)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="set a game option")
    p.add_argument("--kind", help="only the cards of this kind (entity)")
    p.add_argument("--where", action="append", metavar="PROP=VALUE", help="only cards whose property has this value")
    p.add_argument("--search", metavar="WORDS", help="only cards whose title or text contains these words")
    p.set_defaults(func=cmd_cards)

    p = sub_parser("rules", "a game's rules in brief, then each rule with its rulebook section and readings")
    p.add_argument("game", help="a .game file or a bundled game name (see `gamedef list`)")
    p.add_argument("--variant", action="append", metavar="V", help="with this variant's rules (repeatable)")
    p.set_defaults(func=cmd_rules)

    p = sub_parser("bench", "random playouts: games/s, decisions/s and each seat's wins")
    game_args(p)
    p.add_argument("--games", type=positive, default=20, help="number of games (default 20)")
    _max_decisions_arg(p)
    p.set_defaults(func=cmd_bench)

    p = sub_parser("learn", "fit an estimate of positions from self-play games, for the agents that read one")
    game_args(p)
    p.add_argument("--games", type=positive, default=600, metavar="N", help="self-play games (default 600)")
    p.add_argument("--agent", default="random", metavar="KIND", help="the agent of every seat (default random)")
    p.add_argument("--positions", type=int, default=40, metavar="P", help="positions kept from each game (default 40)")
    p.add_argument(
        "--rounds",
        type=positive,
        default=1,
        metavar="R",
        help="after the first fit, R-1 more rounds of N games greedy by the last fit, refitted on all (default 1)",
    )
    p.add_argument(
        "--round-games",
        type=positive,
        default=None,
        metavar="M",
        help="games in each round after the first (default N, as --games): greedy games by a model cost more",
    )
    p.add_argument(
        "--td-lambda",
        type=float,
        default=None,
        metavar="L",
        help="label each position with its TD(L) return, 0 to 1: 1 is the game's payoff, less leans on the "
        "fit's value of the next position (default 1)",
    )
    p.add_argument(
        "--hidden",
        type=int,
        default=None,
        metavar="H",
        help="add a network of H hidden units where the games held out favour it (default 0: linear)",
    )
    p.add_argument(
        "--summaries",
        action="store_true",
        help="add to what a seat sees the components each variable holds, counted by their number fields and "
        "grouped by seat (cards of value 12 on my level 3): for a game of many cards and places",
    )
    p.add_argument(
        "--ranked",
        action="store_true",
        help="fit to the moves --agent chose, weighed against every move it could have made (a conditional logit "
        "put on the payoff's scale), instead of regressing each game's payoff: --agent is the expert copied",
    )
    p.add_argument(
        "--explore",
        type=positive,
        default=None,
        metavar="I",
        help="instead of random games, search each of the N games for a win (an archive of coarse cells, "
        "at most I iterations a game) and learn from the games won: for a game random play never wins",
    )
    p.add_argument(
        "--playouts",
        type=positive,
        default=None,
        metavar="S",
        help="label each position kept by the mean payoff of S games played on from it by --agent, instead of "
        "its one game's: for a game whose agents rarely win",
    )
    p.add_argument(
        "--epsilon",
        type=float,
        default=None,
        metavar="E",
        help="in the rounds after the first (with --playouts: in every game and playout), each seat takes a "
        "random decision with probability E, 0 to 1 (default 0)",
    )
    p.add_argument("--out", metavar="FILE", help="the model's file (default GAME.learned.json)")
    _max_decisions_arg(p)
    p.set_defaults(func=cmd_learn)

    from interpreter.cli.ray_workers import LOCAL_RAY  # stdlib and the engine only: cheap to import
    from interpreter.cli.simulation_report import TOP_CARDS, cards_shown

    p = sub_parser("simulate", "many games by AI players in parallel: win rates, length, endings, cards")
    game_args(p)
    p.add_argument("--games", type=positive, required=True, metavar="N", help="number of games (seeds S..S+N-1)")
    p.add_argument("--agent", action="append", metavar="SEAT=KIND", help="agent for a seat (default random)")
    p.add_argument("--jobs", type=int, default=None, metavar="J", help="worker processes (default: every core)")
    p.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_RAY,
        metavar="ADDRESS",
        help="play on Ray: a new local instance of J CPUs, or the cluster at ADDRESS (pip install '.[ray]')",
    )
    p.add_argument(
        "--cards",
        type=argument_type(cards_shown),
        default=TOP_CARDS,
        metavar="N|all",
        help=f"cards shown in the text report, the largest win-rate differences first (default {TOP_CARDS})",
    )
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="one JSON document: the figures and every game")
    fmt.add_argument(
        "--csv",
        nargs="?",
        const="games",
        choices=["games", "cards"],
        help="CSV: one row per game, or with `cards` one row per card",
    )
    p.add_argument("--plot", metavar="DIR", help="write PNG charts: win rates, game lengths")
    _max_decisions_arg(p)
    p.set_defaults(func=cmd_simulate)

    from interpreter.play.balance import TOP_COMPONENTS, parse_counts, parse_sweep
    from interpreter.play.stats import CORRECTIONS

    p = sub_parser("balance", "a balance report over every player count: seats, first player, endings, cards")
    p.add_argument("game", help="a .game file or a bundled game name (see `gamedef list`)")
    p.add_argument(
        "--players",
        type=argument_type(parse_counts),
        metavar="N,M",
        help="player counts, e.g. 2,4 or 2-4 (default: every count)",
    )
    p.add_argument("--games", type=positive, default=100, metavar="N", help="games at each count (default 100)")
    p.add_argument("--seed", type=int, default=1, help="the first seed (default 1): games use seeds S..S+N-1")
    p.add_argument("--variant", action="append", metavar="V", help="apply a variant (repeatable)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="set a game option (repeatable)")
    p.add_argument(
        "--agent",
        action="append",
        metavar="[SEAT=]KIND",
        help="KIND for every seat, or SEAT=KIND for one (default random; repeatable)",
    )
    p.add_argument(
        "--component",
        action="append",
        metavar="KIND",
        help="count the choices of this kind of component (repeatable; default: the game's cards)",
    )
    p.add_argument("--jobs", type=int, default=None, metavar="J", help="worker processes (default: every core)")
    p.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_RAY,
        metavar="ADDRESS",
        help="play on Ray: a new local instance of J CPUs, or the cluster at ADDRESS (pip install '.[ray]')",
    )
    p.add_argument("--html", metavar="FILE", help="write the report as one HTML page (charts beside it)")
    p.add_argument(
        "--keep",
        metavar="FILE",
        help="write each game to FILE as it ends, and read back the games already there (a stopped run goes on)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document: the figures and every game")
    p.add_argument(
        "--top",
        type=argument_type(cards_shown),
        default=TOP_COMPONENTS,
        metavar="N|all",
        help=f"components listed in the text, the flagged first (default {TOP_COMPONENTS})",
    )
    p.add_argument(
        "--against",
        metavar="base|GAME",
        help="play the same seeds under other rules and report the paired differences: `base` is the game "
        "without the --variant given (or, for a file that includes a game, that game), else a game's name or file",
    )
    p.add_argument(
        "--sweep",
        type=argument_type(parse_sweep),
        metavar="NAME=LO..HI",
        help="play the report once for each whole number from LO to HI of an option or a def without "
        "parameters: a table (and, with --html, a chart) of each seat's win rate against the value, "
        "marking where the game reads as fair",
    )
    p.add_argument(
        "--score",
        metavar="VAR",
        help="the variable from player to a number that is each seat's score, for why a seat wins "
        "(default: the game's `score`, `vp` or `points`, if it has one)",
    )
    p.add_argument(
        "--correction",
        choices=CORRECTIONS,
        default="holm",
        help="how the components' p-values are adjusted together: holm (family-wise, the default) or bh "
        "(Benjamini-Hochberg, false discovery rate)",
    )
    _max_decisions_arg(p)
    p.set_defaults(func=cmd_balance)

    p = sub_parser("serve", "the web table: play any game in a browser, alone against AI or with friends")
    p.add_argument("games", nargs="*", metavar="GAME", help="the games offered (default: every bundled game)")
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)"
    )
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    p.add_argument(
        "--db",
        default="gamedef-tables.sqlite",
        metavar="FILE|URL",
        help="where tables are kept: a SQLite file (default gamedef-tables.sqlite), or a postgresql:// URL that "
        "several servers share",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        metavar="NAME",
        help="a host name the server answers to besides this machine's (its name behind a proxy); repeatable",
    )
    p.add_argument(
        "--ai-workers", type=positive, default=1, metavar="N", help="processes that play the AI seats (default 1)"
    )
    p.set_defaults(func=cmd_serve)
    return parser


def _completion(parser: argparse.ArgumentParser) -> None:
    """`gamedef --print-completion bash|zsh|tcsh`: a completion script made by shtab from this
    parser (commands, options, and the bundled games' names for GAME); shtab is imported
    only when the script is asked for, so it costs nothing otherwise."""

    class Print(argparse.Action):
        def __call__(self, parser, namespace, values, option_string=None):
            import shtab

            for action in _game_arguments(parser):
                # shtab reads `complete` on an action: the shell function that lists its values
                action.complete = {"bash": "_gamedef_games", "zsh": "($(gamedef list --names))"}  # type: ignore[attr-defined]
            preamble = {"bash": '_gamedef_games() { compgen -W "$(gamedef list --names)" -- "$1"; }\n'}
            print(shtab.complete(parser, shell=values, preamble=preamble.get(values, "")))
            parser.exit(0)

    parser.add_argument(
        "--print-completion",
        choices=["bash", "zsh", "tcsh"],
        action=Print,
        help='print a shell completion script: `eval "$(gamedef --print-completion bash)"`',
    )


def _game_arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The GAME positionals of every command, for completion by the bundled games' names."""
    found: list[argparse.Action] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for p in action.choices.values():
                found.extend(a for a in p._actions if a.dest == "game")
    return found


def main(argv: list[str] | None = None) -> int:
    """The `gamedef` command; everything it writes passes `terminal.clean` (no escape
    sequence from a game, table, transcript, state or argument reaches the terminal)."""
    with clean_output():
        return _main(argv)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command == "new" and args.dir == "." and len(extra) == 1 and not extra[0].startswith("-"):
        args.dir = extra[0]  # `new variant NAME --of GAME DIR`: the folder after the option
    elif extra:
        parser.error("unrecognized arguments: " + " ".join(extra))
    if args.command is None:  # `gamedef` alone: what it can do, not an error
        parser.print_help()
        return 0
    try:
        return args.func(args)
    except GameRuntimeError as err:
        pinned = getattr(args, "die", None) and "pinned result" in err.diagnostics[0].message
        if not pinned:
            print(err.render(), file=sys.stderr)
            return 2
        d = err.diagnostics[0]  # a --die value this roll cannot give: the argument's error
        where, rest = d.message.split(": pinned result ", 1)
        value, options = rest.split(" is not one of ", 1)
        hint = "each --die pins the next random result, in order"
        error(f"--die {value}: the roll it pins ({where}) gives {options}", hint)
        return 2
    except GameDefError as err:
        print(rendered(err), file=sys.stderr)
        return 2
    except UsageError as err:
        error(*worded(err))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`gamedef run ... | head`): stop quietly
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
