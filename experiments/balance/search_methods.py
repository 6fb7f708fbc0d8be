"""Which search finds the fairest variant with fewer games: successive halving or NTBEA?

    python experiments/balance/search_methods.py experiments/balance/columns-levers.toml \
        --deals 600 --budgets 2000,4000,8000,16000,32000,64000 --repeats 40 \
        --out results/balance/search-methods

1. **The grid**: every candidate of the search config's lever space plays the same ``--deals``
   deals (each with its mirror) at the search's rung, through the tournament runner
   (``runs/NAME-grid``, resumable). Its distance from fair per candidate, on all those deals,
   is the truth the methods are judged by (with its 95% betting interval).
2. **The methods on the grid**: halving and NTBEA (:mod:`skip_ai.balance.search_methods`, the
   settings of the config) run ``--repeats`` times at each budget, answered from the grid's
   records: deal ``d`` a method asks for is grid deal ``perm[d]`` of a permutation drawn per
   repeat (a game is fixed by its variant and deal, so this is exactly what playing the deal
   would give; a candidate asked for more deals than the grid holds sees them again, which
   is counted). Per repeat: the pick (the method's best), its true distance, and the games
   the method played (distinct deals asked, each with its mirror).
3. **The answer**: per method and budget, the mean true distance of the pick and the share of
   repeats whose pick is within 2 points of the best candidate's true distance, with a 95%
   Wilson interval; ``OUT.csv``, ``OUT.md`` and ``OUT.png``.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from skip_ai.balance import levers, search, search_config, search_methods  # noqa: E402
from skip_ai.balance.ladder import selfplay_games  # noqa: E402
from skip_ai.balance.metrics import sides  # noqa: E402
from skip_ai.balance.progress import recorded  # noqa: E402
from skip_ai.stats import betting_interval, wilson  # noqa: E402
from skip_ai.tournament.runner import run_batch  # noqa: E402

NEAR = 0.02
"""A pick is counted as finding the answer when its true distance is within this of the best's."""


def grid(config: search_config.SearchConfig, deals: int, workers: int | None) -> search.Units:
    batch = dataclasses.replace(
        search_config.search_batch(config),
        name=f"{config.study.name}-grid",
        out=Path(f"runs/{config.study.name}-grid"),
        search={**config.search.identity(), "grid_deals": deals},
    )
    games = [
        g
        for c in range(len(config.candidates))
        for g in selfplay_games(batch, c, search_config.RUNG, range(deals))
    ]
    run_batch(batch, lambda: iter(games), len(games), workers)
    return search.Units(recorded(batch.out))


def truth(config: search_config.SearchConfig, units: search.Units, deals: int) -> pd.DataFrame:
    fair = sides(config.search.game).fair
    rows = []
    for c, game in enumerate(config.candidates):
        u = units.get(c, range(deals))
        value, lo, hi = betting_interval(u[:, 0])
        rows.append(
            {
                "candidate": c,
                "levers": levers.describe(game),
                "share": value,
                "lo": lo,
                "hi": hi,
                "distance": search_methods.distance(u, fair),
            }
        )
    return pd.DataFrame(rows)


def run_method(
    name: str,
    config: search_config.SearchConfig,
    units: search.Units,
    deals: int,
    budget_games: int,
    seed: int,
) -> tuple[int, int, int]:
    """One repeat: (pick, games played, deals seen again)."""
    fair = sides(config.search.game).fair
    per = search_config.per_deal(config)
    perm = np.random.default_rng(seed).permutation(deals)
    budget = budget_games // per
    if name == "halving":
        method = search_methods.halving(len(config.candidates), budget, fair)
    else:
        points = search_config.lever_points(config.candidates)
        rng = np.random.default_rng(seed)
        method = search_methods.ntbea(points, budget, fair, rng, config.search.ntbea)
    asked: set[tuple[int, int]] = set()
    again = 0
    try:
        request = next(method)
        while True:
            answer = []
            for c, ds in request:
                rows = [int(perm[d % deals]) for d in ds]
                again += sum(d >= deals for d in ds)
                asked.update((c, d) for d in ds)
                answer.append(units.get(c, range(deals))[rows])
            request = method.send(answer)
    except StopIteration as stop:
        return stop.value[0], len(asked) * per, again


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("config", type=Path)
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--budgets", default="2000,4000,8000,16000,32000,64000")
    ap.add_argument("--repeats", type=int, default=40)
    ap.add_argument("--workers", type=int)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    config = search_config.load_search_config(args.config)
    units = grid(config, args.deals, args.workers)
    table = truth(config, units, args.deals)
    best = table.distance.min()
    rows = []
    for budget in [int(b) for b in args.budgets.split(",")]:
        for name in ("halving", "ntbea"):
            for r in range(args.repeats):
                pick, games, again = run_method(name, config, units, args.deals, budget, r)
                d = table.distance[pick]
                rows.append(
                    {
                        "method": name,
                        "budget": budget,
                        "repeat": r,
                        "pick": table.levers[pick],
                        "true_distance": d,
                        "found": d <= best + NEAR,
                        "games": games,
                        "deals_again": again,
                    }
                )
    runs = pd.DataFrame(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    runs.to_csv(args.out.with_suffix(".csv"), index=False)
    table.sort_values("distance").to_csv(
        args.out.with_name(args.out.name + "-grid.csv"), index=False
    )
    summary = summarise(runs)
    write_markdown(args, config, table, summary)
    plot(summary, args.out.with_suffix(".png"))
    print(summary.to_string(index=False))


def summarise(runs: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (name, budget), g in runs.groupby(["method", "budget"]):
        lo, hi = wilson(int(g.found.sum()), len(g))
        rows.append(
            {
                "method": name,
                "budget": budget,
                "games played": round(g.games.mean()),
                "found %": 100 * g.found.mean(),
                "lo %": 100 * lo,
                "hi %": 100 * hi,
                "true distance of the pick, points": 100 * g.true_distance.mean(),
                "deals seen again": int(g.deals_again.sum()),
            }
        )
    return pd.DataFrame(rows).sort_values(["budget", "method"])


def write_markdown(args, config, table: pd.DataFrame, summary: pd.DataFrame) -> None:
    top = table.sort_values("distance").head(8)
    shown = top.assign(
        share=[
            f"{100 * v:.1f} [{100 * a:.1f}, {100 * b:.1f}]"
            for v, a, b in zip(top.share, top.lo, top.hi)
        ],
        distance=100 * top.distance,
    )[["levers", "share", "distance"]]
    rung = config.study.agents[config.search.rung].name
    text = "\n".join(
        [
            f"# Halving or NTBEA: {config.search.game}",
            "",
            f"The grid: {len(config.candidates)} variants × {args.deals} deals (each with its "
            f"mirror) of {rung} self-play, search seed {config.search.seed}. The fairest by the "
            "grid (team 0's share, 95% betting interval; distance from fair in points):",
            "",
            shown.to_markdown(index=False, floatfmt=".1f"),
            "",
            f"Each method {args.repeats} times per budget, answered from the grid (deals "
            f"permuted per repeat). Found: the pick's true distance within {100 * NEAR:.0f} "
            "points of the best's (95% Wilson interval over the repeats).",
            "",
            summary.to_markdown(index=False, floatfmt=".1f"),
            "",
        ]
    )
    args.out.with_suffix(".md").write_text(text)


def plot(summary: pd.DataFrame, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, g in summary.groupby("method"):
        ax.errorbar(
            g["games played"],
            g["found %"],
            yerr=[g["found %"] - g["lo %"], g["hi %"] - g["found %"]],
            marker="o",
            capsize=3,
            label=name,
        )
    ax.set_xscale("log")
    ax.set_xlabel("self-play games the method played")
    ax.set_ylabel(f"pick within {100 * NEAR:.0f} points of the best, % of repeats")
    ax.set_ylim(0, 100)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
