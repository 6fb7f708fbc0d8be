"""Learning curves of runs that continue one another (``start`` = the previous run's model),
drawn end to end by decisions, beside the selection scores of chosen snapshots.

    python experiments/bench/chained_curves.py --out results/learned/features-pairs-captains.png \
        --game "Pyatki in pairs" runs/features-pyatki-pairs runs/features-pyatki-pairs-2 ... \
        --select runs/features-pyatki-pairs-2/models/d0012017649.npz=0.584:0.568:0.600 ...

Each ``--game`` starts a panel; its runs follow in order. ``RUN@DECISIONS`` draws a run that
branched from a snapshot (its ``start``) at that many decisions of the panel's x axis.
``--select FILE=SCORE:LO:HI`` marks a snapshot's score on the selection deals (its decisions
are read from the run it belongs to)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from skip_ai.analysis.plots import STYLE


def _panels(argv: list[str]) -> list[tuple[str, list[tuple[Path, int | None]]]]:
    panels: list[tuple[str, list[tuple[Path, int | None]]]] = []
    for a in argv:
        if a.startswith("--game="):
            panels.append((a.split("=", 1)[1], []))
        elif not panels:
            raise SystemExit(f"a run before any --game=NAME: {a}")
        else:
            run, branched, at = a.partition("@")
            if branched and not at.isdigit():
                raise SystemExit(f"{a}: want RUN or RUN@DECISIONS (a whole number >= 0)")
            panels[-1][1].append((Path(run), int(at) if branched else None))
    return panels


def _selection(spec: str) -> tuple[Path, float, float, float]:
    path, nums = spec.rsplit("=", 1)
    score, lo, hi = (float(x) for x in nums.split(":"))
    if not all(0 <= v <= 1 for v in (score, lo, hi)) or not lo <= score <= hi:
        raise SystemExit(f"--select {spec}: want SCORE:LO:HI in [0, 1], LO <= SCORE <= HI")
    return Path(path), score, lo, hi


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--select", action="append", default=[], type=_selection)
    ap.add_argument("--title", default="")
    args, rest = ap.parse_known_args()
    panels = _panels(rest)
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(4.2 * len(panels), 3.8), layout="constrained")
        axes = fig.subplots(1, len(panels), squeeze=False)[0]
        for ax, (name, runs) in zip(axes, panels, strict=True):
            offset = 0
            for k, (run, at) in enumerate(runs):
                if at is not None:
                    offset = at
                rows = json.loads((run / "curve.json").read_text())
                rows = [r for r in rows if r["reference"] == "heuristic"]
                x = [(offset + r["decisions"]) / 1e6 for r in rows]
                ax.plot(x, [r["score"] for r in rows], "o-", ms=3, color=f"C{k}", label=run.name)
                for path, score, lo, hi in args.select:
                    if path.parent.parent == run:
                        d = (offset + int(path.stem[1:])) / 1e6
                        ax.errorbar(
                            d,
                            score,
                            [[score - lo], [hi - score]],
                            fmt="s",
                            color="k",
                            ms=5,
                            capsize=3,
                        )
                offset += rows[-1]["decisions"]
            ax.plot([], [], "s", color="k", label="selection, 1 000 deals [95%]")
            ax.axhline(0.5, color="0.5", ls="--", lw=1)
            ax.axhline(0.65, color="0.5", ls=":", lw=1, label="target 1: 0.65")
            ax.set_ylim(0.2, 0.8)
            ax.set_xlabel("decisions (millions), runs end to end")
            ax.set_ylabel("learned(model) vs heuristic")
            ax.set_title(name, fontsize=9)
            ax.legend(fontsize=6, loc="lower right")
        if args.title:
            fig.suptitle(args.title, fontsize=9)
        tmp = args.out.with_name(f".{args.out.stem}.tmp.png")
        fig.savefig(tmp, dpi=110)
        tmp.replace(args.out)


if __name__ == "__main__":
    main()
