"""``skip-ai train``: a training run of a learned model, deep Monte-Carlo or policy gradient
(resumable)."""

from __future__ import annotations

import argparse

from skip_ai.cli.output import interrupted


def add_parsers(sub: argparse._SubParsersAction) -> None:
    train = sub.add_parser(
        "train",
        help="train a learned model (deep Monte-Carlo or policy gradient: the config's method), "
        "evaluating it as it goes (rerun resumes)",
    )
    train.add_argument("config", help="a training config (TOML): one game, or several in turn")
    train.add_argument(
        "--backend",
        default="local",
        choices=["local", "ray"],
        help="who plays the chunks' parts: local: the config's actors processes here; ray: Ray "
        "tasks (pip install 'skip-ai[ray]'); the models are the same either way",
    )
    train.add_argument(
        "--address",
        help="the Ray cluster to run on, e.g. auto or HEAD:6379 "
        "(default: start a local Ray with the config's actors CPUs)",
    )
    train.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from skip_ai.training import load_train_configs, run_training

    configs = load_train_configs(args.config)
    for config in configs:  # in turn; a rerun resumes each (finished ones at once)
        if len(configs) > 1:
            print(f"{config.game} → {config.out}", flush=True)
        try:
            curve = run_training(config, backend=args.backend, address=args.address)
        except KeyboardInterrupt:
            return interrupted("the last checkpoint is kept in", config.out)
        last = max(r["decisions"] for r in curve)
        for r in curve:
            if r["decisions"] == last:
                print(
                    f"after {last} decisions: vs {r['reference']} {r['score']:.3f} "
                    f"[{r['lo']:.3f}, {r['hi']:.3f}]"
                )
        print(f"model: {config.out / 'model.npz'}; curve: {config.out / 'curve.png'}", flush=True)
    return 0
