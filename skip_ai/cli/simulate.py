"""``skip-ai simulate``: a batch played inside the kernel, summarised (and saved)."""

from __future__ import annotations

import argparse
from pathlib import Path

from skip_ai.cli.output import score_names
from skip_ai.cli.parsing import positive


def add_parsers(sub: argparse._SubParsersAction) -> None:
    simp = sub.add_parser("simulate", help="play a batch inside the kernel and summarise it")
    simp.add_argument("game")
    simp.add_argument("-n", type=positive, default=10000, help="number of games")
    simp.add_argument("--seed", type=int, default=0)
    simp.add_argument("--policy", default="random")
    simp.add_argument("--out", help="write one row per game to this Parquet file")
    simp.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from skip_ai.paths import output_file
    from skip_ai.pyspiel_wrapper import load
    from skip_ai.sim import outcome_keys, simulate, summary

    if args.out:
        output_file(args.out, "--out")
    df = simulate(args.game, args.n, seed=args.seed, policy=args.policy, progress=True)
    s = summary(df)
    game = load(args.game)
    print(
        f"{df.game.iloc[0] if len(df) else args.game}: {s['games']} games, "
        f"policy {args.policy}, seed {args.seed}"
    )
    names = score_names(game) + ["draw" if game.spec.team_game else "no winner"]
    width = max(8, *map(len, names))
    for (key, _), name in zip(outcome_keys(game), names):
        rate, lo, hi = s[key]
        print(f"  {name:>{width}s} {rate:7.2%}  [95% CI {lo:.2%} – {hi:.2%}]")
    m, lo, hi = s["moves"]
    print(
        f"  mean length {m:.1f} moves  [95% CI {lo:.1f} – {hi:.1f}]"
        f"  ({s['length'][0]:.1f} actions with the chance nodes)"
    )
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        df.to_parquet(out, index=False)
        print(f"  wrote {len(df)} rows to {out}")
    return 0
