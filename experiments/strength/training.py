"""The training benchmark: trained ISMCTS vs untrained ISMCTS at equal wall time per move.

    python experiments/strength/training.py --seconds 0.02 --deals 50 \
        --tuned "skip_brook(players=4)=runs/tuned/brook-4.json" ... \
        --out results/training/training.md

- ``--tuned GAME=WEIGHTS.json``: ISMCTS whose heuristic rollouts use weights tuned by
  ``skip-ai tune`` vs ISMCTS with the default weights, both ``ismcts(seconds=S)``; with
  ``--prior`` the tuned heuristic's move is also expanded first and favoured in selection
  (``heuristic_prior=true``).
- ``--models GAME=MODEL.npz``: ISMCTS with a model from ``skip-ai train`` vs plain ISMCTS.
- ``--searched GAME=SEARCH.json``: ISMCTS tuned by ``skip-ai tune --search`` or ``--balance``
  vs the untuned search, both ``ismcts(seconds=S)``; the file's generations (scored against
  the untuned search on fresh deals while tuning, or with ``--curve``) are plotted as its
  curve of strength by generation.
- ``--curve DEALS``: every tuning round's mean scored against plain ISMCTS on fresh deals.
- ``--deals 0``: only the curves.

Writes the Markdown table next to ``--out`` (``.table.md``) and the plot of strength by
generation (``.png``), one panel per kind of training given.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from agents import parse_spec  # noqa: E402
from agents.ismcts import ISMCTSAgent  # noqa: E402
from agents.search_config import FORMAT as SEARCH_FORMAT  # noqa: E402
from agents.search_config import SearchConfig  # noqa: E402
from skip_ai.match import match  # noqa: E402
from skip_ai.tuning.players import search_config  # noqa: E402


def equal_time(
    game: str, trained: str | SearchConfig, seconds: float, deals: int, seed: int
) -> dict:
    """``ismcts(seconds=S,<trained>)`` (``trained``: spec options, or a whole search) vs
    ``ismcts(seconds=S)`` on duplicate deals."""
    t0 = time.time()
    a = f"ismcts(seconds={seconds},{trained})" if isinstance(trained, str) else ISMCTSAgent(trained)
    r = match(game, a, f"ismcts(seconds={seconds})", deals, seed=seed, progress=True)
    ms = r.games[["seconds_a", "seconds_b"]].sum() / r.games[["moves_a", "moves_b"]].sum().values
    return {
        "game": r.game,
        "trained": str(trained),
        "score": r.score,
        "lo": r.lo,
        "hi": r.hi,
        "deals": deals,
        "ms_a": 1e3 * ms.iloc[0],
        "ms_b": 1e3 * ms.iloc[1],
        "minutes": (time.time() - t0) / 60,
    }


def generation_curve(
    game: str, path: Path, seconds: float, deals: int, seed: int, extra: str
) -> list[tuple[float, float, float]]:
    """ISMCTS with each tuning round's mean vs plain ISMCTS at equal time: the trained search
    by generation. A weights file (``skip-ai tune``) gives the search's heuristic weights
    (``extra``: spec options, e.g. the prior); a tuned-search file (``--search`` or
    ``--balance``) holds every round's mean as a tuned-search vector."""
    data = json.loads(path.read_text())
    budget = SearchConfig(seconds=seconds)
    options = parse_spec(f"ismcts({extra.strip(',')})")[1]
    curve = []
    for r in data["rounds"]:
        if data.get("format") == SEARCH_FORMAT:
            config = search_config(np.array(r["mean"]), budget)
        else:
            config = SearchConfig(seconds=seconds, weights=tuple(r["mean"]), **options)
        row = equal_time(game, config, seconds, deals, seed + r["round"])
        curve.append((row["score"], row["lo"], row["hi"]))
    return curve


def plot(
    tuned: dict[str, Path],
    searched: dict[str, Path],
    png: Path,
    curves: dict[str, list] | None = None,
) -> None:
    """One panel per kind of training given: heuristic tuning (with ``curves``: the trained
    search by generation), search tuning (its generations' scores from the
    file, or from ``curves``)."""
    curves = curves or {}
    tuning = (
        _tuning_panel
        if not any(g in curves for g in tuned)
        else (lambda ax, tuned, searched: _curve_panel(ax, {g: curves[g] for g in tuned}))
    )

    def search(ax, tuned, searched):
        return _search_panel(ax, searched, curves)

    balanced = {
        g: p
        for g, p in searched.items()
        if "held_out_error" in json.loads(p.read_text())["rounds"][0]
    }
    panels = [draw for draw, given in ((tuning, tuned), (search, searched)) if given]
    if not panels:
        return
    fig, axes = plt.subplots(
        1,
        len(panels) + bool(balanced),
        figsize=(6.5 * (len(panels) + bool(balanced)), 4.8),
        squeeze=False,
    )
    if balanced:
        _balance_panel(axes[0][-1], balanced)
    for ax, draw in zip(axes[0], panels):
        draw(ax, tuned, searched)
        ax.axhline(0.5, color="grey", lw=0.8)
        ax.axhline(0.55, color="grey", lw=0.8, ls="--")  # issue 9's target
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("duplicate score (dashed: the 0.55 target)")
        ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def _tuning_panel(ax, tuned: dict[str, Path], searched: dict) -> None:
    for game, path in tuned.items():
        rounds = json.loads(path.read_text()).get("rounds", [])
        ax.plot(range(len(rounds) + 1), [0.5] + [r["best_score"] for r in rounds], "o-", label=game)
    ax.set(
        title="Heuristic tuning (CEM): best candidate per round\nvs default weights "
        "(in-sample deals)",
        xlabel="round",
    )


def _curve_panel(ax, curves: dict[str, list]) -> None:
    for k, (game, curve) in enumerate(curves.items()):
        dodge = 0.06 * (k - (len(curves) - 1) / 2)
        _curve(
            ax,
            [0.5] + [c[0] for c in curve],
            [0.5] + [c[1] for c in curve],
            [0.5] + [c[2] for c in curve],
            game,
            x=[i + dodge for i in range(len(curve) + 1)],
        )
    ax.set(
        title="Heuristic tuning (CEM): ISMCTS with round g's weights\nvs plain ISMCTS "
        "(equal time, fresh deals, 95% interval)",
        xlabel="generation (CEM round)",
    )


def _search_panel(ax, searched: dict[str, Path], curves: dict[str, list]) -> None:
    for k, (game, path) in enumerate(searched.items()):
        data = json.loads(path.read_text())
        gens = curves.get(game) or [r["vs_plain"] for r in data["rounds"] if "vs_plain" in r]
        dodge = 0.06 * (k - (len(searched) - 1) / 2)  # keep the error bars apart
        how = data["budget"] or f"balanced on {data.get('balanced_on')}"
        _curve(
            ax,
            [0.5] + [g[0] for g in gens],
            [0.5] + [g[1] for g in gens],
            [0.5] + [g[2] for g in gens],
            f"{game} ({how})",
            x=[i + dodge for i in range(len(gens) + 1)],
        )
    ax.set(
        title="Search tuning / balancing (CEM): generation g vs untuned ISMCTS\n(equal "
        "time, fresh deals, 95% interval)",
        xlabel="generation",
    )


def _balance_panel(ax, balanced: dict[str, Path]) -> None:
    """Simulation balancing's own objective by generation: the held-out squared bias of the
    rollouts, relative to the default rollouts'."""
    for game, path in balanced.items():
        data = json.loads(path.read_text())
        default = data["held_out_error"]["default"]
        errors = [default] + [r["held_out_error"] for r in data["rounds"]]
        ax.plot(range(len(errors)), [e / default for e in errors], "o-", label=game)
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set(
        title="Simulation balancing: squared bias of the rollouts\non held-out expert "
        "positions, relative to the default rollouts",
        xlabel="generation (CEM round)",
        ylabel="held-out squared bias / default's",
    )
    ax.legend(fontsize=7, loc="upper right")


def _curve(ax, y: list, lo: list, hi: list, label: str, x: list | None = None) -> None:
    """Scores by generation with their 95% intervals as error bars."""
    x = list(range(len(y))) if x is None else x
    ax.errorbar(
        x,
        y,
        yerr=[[a - b for a, b in zip(y, lo)], [b - a for a, b in zip(y, hi)]],
        fmt="o-",
        capsize=3,
        label=label,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.02)
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--tuned", nargs="*", default=[], help="GAME=WEIGHTS.json")
    ap.add_argument(
        "--prior",
        action="store_true",
        help="the --tuned side also expands the tuned heuristic's move first "
        "(heuristic_prior=true)",
    )
    ap.add_argument(
        "--curve",
        type=int,
        default=0,
        metavar="DEALS",
        help="also score every tuning round's mean (the --tuned weights, or a "
        "--searched file without scored generations, e.g. from --balance) "
        "against plain ISMCTS on this many fresh deals: the curve by "
        "generation",
    )
    ap.add_argument("--models", nargs="*", default=[], help="GAME=MODEL.npz")
    ap.add_argument("--searched", nargs="*", default=[], help="GAME=SEARCH.json")
    ap.add_argument("--out", type=Path, default=Path("results/training/training.md"))
    args = ap.parse_args()
    tuned = dict(t.rsplit("=", 1) for t in args.tuned)
    prior = ",heuristic_prior=true" if args.prior else ""
    rows = [
        equal_time(g, f"weights={w}{prior}", args.seconds, args.deals, args.seed)
        for g, w in tuned.items()
        if args.deals
    ]  # --deals 0: only the --curve
    rows += [
        equal_time(g, f"model={m}", args.seconds, args.deals, args.seed)
        for g, m in (t.rsplit("=", 1) for t in args.models)
    ]
    searched = dict(t.rsplit("=", 1) for t in args.searched)
    rows += [
        equal_time(g, f"tuned={path}", args.seconds, args.deals, args.seed)
        for g, path in searched.items()
        if args.deals
    ]
    lines = [
        "| game | trained side | score [95% interval] (deals) | ms/move A / B | minutes |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['game']} | `{r['trained']}` | {r['score']:.3f} [{r['lo']:.3f}, "
            f"{r['hi']:.3f}] ({r['deals']}) | {r['ms_a']:.1f} / {r['ms_b']:.1f} | "
            f"{r['minutes']:.1f} |"
        )
    # the curve by generation: heuristic tunings, and tuned searches that have none yet
    to_score = {
        **tuned,
        **{
            g: p
            for g, p in searched.items()
            if not json.loads(Path(p).read_text())["rounds"][0].get("vs_plain")
        },
    }
    curves = (
        {
            g: generation_curve(g, Path(p), args.seconds, args.curve, args.seed + 1000, prior)
            for g, p in to_score.items()
        }
        if args.curve
        else {}
    )
    for game, curve in curves.items():
        lines.append(
            f"| {game} by generation | rounds 0.. | "
            + ", ".join(f"{s:.3f} [{lo:.3f}, {hi:.3f}]" for s, lo, hi in curve)
            + f" ({args.curve}) | | |"
        )
    png = args.out.with_suffix(".png")
    plot(
        {g: Path(w) for g, w in tuned.items()},
        {g: Path(p) for g, p in searched.items()},
        png,
        curves,
    )
    args.out.with_suffix(".table.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
