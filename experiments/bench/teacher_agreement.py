"""How predictable is a teacher: the share of positions where two runs of the same search with
different seeds pick the same move, and where the search and the heuristic (and, with
``--model``, a learned model) agree (results/learned.md, "the search as teacher").

    python experiments/bench/teacher_agreement.py skip_brook "ismcts(iterations=1000)" \
        --positions 300 --seed 100 [--model runs/distil/skip_brook/model.npz]

Positions: the decisions with a choice of heuristic self-play, deals ``seed, seed+1, …``,
until ``--positions`` are collected. A network fitted to the search's moves cannot agree with
it more often than the search agrees with itself.
"""

from __future__ import annotations

import argparse

import numpy as np

from agents import make_agent
from skip_ai.kernel.rng import make_rng
from skip_ai.play import Decision, play
from skip_ai.pyspiel_wrapper import load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("teacher")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--model", help="a model file: also its agreement with the teacher")
    args = ap.parse_args()
    if not 1 <= args.positions <= 100_000:
        ap.error(f"--positions must be in 1..100000 (got {args.positions})")
    game = load(args.game)
    states = []

    def keep(d: Decision) -> None:
        if len(d.state.legal_actions()) > 1 and len(states) < args.positions:
            states.append(d.state.clone())

    deal = args.seed
    while len(states) < args.positions:
        bots = [make_agent("heuristic", game, seed=deal)] * game.num_players()
        play(game.new_initial_state(), bots, make_rng(deal), on_decision=keep)
        deal += 1
    first, second = (make_agent(args.teacher, game, seed=s) for s in (1, 2))
    others = {"heuristic": make_agent("heuristic", game, seed=3)}
    if args.model:
        others["model"] = make_agent(f"learned(model={args.model})", game)
    same = {"itself": [], **{k: [] for k in others}}
    for s in states:
        move = first.step(s)
        same["itself"].append(move == second.step(s))
        for k, bot in others.items():
            same[k].append(move == bot.step(s))
    print(f"{game}, {args.teacher}, {len(states)} positions (deals {args.seed}..{deal - 1}):")
    for k, v in same.items():
        print(f"  agrees with {k}: {np.mean(v):.3f}")


if __name__ == "__main__":
    main()
