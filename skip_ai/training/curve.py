"""A training run's learning curve as a PNG: the learned policy's duplicate score against each
reference (95% interval band) by training CPU minutes. Built without pyplot, as the other
plots (:mod:`skip_ai.analysis.plots`)."""

from __future__ import annotations

from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from skip_ai.analysis.plots import STYLE


def plot_curve(rows: list[dict], title: str, path: Path) -> None:
    """Rows with ``reference``, ``cpu_seconds``, ``score``, ``lo``, ``hi`` → a PNG at
    ``path`` (written under a temporary name, then renamed)."""
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(6.4, 4.0), layout="constrained")
        ax = fig.subplots()
        for ref in dict.fromkeys(r["reference"] for r in rows):
            pts = sorted((r for r in rows if r["reference"] == ref), key=lambda r: r["cpu_seconds"])
            x = [r["cpu_seconds"] / 60 for r in pts]
            (line,) = ax.plot(x, [r["score"] for r in pts], "o-", ms=3, label=f"vs {ref}")
            ax.fill_between(
                x, [r["lo"] for r in pts], [r["hi"] for r in pts], alpha=0.2, color=line.get_color()
            )
        ax.axhline(0.5, color="0.5", ls="--", lw=1)
        ax.set_ylim(0, 1)
        ax.set_xlabel("training CPU minutes (self-play + learner)")
        ax.set_ylabel("duplicate score of learned(model)")
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=8)
        tmp = path.with_name(f".{path.stem}.tmp.png")
        fig.savefig(tmp, dpi=110)
        tmp.replace(path)
