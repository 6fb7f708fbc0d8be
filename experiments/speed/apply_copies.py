"""What a game's ``apply_action`` compiled into every kernel family costs, and what one
compiled form would cost instead (the numbers in ``skip_ai/kernel/engine.py``'s docstring).

For each game, in a fresh process with an empty Numba cache:

- CPU seconds to compile ``apply_action`` alone, then each of three further callers that do
  nothing but call it, and a trivial function (a caller's own overhead): a caller minus the
  trivial function is what one more copy of ``apply_action`` costs;
- CPU seconds of random playouts with ``apply_action`` called directly (linked into the loop,
  as every family does) and through one function pointer (a ``cfunc``: one compiled form).

Usage: ``python experiments/speed/apply_copies.py [--games G ...] [--playouts N]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["skip_domino", "skip_chains", "classic_sixty_six_4p", "skip_columns(players=4)"]


def measure(game_string: str, playouts: int) -> str:
    """One game's line (run in a process of its own, cache empty)."""
    from numba import carray, cfunc, njit, types

    from skip_ai.kernel.engine import engine
    from skip_ai.kernel.rng import make_rng
    from skip_ai.kernel.state import CHANCE, H_CUR, TERMINAL, copy_into
    from skip_ai.pyspiel_wrapper import load

    game = load(game_string)
    K = game.spec.kernel
    cpu = time.process_time
    signature = "(int64[::1], int64)"

    def timed(f) -> float:
        t = cpu()
        f()
        return cpu() - t

    alone = timed(lambda: K.apply_action.compile(signature))

    def compile_caller() -> None:
        @njit
        def call(s, a):
            return K.apply_action(s, a)

        call.compile(signature)

    callers = [timed(compile_caller) for _ in range(3)]

    @njit
    def trivial(s, a):
        return s[0] + a

    base = timed(lambda: trivial.compile(signature))

    @cfunc(types.int64(types.CPointer(types.int64), types.int64))
    def apply_c(ptr, a):
        return K.apply_action(carray(ptr, 1 << 12), a)  # the kernel indexes within the state

    @njit
    def playouts_pointer(apply, root, rng, count):
        s = root.copy()
        total = 0
        for _ in range(count):
            copy_into(s, root)
            while s[H_CUR] != TERMINAL:
                a = K.sample_chance(s, rng) if s[H_CUR] == CHANCE else K.random_legal(s, rng)
                apply(s.ctypes, a)
                total += 1
        return total

    direct = engine(K).playouts
    root = game.initial
    direct(root, make_rng(1), 2, -1)
    playouts_pointer(apply_c, root, make_rng(1), 2)
    best = {"direct": float("inf"), "pointer": float("inf")}
    for _ in range(3):
        best["direct"] = min(best["direct"], timed(lambda: direct(root, make_rng(7), playouts, -1)))
        best["pointer"] = min(
            best["pointer"], timed(lambda: playouts_pointer(apply_c, root, make_rng(7), playouts))
        )
    return (
        f"{game_string}: apply_action alone {alone:.2f} s; a further caller "
        f"{', '.join(f'{c:.2f}' for c in callers)} s (a trivial function {base:.2f} s); "
        f"{playouts} playouts direct {best['direct']:.3f} s, through a pointer "
        f"{best['pointer']:.3f} s ({best['pointer'] / best['direct']:.2f}x)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="+", default=GAMES)
    ap.add_argument("--playouts", type=int, default=20000)
    ap.add_argument("--one", help=argparse.SUPPRESS)  # the child's game
    args = ap.parse_args()
    if args.one:
        print(measure(args.one, args.playouts), flush=True)
        return
    for game in args.games:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, SKIP_AI_CACHE=cache, PYTHONPATH=str(ROOT))
            cmd = [sys.executable, __file__, "--one", game, "--playouts", str(args.playouts)]
            subprocess.run(cmd, env=env, check=True)


if __name__ == "__main__":
    main()
