"""``skip-ai train``: expert iteration, generation by generation (resumable)."""

from __future__ import annotations

import argparse

from skip_ai.cli.output import interrupted


def add_parsers(sub: argparse._SubParsersAction) -> None:
    train = sub.add_parser(
        "train",
        help="expert iteration: self-play, fit a model, evaluate, per generation (rerun resumes)",
    )
    train.add_argument("config", help="a training config (TOML)")
    train.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from skip_ai.training import load_train_config, run_training

    config = load_train_config(args.config)
    try:
        gens = run_training(config)
    except KeyboardInterrupt:
        return interrupted("finished steps are kept in", config.out)
    for g in gens:
        print(
            f"gen {g.generation}: {g.samples} samples, policy loss {g.policy_loss:.3f}, "
            f"vs previous {g.vs_previous[0]:.3f} [{g.vs_previous[1]:.3f}, "
            f"{g.vs_previous[2]:.3f}], vs plain ISMCTS {g.vs_plain[0]:.3f} "
            f"[{g.vs_plain[1]:.3f}, {g.vs_plain[2]:.3f}]"
        )
    print(f"models in {config.out / 'models'}")
    return 0
