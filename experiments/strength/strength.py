"""The strength ladder, per game, on duplicate deals (issue 6's targets), as a Markdown table.

Three rungs per game, each A against B, A's mean score with a 95% interval over the deals:

1. ``heuristic`` vs ``random`` (played inside Numba, :func:`skip_ai.duplicate.kernel_match`);
2. our ISMCTS (``--ismcts``, an iteration budget by default, so that the rung does not depend
   on the machine's load) vs ``heuristic``;
3. our ISMCTS vs OpenSpiel's Python ISMCTS, both at ``--seconds`` per move (equal wall time).

Usage: ``python experiments/strength/strength.py [--games G ...] [--ismcts SPEC] [--seconds S]
[--deals N N N] [--out results/strength.md]``; a rung with 0 deals is skipped. The defaults
take about 40 minutes on this 2-core machine.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

DEFAULT_GAMES = [
    "skip_columns(players=4)",
    "skip_domino(players=4)",
    "skip_domino(players=2)",
    "skip_fours",
    "skip_brook(players=4)",
    "skip_guess(players=4)",
    "skip_two_captains(players=4)",
    "skip_little_country(players=4)",
    "skip_harvest(players=4)",
    "skip_chains(players=4)",
    "skip_pyatki(players=2)",
    "skip_pyatki_pairs",
]


def cell(result: tuple[float, float, float], deals: int) -> str:
    mean, lo, hi = result
    return f"{mean:.3f} [{lo:.3f}, {hi:.3f}] ({deals})"


def ladder(
    game: str, seconds: float, deals: tuple[int, int, int], ismcts: str, seed: int
) -> dict[str, str]:
    from skip_ai.duplicate import kernel_match, match_summary
    from skip_ai.match import match

    row = {
        "game": game,
        "heuristic vs random": "—",
        "ISMCTS vs heuristic": "—",
        "ISMCTS vs OpenSpiel ISMCTS": "—",
    }
    if deals[0]:
        row["heuristic vs random"] = cell(
            match_summary(kernel_match(game, "heuristic", "random", deals[0], seed=seed)), deals[0]
        )
    if deals[1]:
        r = match(game, ismcts, "heuristic", deals[1], seed=seed)
        ms = r.games.seconds_a.sum() / max(r.games.moves_a.sum(), 1) * 1e3
        row["ISMCTS vs heuristic"] = cell((r.score, r.lo, r.hi), deals[1]) + f", {ms:.0f} ms/move"
    if deals[2]:
        r = match(
            game,
            f"ismcts(seconds={seconds})",
            f"openspiel_ismcts(seconds={seconds})",
            deals[2],
            seed=seed,
        )
        row["ISMCTS vs OpenSpiel ISMCTS"] = cell((r.score, r.lo, r.hi), deals[2])
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=DEFAULT_GAMES)
    parser.add_argument(
        "--ismcts", default="ismcts(iterations=5000)", help="our ISMCTS against the heuristic"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=0.05,
        help="thinking time per move of both searches in the OpenSpiel rung",
    )
    parser.add_argument(
        "--deals", type=int, nargs=3, default=(2000, 16, 8), metavar=("HEUR", "ISMCTS", "OPENSPIEL")
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="also write the table here")
    args = parser.parse_args(argv)
    import skip_ai  # noqa: F401

    cols = ["game", "heuristic vs random", "ISMCTS vs heuristic", "ISMCTS vs OpenSpiel ISMCTS"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    print("\n".join(lines), flush=True)
    start = time.perf_counter()
    for game in args.games:
        row = ladder(game, args.seconds, tuple(args.deals), args.ismcts, args.seed)
        lines.append("| " + " | ".join(row[c] for c in cols) + " |")
        print(lines[-1], flush=True)
    minutes = (time.perf_counter() - start) / 60
    footer = (
        f"\nA's mean score, 95% interval, (deals); 1 = A always wins. Every deal is played "
        f"in every seating. ISMCTS vs heuristic: `{args.ismcts}` (its mean thinking time "
        f"per move shown). ISMCTS vs OpenSpiel ISMCTS: {args.seconds} s per move for both. "
        f"Run time {minutes:.0f} min."
    )
    print(footer)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n" + footer + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
