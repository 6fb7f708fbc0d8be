"""``skip-ai train``: deep Monte-Carlo training of a Q model (resumable)."""

from __future__ import annotations

import argparse

from skip_ai.cli.output import interrupted


def add_parsers(sub: argparse._SubParsersAction) -> None:
    train = sub.add_parser(
        "train",
        help="deep Monte-Carlo: self-play in Numba, fit a Q model, evaluate (rerun resumes)",
    )
    train.add_argument("config", help="a training config (TOML)")
    train.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from skip_ai.training import load_train_config, run_training

    config = load_train_config(args.config)
    try:
        curve = run_training(config)
    except KeyboardInterrupt:
        return interrupted("the last checkpoint is kept in", config.out)
    last = max(r["decisions"] for r in curve)
    for r in curve:
        if r["decisions"] == last:
            print(
                f"after {last} decisions: vs {r['reference']} {r['score']:.3f} "
                f"[{r['lo']:.3f}, {r['hi']:.3f}]"
            )
    print(f"model: {config.out / 'model.npz'}; curve: {config.out / 'curve.png'}")
    return 0
