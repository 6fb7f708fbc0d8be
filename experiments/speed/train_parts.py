"""Wall time of a training run by who plays its chunks: the learner alone, one actor process
(the default), ``parts`` parts on as many processes, and the same parts as Ray tasks.

    python experiments/speed/train_parts.py skip_pyatki --decisions 2000000 --parts 2

Each setup is a policy-gradient run (``method = "reinforce"``, lr 2e-5, chunk 100 000) from the
game's committed model, in its own temporary folder, to ``--decisions`` samples; the curve is
two random deals at the start and the end, the same in every setup. Printed per setup: wall
seconds, decisions and games per wall second, training CPU seconds, and whether its model is
bit for bit the model of the learner-alone run with the same parts (it must be). On a
machine with fewer cores than ``parts`` + 1 the parts only take turns.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from skip_ai.training import run_training
from skip_ai.training.config import load_train_config

CONFIG = """name = "bench"
game = "{game}"
method = "reinforce"
start = "{start}"
lr = 0.00002
decisions = {decisions}
chunk = 100_000
eval_every = {decisions}
eval_deals = 2
references = ["random"]
actors = {actors}
parts = {parts}
out = "{out}"
"""


def run(game: str, decisions: int, parts: int, actors: int, backend: str, root: Path) -> dict:
    out = root / f"p{parts}-a{actors}-{backend}"
    path = out.with_suffix(".toml")
    start = Path("skip_ai/models") / f"{game.split('(')[0]}.npz"
    text = CONFIG.format(
        game=game, start=start, decisions=decisions, actors=actors, parts=parts, out=out
    )
    path.write_text(text)
    config = load_train_config(path)
    t0 = time.perf_counter()
    run_training(config, progress=False, backend=backend)
    wall = time.perf_counter() - t0
    with np.load(out / "checkpoint.npz") as z:
        games = int(z["next_games"].sum())
        done = int(z["counters"][3])
        params = z["params"].copy()
    cpu = max(json.loads((out / "cpu.json").read_text()).values())
    return {"wall": wall, "decisions": done, "games": games, "cpu": cpu, "params": params}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--decisions", type=int, default=2_000_000)
    ap.add_argument("--parts", type=int, default=2)
    ap.add_argument("--ray", action="store_true", help="also the parts as Ray tasks (local Ray)")
    args = ap.parse_args()
    setups = [(1, 0, "local"), (1, 1, "local"), (args.parts, 0, "local")]
    setups.append((args.parts, args.parts, "local"))
    if args.ray:
        setups.append((args.parts, args.parts, "ray"))
    print("| parts | actors | backend | wall s | decisions / s | games / s | CPU s | model |")
    print("|---|---|---|---|---|---|---|---|")
    alone: dict[int, np.ndarray] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for parts, actors, backend in setups:
            r = run(args.game, args.decisions, parts, actors, backend, Path(tmp))
            alone.setdefault(parts, r["params"])
            same = (
                "the learner-alone run's"
                if np.array_equal(alone[parts], r["params"])
                else "DIFFERS"
            )
            print(
                f"| {parts} | {actors} | {backend} | {r['wall']:.0f} | "
                f"{r['decisions'] / r['wall']:,.0f} | {r['games'] / r['wall']:,.0f} | "
                f"{r['cpu']:.0f} | {same} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
