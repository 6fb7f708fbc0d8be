"""``skip-ai match``: two agents on duplicate deals."""

from __future__ import annotations

import argparse

from skip_ai.cli.parsing import positive


def add_parsers(sub: argparse._SubParsersAction) -> None:
    mat = sub.add_parser("match", help="duplicate deals between two agents: A's score")
    mat.add_argument("game")
    mat.add_argument("spec_a", help='agent A, e.g. "ismcts(iterations=1000)"')
    mat.add_argument("spec_b", help="agent B")
    mat.add_argument(
        "-n", type=positive, default=100, help="number of deals (each played in every seating)"
    )
    mat.add_argument("--seed", type=int, default=0)
    mat.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from skip_ai.match import match

    print(match(args.game, args.spec_a, args.spec_b, args.n, seed=args.seed, progress=True))
    return 0
