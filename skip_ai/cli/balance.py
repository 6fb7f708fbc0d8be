"""``skip-ai balance``: a balance study of a game's variants (resumable), its report."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from skip_ai.cli.output import interrupted
from skip_ai.paths import output_folder


def add_parsers(sub: argparse._SubParsersAction) -> None:
    bal = sub.add_parser(
        "balance",
        help="a balance study: self-play skill ladders per "
        "variant, the skill trace, variants compared; OUT/report.md (run "
        "again to resume)",
    )
    bal.add_argument(
        "config",
        nargs="?",
        help="the study's TOML config (default: the "
        "embedded quick study of Columns for four, to ±3 points: under a minute on two cores)",
    )
    bal.add_argument("--workers", type=int, help="processes (default: the config's workers)")
    bal.add_argument(
        "--report-to",
        metavar="DIR",
        help="play nothing: write the report of the games recorded so far (a running or "
        "stopped study's too, labelled partial) into DIR; the study's folder must be this "
        "config's (its batch.json)",
    )
    bal.add_argument(
        "--backend",
        default="local",
        choices=["local", "ray"],
        help="local: a process pool here; ray: Ray tasks",
    )
    bal.add_argument("--address", help="the Ray cluster to run on (as for tournament)")
    bal.add_argument("--out", help="output folder (default: the config's out)")
    bal.add_argument(
        "--search",
        metavar="GAME",
        help="search GAME's levers for its fairest variant with the config's ladder and "
        "[search] defaults (a config with [search] searches without it): OUT/search.md, "
        "the winner re-measured on fresh deals in OUT/report.md",
    )
    bal.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from skip_ai.balance import search_config, study

    if args.search or (args.config and search_config.is_search_file(args.config)):
        return run_search(args)
    config = study.load(args.config)
    if args.out is not None:
        config = dataclasses.replace(config, out=output_folder(args.out, "--out"))
    if args.report_to:
        report, text = study.report_to(config, Path(args.report_to))
        print(text)
        print(f"report (no game played): {report}")
        return 0
    try:
        s, report = study.run_study(
            config, workers=args.workers, backend=args.backend, address=args.address
        )
    except KeyboardInterrupt:
        return interrupted("the finished games are kept in", config.out)
    print(
        f"{config.name}: {s.before + s.played} of {s.total} games recorded in {s.records} "
        f"({s.played} played now in {s.seconds:.0f} s)\n"
    )
    print(study.findings_text(config))
    print(f"report: {report}")
    return 0


def run_search(args: argparse.Namespace) -> int:
    """A lever search (:mod:`skip_ai.balance.search`): the search, its finalists, the winner
    re-measured on fresh deals."""
    from skip_ai.balance import search, search_config, study

    if args.report_to:
        raise ValueError("--report-to reports a study, not a search: run the search again")
    config = search_config.load_search_config(args.config or study.quick_config_path(), args.search)
    if args.out is not None:
        out = output_folder(args.out, "--out")
        config = dataclasses.replace(config, study=dataclasses.replace(config.study, out=out))
    try:
        summary, report, remeasure = search.run(
            config, workers=args.workers, backend=args.backend, address=args.address
        )
    except KeyboardInterrupt:
        return interrupted("the finished games are kept in", config.study.out)
    print(summary.read_text())
    print(study.findings_text(remeasure))
    print(f"search: {summary}\nre-measure on fresh deals: {report}")
    return 0
