"""A model soup: the mean of the parameters of models fine-tuned from one start (Wortsman et
al. 2022), written as one model file that ``learned(model=…)`` and ISMCTS read as any other.

    python experiments/training/soup.py "skip_pyatki(players=3)" \
        results/models/skip_pyatki.npz runs/sp15p1/skip_pyatki/model.npz \
        runs/sp15p2/skip_pyatki/model.npz --out runs/pyatki-soup.npz

Each model is loaded for the game (its game, feature version and sizes checked); they must
share their layers (:meth:`agents.model.PolicyValueNet.soup`).
"""

from __future__ import annotations

import argparse
import sys

from agents.model import PolicyValueNet
from skip_ai.pyspiel_wrapper import load


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("models", nargs="+")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    try:
        game = load(args.game)
        soup = PolicyValueNet.soup([PolicyValueNet.load(m, game) for m in args.models])
    except (OSError, ValueError) as e:
        print(f"soup: error: {e}", file=sys.stderr)
        return 2
    soup.save(args.out)
    print(f"{args.out}: the mean of {len(args.models)} models of {game}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
