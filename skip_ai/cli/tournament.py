"""``skip-ai tournament``: a round robin on duplicate deals, recorded (and resumable)."""

from __future__ import annotations

import argparse

from skip_ai.cli.output import interrupted
from skip_ai.cli.parsing import positive


def add_parsers(sub: argparse._SubParsersAction) -> None:
    tour = sub.add_parser(
        "tournament",
        help="a round robin of agents on duplicate deals, "
        "recorded as Parquet shards (run again to resume)",
    )
    tour.add_argument("config", help="the batch's TOML config")
    tour.add_argument("--workers", type=positive, help="processes (default: the config's workers)")
    tour.add_argument(
        "--backend",
        default="local",
        choices=["local", "ray"],
        help="local: a process pool here; ray: Ray tasks (pip install 'skip-ai[ray]')",
    )
    tour.add_argument(
        "--address",
        help="the Ray cluster to run on, e.g. auto or HEAD:6379 "
        "(default: start a local Ray with --workers CPUs)",
    )
    tour.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from skip_ai.tournament import load_config, run_tournament

    config = load_config(args.config)
    try:
        s = run_tournament(config, workers=args.workers, backend=args.backend, address=args.address)
    except KeyboardInterrupt:
        return interrupted("the finished games are kept in", config.out)
    print(
        f"{config.name}: {s.before + s.played} of {s.total} games recorded in {s.records} "
        f"({s.played} played now in {s.seconds:.0f} s)"
    )
    if s.failed:
        print(
            f"  {s.failed} games failed: their records have status 'failed' and the reason "
            "in 'error'"
        )
    return 0
