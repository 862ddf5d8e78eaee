"""How long Downfall of Empires takes with searching players: one game at 0.5 s a move, a
balance report with look-ahead players, and the same games on Ray with 1 and 2 workers.

    python -m benchmarks.balance_time [--games 40] [--jobs 2] [--ray-games 4] [--ray-agent KIND] [--skip PARTS]

Each part runs the documented command (`gamedef simulate`, `gamedef balance`) as a child
process and prints its wall time, the CPU time it and its workers used (the pool's
processes are its children; Ray's workers are not, so a Ray run gives its wall time
only), and the load average before and after (`uptime`'s): on a shared machine the wall
time is the machine's share, the CPU time is the work.

* game: four seats, every seat `ismcts:0.5s:d30:o` (half a second a search, rollouts cut
  after 30 decisions and scored by the estimate, moves ordered by it), seed 5;
* report: `gamedef balance ... --games G --agent greedy:d2:n1 --jobs J --component Action`,
  seeds 1..G, the report of docs/balance/downfall_of_empires.md;
* ray: `gamedef simulate ... --games R --agent SEAT=greedy:d2:n1 --ray` (or `--ray-agent`) on a new local Ray
  instance of 1 CPU, then of 2, checking that both give the same records.

The figures in benchmarks/README.md ("Search fast enough for a report") come from it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

GAME = "downfall_of_empires"
SEATS = ("german", "franco_british", "russian", "austro_hungarian")
SEARCH = "ismcts:0.5s:d30:o"
LOOKAHEAD = "greedy:d2:n1"


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def run(argv: list[str]) -> tuple[float, float, str, str]:
    """(wall seconds, CPU seconds of the command and its waited-for workers, load before,
    and its standard output) of `gamedef ARGV`, run from this checkout."""
    load = _load()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "interpreter", *argv], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"gamedef {' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, load, done.stdout


def _minutes(seconds: float) -> str:
    return f"{int(seconds // 60)} min {seconds % 60:.0f} s" if seconds >= 60 else f"{seconds:.1f} s"


def one_game() -> None:
    agents = [f"--agent={seat}={SEARCH}" for seat in SEATS]
    argv = ["simulate", GAME, "--players", "4", "--games", "1", "--seed", "5", "--jobs", "1", "--json", *agents]
    wall, cpu, load, out = run(argv)
    record = json.loads(out)["records"][0]
    print(
        f"one game, every seat {SEARCH}: {_minutes(wall)} wall, {cpu:.0f} s CPU, "
        f"{record['decisions']} decisions, load {load} -> {_load()}"
    )


def report(games: int, jobs: int) -> None:
    argv = ["balance", GAME, "--players", "4", "--games", str(games), "--seed", "1"]
    argv += ["--agent", LOOKAHEAD, "--jobs", str(jobs), "--component", "Action"]
    wall, cpu, load, _ = run(argv)
    print(
        f"balance report, {games} games, {LOOKAHEAD}, --jobs {jobs}: {_minutes(wall)} wall, {cpu:.0f} s CPU "
        f"({cpu / games:.1f} s a game; {_minutes(cpu / jobs)} on {jobs} free cores), load {load} -> {_load()}"
    )


def on_ray(games: int, kind: str) -> None:
    argv = ["simulate", GAME, "--players", "4", "--games", str(games), "--seed", "1"]
    argv += [f"--agent={seat}={kind}" for seat in SEATS]
    records = []
    for workers in (1, 2):
        wall, _, load, out = run([*argv, "--ray", "--jobs", str(workers), "--json"])
        records.append(json.loads(out)["records"])
        print(f"Ray, {games} games, {kind}, {workers} worker CPU(s): {_minutes(wall)} wall, load {load} -> {_load()}")
    print("the same records with 1 and 2 workers" if records[0] == records[1] else "THE RECORDS DIFFER")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games of the balance report (default 40)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of the report (default 2)")
    parser.add_argument("--ray-games", type=int, default=4, help="games played on Ray (default 4)")
    parser.add_argument("--ray-agent", default=LOOKAHEAD, help=f"every seat's agent on Ray (default {LOOKAHEAD})")
    parser.add_argument("--skip", default="", help="parts not run, among game,report,ray (comma-separated)")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    print(f"{os.cpu_count()} cores, load {_load()}")
    if "game" not in skip:
        one_game()
    if "report" not in skip:
        report(args.games, args.jobs)
    if "ray" not in skip:
        on_ray(args.ray_games, args.ray_agent)


if __name__ == "__main__":
    main()
