"""A model grown wider and/or deeper, playing as before until trained (Net2Net, Chen et al.
2016; :meth:`agents.model.PolicyValueNet.grown`), for training on with ``start = FILE`` when
the learning of a model of its size has levelled off.

    python experiments/training/grow.py skip_pyatki_pairs results/models/skip_pyatki_pairs.npz \
        --hidden 512 256 --out runs/pairs-512-256.npz

The model is loaded for the game (its game, feature version and sizes checked).
"""

from __future__ import annotations

import argparse
import sys

from agents.model import PolicyValueNet
from skip_ai.pyspiel_wrapper import load


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("model")
    ap.add_argument("--hidden", type=int, nargs="+", required=True, help="the new widths")
    ap.add_argument("--seed", type=int, default=0, help="for the new units' weights")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    try:
        game = load(args.game)
        net = PolicyValueNet.load(args.model, game)
        big = net.grown(tuple(args.hidden), args.seed)
    except (OSError, ValueError) as e:
        print(f"grow: error: {e}", file=sys.stderr)
        return 2
    big.save(args.out)
    print(f"{args.out}: {net.dims.tolist()} grown to {big.dims.tolist()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
