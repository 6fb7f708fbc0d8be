"""What each committed model is worth in search iterations (results/learned.md).

    python experiments/strength/learned_ladder.py --deals 60 --seed 4242 \
        --out results/learned/ladder.json --png results/learned/ladder.png

For each game with a committed model (``skip_ai/models/<game>.npz``, the game's default
variant), plays ``learned(model)`` alone against ``ismcts(iterations=N)`` for N up the
``--budgets`` ladder, on ``--deals`` duplicate deals of the ``--seed`` family, and stops a game's
ladder after the first budget whose 95% interval lies wholly below 0.5 (the larger budgets would
only be further below). The budget where the score crosses 0.5 (log-linear between the two
budgets around it) is the model's worth in iterations. Beside it, the median iterations that
``ismcts(seconds=S)`` (the moonshot's opponent) runs in ``--timed-positions`` positions of
random games, so the ladder can be read against that search on this machine (``--budgets``
with no value: only that).

Rows go to ``--out`` (JSON, rewritten whole after each match); a rerun with the same ``--out``
skips the matches already in it, so a stopped ladder resumes. Timed rows measure the machine:
run at most one process per core.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from agents.factory import make_agent
from skip_ai.analysis.plots import STYLE, save
from skip_ai.match import match
from skip_ai.pyspiel_wrapper import load

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "skip_ai" / "models"
BUDGETS = (100, 400, 1600, 6400, 25600)


def crossing(rows: list[dict]) -> float | None:
    """The budget where the score falls through 0.5, log-linear between the ladder's two
    budgets around it; ``inf`` if it never falls below 0.5, 0 if it starts below; ``None``
    for no rows."""
    pts = sorted((r["iterations"], r["score"]) for r in rows)
    if not pts:
        return None
    if pts[0][1] < 0.5:
        return 0.0
    for (n0, s0), (n1, s1) in zip(pts, pts[1:]):
        if s1 < 0.5 <= s0:
            f = (s0 - 0.5) / (s0 - s1)
            return math.exp(math.log(n0) + f * (math.log(n1) - math.log(n0)))
    return math.inf


def timed_iterations(game_name: str, seconds: float, positions: int, seed: int) -> float:
    """Median iterations of ``ismcts(seconds=S)`` over decision positions of random games."""
    game = load(game_name)
    bot = make_agent(f"ismcts(seconds={seconds})", game, seed=seed)
    rng = np.random.default_rng(seed)
    counts = []
    while len(counts) < positions:
        state = game.new_initial_state()
        while not state.is_terminal() and len(counts) < positions:
            legal = state.legal_actions()
            if state.is_player_node() and len(legal) > 1 and rng.random() < 0.2:
                bot.step(state)
                counts.append(bot.last_search.iterations)
            state.apply_action(int(rng.choice(legal)))
    return float(np.median(counts))


KEYS = {
    "ladder": ("game_name", "iterations", "score", "lo", "hi", "deals", "seed"),
    "timed": ("game_name", "median_iterations"),
    "diagnostic": ("game_name",),
}
"""What each kind of row must hold (a rerun reads them back to resume)."""


def _read(path: Path) -> list[dict]:
    """The rows of an earlier run at ``path`` (none if it does not exist), checked."""
    if not path.exists():
        return []
    rows = json.loads(path.read_text())  # a JSONDecodeError is a ValueError
    if not isinstance(rows, list):
        raise ValueError("want a list of rows")
    for k, r in enumerate(rows):
        if not isinstance(r, dict) or r.get("kind") not in KEYS:
            raise ValueError(f"row {k}: want a kind among {', '.join(KEYS)}")
        missing = [key for key in KEYS[r["kind"]] if key not in r]
        if missing:
            raise ValueError(f"row {k}: missing {', '.join(missing)}")
        numbers = [r[key] for key in KEYS[r["kind"]][1:]]
        if not all(isinstance(x, int | float) and math.isfinite(x) for x in numbers):
            raise ValueError(f"row {k}: a number is not finite")
    return rows


def _write(path: Path, rows: list[dict]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(rows, indent=1))
    os.replace(tmp, path)


def ladder(game_name: str, args: argparse.Namespace, rows: list[dict]) -> None:
    """Plays the game's ladder, appending to ``rows`` (and ``args.out``) what is not there."""
    spec_a = f"learned(model={game_name})"  # the shipped model, from any working folder
    game = load(game_name)
    mine = [r for r in rows if r["game_name"] == game_name and r["kind"] == "ladder"]
    for n in args.budgets:
        done = [r for r in mine if r["iterations"] == n]
        if not done:
            spec_b = f"ismcts(iterations={n})"
            t0 = time.process_time()
            r = match(game, spec_a, spec_b, args.deals, args.seed)
            done = [
                {
                    "kind": "ladder",
                    "game_name": game_name,
                    "game": str(game),
                    "a": spec_a,
                    "b": spec_b,
                    "iterations": n,
                    "deals": args.deals,
                    "seed": args.seed,
                    "score": r.score,
                    "lo": r.lo,
                    "hi": r.hi,
                    "ms_per_choice_a": r.ms_per_move("a", choices=True),
                    "ms_per_choice_b": r.ms_per_move("b", choices=True),
                    "cpu_seconds": time.process_time() - t0,
                }
            ]
            rows += done
            mine += done
            _write(args.out, rows)
            print(
                f"{game_name:22} ISMCTS-{n:<6} {r.score:.3f} [{r.lo:.3f}, {r.hi:.3f}]", flush=True
            )
        if done[0]["hi"] < 0.5:
            break
    if args.seconds and not any(r["game_name"] == game_name and r["kind"] == "timed" for r in rows):
        its = timed_iterations(game_name, args.seconds, args.timed_positions, args.seed)
        rows.append(
            {
                "kind": "timed",
                "game_name": game_name,
                "seconds": args.seconds,
                "positions": args.timed_positions,
                "median_iterations": its,
            }
        )
        _write(args.out, rows)
        print(f"{game_name:22} ismcts(seconds={args.seconds}): {its:.0f} iterations", flush=True)


def plot(rows: list[dict]) -> Figure:
    """Each game's score against the budget, one line a game."""
    with matplotlib.rc_context(STYLE):
        return _plot(rows)


MARKERS = "osD^vP*Xh<>"


def _plot(rows: list[dict]) -> Figure:
    fig = Figure(figsize=(9, 5.5))
    ax = fig.add_subplot()
    games = sorted({r["game_name"] for r in rows if r["kind"] == "ladder"})
    colours = matplotlib.colormaps["tab20"].colors[::2] + matplotlib.colormaps["tab20"].colors[1::2]
    for k, g in enumerate(games):
        pts = sorted(
            (r["iterations"], r["score"], r["lo"], r["hi"])
            for r in rows
            if r["game_name"] == g and r["kind"] == "ladder"
        )
        n, score, lo, hi = (np.array(c) for c in zip(*pts))
        shift = 1.04 ** (k - len(games) / 2)  # apart a little, so the intervals can be read
        style = {"color": colours[k % len(colours)], "marker": MARKERS[k % len(MARKERS)]}
        ax.errorbar(
            n * shift,
            score,
            yerr=(score - lo, hi - score),
            capsize=2,
            lw=1.2,
            label=g.removeprefix("skip_"),
            **style,
        )
        timed = [
            r["median_iterations"] for r in rows if r["game_name"] == g and r["kind"] == "timed"
        ]
        if timed:  # where the moonshot's opponent stands on this axis
            ax.plot(timed, [0.03], ls="none", ms=9, alpha=0.8, **style)
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel(
        "ismcts(iterations=N): N\n"
        "(bottom row: the median iterations that ismcts(seconds=0.1) runs, same marker)"
    )
    ax.set_ylabel("learned alone: duplicate score [95%]")
    first = next(r for r in rows if r["kind"] == "ladder")
    ax.set_title(
        f"Each committed model alone against ISMCTS-N\n"
        f"({first['deals']} duplicate deals of family {first['seed']})"
    )
    ax.legend(fontsize=8, ncol=2, loc="upper right")
    ax.set_ylim(0, 1.02)
    return fig


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", nargs="+", help="default: every game with a committed model")
    ap.add_argument(
        "--budgets", type=int, nargs="*", default=list(BUDGETS), help="none: the timed rows only"
    )
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument(
        "--seconds", type=float, default=0.1, help="the timed search to measure; 0: none"
    )
    ap.add_argument("--timed-positions", type=int, default=20)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--png", type=Path, help="draw the ladders in --out (plays nothing)")
    args = ap.parse_args()
    if not all(0 < n <= 10**7 for n in args.budgets) or args.budgets != sorted(set(args.budgets)):
        ap.error(f"--budgets must increase, each in 1..10^7 (got {args.budgets})")
    if not 1 <= args.deals <= 10**5 or not 1 <= args.timed_positions <= 10**4:
        ap.error("--deals must be in 1..10^5 and --timed-positions in 1..10^4")
    if not (math.isfinite(args.seconds) and 0 <= args.seconds < 60):
        ap.error(f"--seconds must be in [0, 60) (got {args.seconds})")
    try:
        rows = _read(args.out)
    except ValueError as e:
        ap.error(f"{args.out}: not a ladder's rows ({e})")
    if args.png and not any(r["kind"] == "ladder" for r in rows):
        ap.error(f"{args.out}: no ladder rows to draw")
    if args.png:
        save(plot(rows), args.png)
        return
    other = {(r["deals"], r["seed"]) for r in rows if r["kind"] == "ladder"} - {
        (args.deals, args.seed)
    }
    if other:  # a resumed ladder must play the deals its rows were played on
        deals, seed = sorted(other)[0]
        ap.error(
            f"{args.out} holds rows of --deals {deals} --seed {seed}: use those or another --out"
        )
    games = args.games or sorted(p.stem for p in MODELS.glob("*.npz"))
    missing = [g for g in games if not (MODELS / f"{g}.npz").exists()]
    if missing:
        ap.error(f"no committed model (skip_ai/models/GAME.npz) for: {', '.join(missing)}")
    for g in games:
        ladder(g, args, rows)


if __name__ == "__main__":
    main()
