"""Value at the leaves: ISMCTS backing up a learned value instead of playing rollouts out.

    python experiments/bench/value_leaf.py "skip_two_captains(players=4)" --games 30000 \
        --hidden 64 --seconds 0.02 --deals 20 --out runs/value-leaf

For each game: ``--games`` heuristic self-play games (``skip_ai.training.heuristic_data``)
give (observation, final return) samples; a value model is fitted on 90% of them and its R² on
the other 10% is printed; then ``ismcts(seconds=S, model=M, value_after=0, prior_c=0)`` meets
``ismcts(seconds=S)`` (heuristic rollouts) on duplicate deals. The model is saved as
``OUT/<game>.npz``, the table row as ``OUT/<game>.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from agents.model import PolicyValueNet, fit
from skip_ai.match import match
from skip_ai.pyspiel_wrapper import load
from skip_ai.training.heuristic_data import heuristic_samples


def value_leaf(
    game_str: str,
    games: int,
    hidden: tuple[int, ...],
    epochs: int,
    seconds: float,
    deals: int,
    seed: int,
    out: Path,
) -> dict:
    game = load(game_str)
    t0 = time.time()
    obs, value = heuristic_samples(game, games, seed=seed)
    cut = int(0.9 * len(obs))
    net = PolicyValueNet.initial(
        str(game), game.obs_size, game.num_distinct_actions(), hidden, seed=seed
    )
    fit(net, obs[:cut], None, None, value[:cut], epochs=epochs, lr=0.003, batch=512, seed=seed)
    _, v, _ = net.forward(obs[cut:].astype(np.float64), policy=False)
    r2 = 1 - ((v - value[cut:]) ** 2).mean() / value[cut:].var()
    out.mkdir(parents=True, exist_ok=True)
    name = game.spec.short_name
    net.generation = 1
    net.save(out / f"{name}.npz")
    print(f"{game}: {len(obs)} samples, held-out value R² {r2:.3f}", flush=True)
    spec = f"ismcts(seconds={seconds},model={out / f'{name}.npz'},value_after=0,prior_c=0)"
    r = match(game, spec, f"ismcts(seconds={seconds})", deals, seed=seed, progress=True)
    moves = r.games[["moves_a", "moves_b"]].sum().values
    ms = 1e3 * r.games[["seconds_a", "seconds_b"]].sum().values / moves
    row = {
        "game": str(game),
        "samples": len(obs),
        "hidden": list(hidden),
        "r2": r2,
        "score": r.score,
        "lo": r.lo,
        "hi": r.hi,
        "deals": deals,
        "ms_value": ms[0],
        "ms_rollout": ms[1],
        "minutes": (time.time() - t0) / 60,
    }
    (out / f"{name}.json").write_text(json.dumps(row, indent=1))
    print(
        f"value leaves vs heuristic rollouts: {r.score:.3f} [{r.lo:.3f}, {r.hi:.3f}] "
        f"over {deals} deals; ms/move {ms[0]:.1f} / {ms[1]:.1f}"
    )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="+", help="game strings")
    ap.add_argument("--games", dest="n_games", type=int, default=30000)
    ap.add_argument("--hidden", default="", help="hidden widths, e.g. 64 or 64,32")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=0.02)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=90)
    ap.add_argument("--out", type=Path, default=Path("runs/value-leaf"))
    args = ap.parse_args()
    hidden = tuple(int(h) for h in args.hidden.split(",") if h)
    for g in args.games:
        value_leaf(
            g, args.n_games, hidden, args.epochs, args.seconds, args.deals, args.seed, args.out
        )


if __name__ == "__main__":
    main()
