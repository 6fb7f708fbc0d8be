"""The learned models on held-out duplicate deals (results/learned.md).

    python experiments/strength/learned.py "skip_columns" skip_columns \
        --deals 150 --seed 19150 --iterations 100 --out runs/learned-columns.json

Plays, on ``--deals`` duplicate deals of the ``--seed`` family (named before training, never
used by it: self-play and the training curve use other seed families):
``learned(model=M)`` vs ``heuristic``, vs ``random``, and vs ``ismcts(iterations=N)``; then
``ismcts(iterations=N,model=M,temperature=T)`` (the model's prior) vs ``ismcts(iterations=N)``.
With ``--seconds S`` instead (the issue's comparison, at equal time): only
``ismcts(seconds=S,model=M,temperature=T)`` vs ``ismcts(seconds=S)``; with ``--value-after K``
``ismcts(seconds=S,model=M,temperature=T,value_after=K)`` (the value head as the leaf value)
vs ``ismcts(seconds=S)`` instead. ``--prior-depth K`` and ``--prior-c C`` add
``prior_depth=K`` (the prior at the tree's first K decisions only) and ``prior_c=C``.
With ``--vs SPEC`` (repeatable): only ``learned(model=M)`` against each SPEC (e.g. ``--vs
heuristic --vs random``, the issue's first target).
Each score with its 95% interval over deals, and the CPU seconds per move of each side, go to
``--out`` (JSON) and are printed as Markdown rows.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from agents.search_config import SearchConfig
from skip_ai.match import match
from skip_ai.pyspiel_wrapper import load

DEFAULT_PRIOR_C = SearchConfig.prior_c
"""The search's own default weight of the prior."""


def pairs(model: str, iterations: int, temperature: float) -> list[tuple[str, str]]:
    plain = f"ismcts(iterations={iterations})"
    learned = f"learned(model={model})"
    prior = f"ismcts(iterations={iterations},model={model},temperature={temperature})"
    return [
        (learned, "heuristic"),
        (learned, "random"),
        (learned, plain),
        (prior, plain),
    ]


def equal_time(
    model: str,
    seconds: float,
    temperature: float,
    value_after: int | None,
    prior_depth: int = 0,
    prior_c: float = DEFAULT_PRIOR_C,
) -> list[tuple[str, str]]:
    """The guided search against the plain one, both at ``seconds`` a move; the guided spec is
    :class:`SearchConfig`'s own (which checks every value: a bad one is a ``ValueError``)."""
    guided = SearchConfig(
        seconds=seconds,
        model=model,
        temperature=temperature,
        value_after=value_after,
        prior_depth=prior_depth,
        prior_c=prior_c,
    )
    return [(str(guided), str(SearchConfig(seconds=seconds)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("model")
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=19150)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--temperature", type=float, default=0.1)
    ap.add_argument("--seconds", type=float, help="equal time: seconds per move, both sides")
    ap.add_argument("--value-after", type=int, help="with --seconds: the value-head row instead")
    ap.add_argument(
        "--prior-depth", type=int, default=0, help="with --seconds: the prior at K decisions"
    )
    ap.add_argument(
        "--prior-c", type=float, default=DEFAULT_PRIOR_C, help="with --seconds: the prior's weight"
    )
    ap.add_argument("--vs", action="append", metavar="SPEC", help="only learned(model) vs SPEC")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    if args.seconds is not None and not (0 < args.seconds < 60):
        ap.error(f"--seconds must be in (0, 60) (got {args.seconds})")
    if args.value_after is not None and (args.seconds is None or args.value_after < 0):
        ap.error("--value-after needs --seconds and a value ≥ 0")
    if args.seconds is None and (args.prior_depth or args.prior_c != DEFAULT_PRIOR_C):
        ap.error("--prior-depth and --prior-c need --seconds")
    game = load(args.game)
    rows = []
    if args.vs:
        todo = [(f"learned(model={args.model})", spec) for spec in args.vs]
    elif args.seconds is None:
        todo = pairs(args.model, args.iterations, args.temperature)
    else:
        try:
            todo = equal_time(
                args.model,
                args.seconds,
                args.temperature,
                args.value_after,
                args.prior_depth,
                args.prior_c,
            )
        except ValueError as e:
            ap.error(str(e))
    for a, b in todo:
        t0, w0 = time.process_time(), time.perf_counter()
        r = match(game, a, b, args.deals, seed=args.seed)
        rows.append(
            {
                "game": str(game),
                "a": a,
                "b": b,
                "deals": args.deals,
                "seed": args.seed,
                "score": r.score,
                "lo": r.lo,
                "hi": r.hi,
                "ms_per_move_a": r.ms_per_move("a"),
                "ms_per_move_b": r.ms_per_move("b"),
                "ms_per_choice_a": r.ms_per_move("a", choices=True),
                "ms_per_choice_b": r.ms_per_move("b", choices=True),
                "cpu_seconds": time.process_time() - t0,
                "wall_seconds": time.perf_counter() - w0,
            }
        )
        print(
            f"| {game.spec.short_name} | {a} | {b} | {r.score:.3f} [{r.lo:.3f}, {r.hi:.3f}] "
            f"| {rows[-1]['ms_per_move_a']:.2f} |",
            flush=True,
        )
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
