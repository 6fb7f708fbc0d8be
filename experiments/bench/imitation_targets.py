"""Which imitation targets and how many passes: fit fresh models to a run's teacher samples
(``OUT/teacher.npz``, written by ``skip-ai train`` with ``teacher = SPEC``) and score each
``learned`` model against a reference on the training curve's deal family (results/learned.md).

    python experiments/bench/imitation_targets.py runs/distil-brook/run.json \
        --target visits:4 --target visits:20 --target move:20 --target sharp4:20 \
        --deals 40 --seed 1000 --out runs/imitation-brook.json

A target is ``KIND:PASSES``: ``visits`` (the search's root visit shares), ``move`` (all weight
on the most visited move, the one the search plays) or ``sharpN`` (shares to the power N,
renormalised). ``--more N`` first adds N samples of the run's teacher from games far past the
run's (game ``2^48 + 10^6`` on, two processes), kept in ``--out``'s folder as
``<stem>-teacher.npz``: does a larger sample close the gap to the teacher? Each model is
fitted as ``skip-ai train`` fits it (the softmax over the legal moves), from the same initial
weights with the run's ``hidden`` (or ``--hidden``), head (``--parts``: the factored head of
``GameSpec.action_parts``), ``imitation_lr`` and ``batch``; its score is
printed with its 95% interval and written to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from agents.model import PolicyValueNet, factored_head
from skip_ai.match import match
from skip_ai.pyspiel_wrapper import load
from skip_ai.training.optimiser import Adam, fit_imitation
from skip_ai.training.run import IMITATION_FIRST
from skip_ai.training.teacher_data import TeacherSamples, teacher_samples


def reshaped(t: TeacherSamples, kind: str) -> TeacherSamples:
    """The samples with their policies made into the target ``kind``."""
    probs = t.probs.copy()
    for lo, hi in zip(t.offsets[:-1], t.offsets[1:]):
        p = t.probs[lo:hi]
        if kind == "move":
            q = np.zeros_like(p)
            q[np.argmax(p)] = 1.0
        elif kind.startswith("sharp"):
            q = p ** float(kind[5:])
            q /= q.sum()
        elif kind == "visits":
            q = p
        else:
            raise ValueError(f"unknown target kind {kind!r}")
        probs[lo:hi] = q
    return TeacherSamples(t.obs, t.offsets, t.actions, probs, t.value, t.cpu)


def more(args: argparse.Namespace, run: dict, game) -> TeacherSamples:
    """``args.more`` further samples of the run's teacher (cached beside ``--out``)."""
    path = args.out.with_name(f"{args.out.stem}-teacher.npz")
    if path.exists():
        return TeacherSamples.load(path, game.obs_size, game.num_distinct_actions())
    first = IMITATION_FIRST + 1_000_000
    extra = teacher_samples(game, run["teacher"], args.more, run["seed"], first, workers=2)
    extra.save(path)
    return extra


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", type=Path, help="the run's run.json (its folder holds teacher.npz)")
    ap.add_argument("--target", action="append", required=True, metavar="KIND:PASSES")
    ap.add_argument("--vs", default="heuristic")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--more", type=int, default=0, help="this many more teacher samples")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--hidden", help="the hidden layers' sizes, e.g. 512,256 (default: the run's)")
    ap.add_argument("--parts", action="store_true", help="a factored head (the game's parts)")
    args = ap.parse_args()
    if not 0 <= args.more <= 4_000_000:
        ap.error(f"--more must be in 0..4000000 (got {args.more})")
    run = json.loads(args.run.read_text())
    hidden = tuple(run["hidden"])
    if args.hidden is not None:
        try:
            hidden = tuple(int(h) for h in args.hidden.split(","))
        except ValueError:
            ap.error(f"--hidden must be sizes separated by commas (got {args.hidden!r})")
        if not hidden or not all(1 <= h <= 4096 for h in hidden):
            ap.error(f"--hidden: each size must be in 1..4096 (got {args.hidden!r})")
    folder = args.run.parent
    game = load(run["game"])
    samples = TeacherSamples.load(
        folder / "teacher.npz", game.obs_size, game.num_distinct_actions()
    )
    parts = args.parts or run.get("action_parts", False)
    try:
        head = factored_head(game) if parts else {}
    except ValueError as e:
        ap.error(f"--parts: {e}")
    if args.more:
        samples = TeacherSamples.concat([samples, more(args, run, game)], game.obs_size)
    rows = []
    for spec in args.target:
        kind, passes = spec.split(":")
        t = reshaped(samples, kind)
        net = PolicyValueNet.initial(
            str(game),
            game.obs_size,
            game.num_distinct_actions(),
            hidden,
            seed=run["seed"],
            kind="q",
            features=game.spec.observation_version,
            **head,
        )
        adam, rng = Adam(net.trainable_size), np.random.default_rng(0)
        t0 = time.process_time()
        for _ in range(int(passes)):
            loss = fit_imitation(
                net,
                t.obs,
                t.choices,
                t.value,
                adam,
                run["imitation_lr"],
                run["batch"],
                rng,
            )
        fit_cpu = time.process_time() - t0
        path = args.out.with_name(f"{args.out.stem}-{kind}-{passes}.npz")
        net.save(path)
        r = match(game, f"learned(model={path})", args.vs, args.deals, seed=args.seed)
        row = {
            "game": str(game),
            "target": kind,
            "passes": int(passes),
            "hidden": list(hidden),
            "action_parts": bool(parts),
            "samples": len(t),
            "teacher_cpu_s": samples.cpu,
            "fit_cpu_s": fit_cpu,
            "loss": loss,
            "vs": args.vs,
            "deals": args.deals,
            "seed": args.seed,
            "score": r.score,
            "lo": r.lo,
            "hi": r.hi,
        }
        rows.append(row)
        print(
            f"| {kind} | {passes} | {loss:.3f} | {r.score:.3f} [{r.lo:.3f}, {r.hi:.3f}] |",
            flush=True,
        )
        args.out.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
