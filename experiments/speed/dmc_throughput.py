"""Deep Monte-Carlo throughput per game (sizes ``experiments/training/overnight.toml``).

    python experiments/speed/dmc_throughput.py skip_chains skip_brook --samples 20000

For each game: the Q model's size at ``--hidden`` (parameters, MB as float64), self-play
samples per CPU second (ε = 0.1, one core) and learner samples per CPU second (batch 512, one
core; Adam updates every parameter each step, so a large action head slows it). The numba
compile is done first and not counted.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agents.model import PolicyValueNet
from skip_ai.pyspiel_wrapper import load
from skip_ai.training.chunks import play_chunk
from skip_ai.training.optimiser import Adam, fit_q


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="+")
    ap.add_argument("--samples", type=int, default=20_000)
    ap.add_argument("--hidden", type=int, nargs="+", default=[256, 128])
    args = ap.parse_args()
    print("| game | actions | parameters | model MB | self-play dec/CPU s | learner dec/CPU s |")
    print("|---|---|---|---|---|---|")
    for name in args.games:
        g = load(name)
        net = PolicyValueNet.initial(
            str(g),
            g.obs_size,
            g.num_distinct_actions(),
            tuple(args.hidden),
            seed=0,
            kind="q",
            features=g.spec.observation_version,
        )
        play_chunk(str(g), 0, 0, 1, net.dims, net.params, 0.1)  # compile
        c = play_chunk(str(g), 0, 1, args.samples, net.dims, net.params, 0.1)
        t0 = time.process_time()
        fit_q(
            net,
            c.obs,
            c.actions,
            c.target,
            Adam(net.trainable_size),
            3e-4,
            512,
            np.random.default_rng(0),
        )
        fit = time.process_time() - t0
        n = len(c.actions)
        print(
            f"| {name} | {g.num_distinct_actions()} | {len(net.params):,} | "
            f"{8 * len(net.params) / 1e6:.1f} | {n / c.cpu:,.0f} | {n / fit:,.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
