"""Playout benchmark: kernel batch simulation against a Python loop over the pyspiel API.

For each game it prints, in one run:

- games/s of ``skip_ai.sim.simulate`` (whole games inside Numba, random policy);
- games/s of a plain Python loop over the pyspiel API (random legal actions, chance outcomes
  sampled from ``chance_outcomes()``), and the ratio of the two;
- µs per action through the pyspiel API (every node, chance included);
- the same API loop on OpenSpiel's own games as baselines: its Python ``team_dominoes`` and
  its C++ ``hearts``;
- kernel compile time cold (empty Numba cache) and warm (cache filled), and the warm import
  time of ``skip_ai``, each measured in a fresh subprocess;
- peak memory (max RSS) of this process.

Usage: ``python experiments/speed/playout.py [--games G ...] [--sim-games N] [--api-games N]``
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyspiel

ROOT = Path(__file__).resolve().parents[2]


def api_loop(game: pyspiel.Game, n_games: int, seed: int) -> tuple[float, int]:
    """Seconds and actions for ``n_games`` random games through the pyspiel API."""
    rnd = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(n_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rnd.choice(outcomes)[0]
            else:
                action = rnd.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
    return time.perf_counter() - start, actions


def sim_rate(game_string: str, n_games: int, seed: int) -> float:
    from skip_ai.sim import simulate

    simulate(game_string, 10, seed=seed)  # compile / load from cache
    start = time.perf_counter()
    simulate(game_string, n_games, seed=seed)
    return n_games / (time.perf_counter() - start)


def subprocess_seconds(code: str, cache: str) -> float:
    """Wall time of ``code`` in a fresh interpreter using Numba cache folder ``cache``."""
    env = {"SKIP_AI_CACHE": cache, "PATH": "/usr/bin:/bin"}
    timer = f"import time; t0 = time.perf_counter()\n{code}\nprint(time.perf_counter() - t0)"
    out = subprocess.run(
        [sys.executable, "-c", timer], env=env, cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    return float(out.strip().splitlines()[-1])


def compile_times(game_string: str) -> dict[str, float]:
    first_use = (
        "import skip_ai, pyspiel\n"
        f"from skip_ai.sim import simulate\n"
        f"g = pyspiel.load_game({game_string!r})\n"
        "s = g.new_initial_state()\n"
        "while not s.is_terminal(): s.apply_action(s.legal_actions()[0])\n"
        f"simulate({game_string!r}, 1)"
    )
    with tempfile.TemporaryDirectory() as cache:
        cold = subprocess_seconds(first_use, cache)
        warm = subprocess_seconds(first_use, cache)
        imp = min(subprocess_seconds("import skip_ai", cache) for _ in range(3))
    return {"cold": cold, "warm": warm, "import": imp}


def default_games() -> list[str]:
    """Every registered game at each of its player counts, other parameters at default."""
    from skip_ai.pyspiel_wrapper import REGISTRY

    out = []
    for spec in REGISTRY.values():
        counts = next((p.choices for p in spec.params if p.name == "players"), (None,))
        out += [spec.short_name if n is None else f"{spec.short_name}(players={n})" for n in counts]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        nargs="+",
        default=None,
        help="game strings (default: every registered game, each player count)",
    )
    parser.add_argument("--sim-games", type=int, default=50000)
    parser.add_argument("--api-games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--no-compile",
        action="store_true",
        help="skip the cold/warm compile measurement (subprocesses)",
    )
    args = parser.parse_args(argv)

    import skip_ai  # noqa: F401

    games = args.games or default_games()
    print("| game | simulate games/s | API loop games/s | ratio | API µs/action |")
    print("|---|---:|---:|---:|---:|")
    for game_string in games:
        game = pyspiel.load_game(game_string)
        api_loop(game, 3, args.seed)  # warm-up (kernel compile or cache load)
        seconds, actions = api_loop(game, args.api_games, args.seed)
        api_rate = args.api_games / seconds
        rate = sim_rate(game_string, args.sim_games, args.seed)
        print(
            f"| {game_string} | {rate:,.0f} | {api_rate:,.1f} | {rate / api_rate:,.0f}× | "
            f"{seconds / actions * 1e6:.2f} |"
        )
    import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's Python games)

    for name in ("python_team_dominoes", "hearts"):
        game = pyspiel.load_game(name)
        n = 30 if name.startswith("python") else 300
        seconds, actions = api_loop(game, n, args.seed)
        print(
            f"| baseline: OpenSpiel {name} | – | {n / seconds:,.1f} | – | "
            f"{seconds / actions * 1e6:.2f} |"
        )

    if not args.no_compile:
        print(
            "\n| game | first use, cold cache (s) | first use, warm cache (s) | "
            "warm `import skip_ai` (s) |"
        )
        print("|---|---:|---:|---:|")
        first_of_each = {g.split("(")[0]: g for g in reversed(games)}
        for game_string in reversed(first_of_each.values()):
            t = compile_times(game_string)
            print(f"| {game_string} | {t['cold']:.2f} | {t['warm']:.2f} | {t['import']:.2f} |")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory (max RSS) of the benchmark process: {peak:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
