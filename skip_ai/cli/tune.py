"""``skip-ai tune`` (a heuristic's weights, an ISMCTS search, or its rollouts by simulation
balancing) and ``skip-ai positions`` (the expert positions simulation balancing reads)."""

from __future__ import annotations

import argparse

import numpy as np

from skip_ai.cli.parsing import given, natural, positive


def add_parsers(sub: argparse._SubParsersAction) -> None:
    _add_tune(sub)
    _add_positions(sub)


def _add_tune(sub: argparse._SubParsersAction) -> None:
    tune = sub.add_parser(
        "tune",
        help="tune a heuristic's weights (or, with --search, an "
        "ISMCTS search) by the cross-entropy method over duplicate deals",
    )
    tune.add_argument("game")
    tune.add_argument("--out", required=True, help="weights or tuned-search file to write (JSON)")
    tune.add_argument(
        "--search",
        metavar="BUDGET",
        help="tune ISMCTS at this budget instead "
        "(e.g. seconds=0.02): uct_c, rollout_eps, the heuristic prior's prior_c and "
        "the heuristic's weights",
    )
    tune.add_argument(
        "--balance",
        metavar="POSITIONS",
        help="tune ISMCTS's rollouts instead "
        "(rollout_eps and the heuristic's weights) by simulation balancing: their "
        "mean outcome should match the expert's in these positions (skip-ai "
        "positions)",
    )
    tune.add_argument(
        "--rollouts",
        type=positive,
        default=16,
        help="with --balance: playouts per position (default 16)",
    )
    tune.add_argument("--rounds", type=positive, help="default 5 (heuristic, balance) / 4 (search)")
    tune.add_argument("--population", type=positive, help="default 16 / 8")
    tune.add_argument("--elite", type=positive, help="default 4 / 2")
    tune.add_argument("--deals", type=positive, help="deals per candidate: default 500 / 10")
    tune.add_argument(
        "--tune",
        metavar="P,Q",
        help="with --search: the parameters to tune, "
        "among uct_c, rollout_eps, prior_c, weights (default all four)",
    )
    tune.add_argument(
        "--eval-deals",
        type=natural,
        default=0,
        help="with --search: also score "
        "each generation against the untuned search on this many fresh deals",
    )
    tune.add_argument("--seed", type=int, default=0)
    tune.set_defaults(run=run_tune)


def _add_positions(sub: argparse._SubParsersAction) -> None:
    posp = sub.add_parser(
        "positions",
        help="expert positions for simulation balancing: "
        "self-play games, a few decisions kept per game with the final return",
    )
    posp.add_argument("game")
    posp.add_argument(
        "--expert",
        default="ismcts(iterations=1000)",
        help="the self-playing agent (default ismcts(iterations=1000))",
    )
    posp.add_argument("--games", type=positive, default=250)
    posp.add_argument("--per-game", type=positive, default=8, help="decisions kept per game")
    posp.add_argument("--seed", type=int, default=0)
    posp.add_argument("--out", required=True, help="positions file to write (.npz)")
    posp.set_defaults(run=run_positions)


def run_positions(args: argparse.Namespace) -> int:
    from skip_ai.paths import output_file
    from skip_ai.tuning import rollout_balancing

    output_file(args.out, "--out")
    pos = rollout_balancing.expert_positions(
        args.game, args.expert, args.games, args.per_game, seed=args.seed
    )
    rollout_balancing.save_positions(pos, args.out)
    print(
        f"{pos.game}: {len(pos.targets)} positions from {args.games} games of {pos.expert} "
        f"saved to {args.out} (use skip-ai tune GAME --balance {args.out})"
    )
    return 0


def run_tune(args: argparse.Namespace) -> int:
    from skip_ai.paths import output_file

    if args.search and args.balance:
        raise ValueError("--search and --balance are two tunings: give one")
    output_file(args.out, "--out")
    # the defaults differ by tuning: heuristic / search / balance
    cem = dict(
        rounds=given(args.rounds, 4 if args.search else 5),
        population=given(args.population, 8 if args.search else 16),
        elite=given(args.elite, 2 if args.search else 4),
    )
    deals = given(args.deals, 10 if args.search else 500)
    if args.balance:
        return _tune_rollouts(args, cem)
    if args.search:
        return _tune_search(args, cem, deals)
    return _tune_heuristic(args, cem, deals)


def _tune_rollouts(args: argparse.Namespace, cem: dict) -> int:
    from skip_ai.pyspiel_wrapper import load
    from skip_ai.tuning import rollout_balancing

    game = load(args.game)
    positions = rollout_balancing.load_positions(args.balance, game)
    r = rollout_balancing.balance(game, positions, rollouts=args.rollouts, seed=args.seed, **cem)
    rollout_balancing.save_balanced(r, args.out)
    s = r.config
    print(
        f"{r.game}: rollout_eps {s.rollout_eps:.3f}, weights "
        f"{dict(zip(r.names, np.round(s.weights, 3).tolist()))}\n"
        f"held-out squared bias of the rollouts: {r.default_error:.4f} (default) -> "
        f"{r.error:.4f}; saved to {args.out} (use ismcts(seconds=S,tuned={args.out}))"
    )
    return 0


def _tune_search(args: argparse.Namespace, cem: dict, deals: int) -> int:
    from skip_ai.tuning import players

    r = players.tune_search(
        args.game,
        budget=args.search,
        deals=deals,
        seed=args.seed,
        eval_deals=args.eval_deals,
        tune=tuple(args.tune.split(",")) if args.tune else players.SEARCH_PARAMS,
        **cem,
    )
    players.save_search(r, args.out)
    s = r.config
    print(
        f"{r.game}: uct_c {s.uct_c:.3f}, rollout_eps {s.rollout_eps:.3f}, prior_c "
        f"{s.effective_prior_c:.3f}, weights "
        f"{dict(zip(r.names, np.round(s.weights, 3).tolist()))}\n"
        f"vs the untuned search ({r.budget}) on fresh deals: {r.score[0]:.3f} "
        f"[{r.score[1]:.3f}, {r.score[2]:.3f}]; saved to {args.out} (use "
        f"ismcts({r.budget},tuned={args.out}))"
    )
    return 0


def _tune_heuristic(args: argparse.Namespace, cem: dict, deals: int) -> int:
    from skip_ai.tuning import players

    r = players.tune_heuristic(args.game, deals=deals, seed=args.seed, **cem)
    players.save_weights(r, args.out)
    print(
        f"{r.game}: tuned {dict(zip(r.names, r.best.round(3).tolist()))}\n"
        f"vs the defaults on fresh deals: {r.score[0]:.3f} [{r.score[1]:.3f}, "
        f"{r.score[2]:.3f}]; saved to {args.out} (use heuristic(weights={args.out}))"
    )
    return 0
