"""``skip-ai report``: a batch's records analysed into a Markdown report with figures."""

from __future__ import annotations

import argparse

from skip_ai.cli.parsing import at_least

MAX_BOOTSTRAP = 10_000
"""The most ``--bootstrap`` samples (``skip_ai.analysis.bootstrap.MAX_SAMPLES``, stated here
too so that the command line loads without the analysis's libraries; a test holds them
equal)."""


def add_parsers(sub: argparse._SubParsersAction) -> None:
    rep = sub.add_parser(
        "report", help="analyse a batch's records: OUT/report.md and OUT/figures/*.png"
    )
    rep.add_argument("out", help="the batch folder (holding records/) or a records folder")
    rep.add_argument(
        "--bootstrap",
        type=at_least(1, MAX_BOOTSTRAP),
        default=200,
        metavar="N",
        help=f"bootstrap samples for the intervals (default 200, at most {MAX_BOOTSTRAP:_})",
    )
    rep.add_argument(
        "--to",
        metavar="DIR",
        help="write the report here instead of OUT (e.g. results/small-study)",
    )
    rep.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from skip_ai.analysis import write_report
    from skip_ai.paths import output_folder

    if args.to:  # the batch folder itself is read first: a missing one is reported as such
        output_folder(args.to, "--to")
    print(f"wrote {write_report(args.out, n_boot=args.bootstrap, dest=args.to)}")
    return 0
