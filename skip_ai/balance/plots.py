"""A balance study's pictures: the headline by rung, the skill trace, the variants.

Built without pyplot (as :mod:`skip_ai.analysis.plots`), saved with its :func:`save`."""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from skip_ai.analysis.plots import STYLE
from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.findings import games_text, variant_name
from skip_ai.balance.metrics import sides


def _panels(n: int, width: float = 4.8, height: float = 3.4):
    cols = min(3, n)
    rows = -(-n // cols)
    fig = Figure(figsize=(width * cols, height * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes


def rung_plot(table: pd.DataFrame, config: BalanceConfig) -> Figure:
    """Per variant (in the study's order), every self-play rung with its interval and the
    fair value as a line: team 0's score in a team game, every seat's score (side by side) in
    a game played each for themselves."""
    order = [(v, g) for v, g in enumerate(config.games) if g in set(table.game)]
    with matplotlib.rc_context(STYLE):
        fig, axes = _panels(len(order))
        for ax, (v, game) in zip(axes, order):
            s = sides(game)
            for k, measure in enumerate(s.headlines):
                g = table[(table.game == game) & (table.measure == measure)].sort_values("rung")
                shift = 0.08 * (k - (len(s.headlines) - 1) / 2)
                ax.errorbar(
                    g.rung + shift,
                    g.value,
                    yerr=[g.value - g.lo, g.hi - g.value],
                    fmt="o-",
                    capsize=4,
                    label=None if s.team_game else f"seat {k}",
                )
            ax.axhline(s.fair, color="0.5", ls="--", lw=1)
            names = config.names(v)
            ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
            ax.set_ylim(-0.03, 1.03)
            colour = f"{s.names[0]}, " if s.colours else ""
            ax.set_ylabel(
                f"team 0 ({colour}seats {s.team_seats(0)}) score"
                if s.team_game
                else "score by seat (seat 0 first)"
            )
            if not s.team_game:
                ax.legend(fontsize=8, loc="upper right")
            n = int(table[table.game == game].games.max())
            ax.set_title(f"{variant_name(game)}\n≤ {n} games per rung", fontsize=10)
        fig.suptitle("Self-play: every seat the same agent (95% intervals; dashed: fair)")
    return fig


def trace_plot(trace: pd.DataFrame, order: list[str]) -> Figure:
    """Per variant (in the study's ``order``), the higher rung's duplicate score at each step
    of the ladder."""
    games = [g for g in order if g in set(trace.game)]
    with matplotlib.rc_context(STYLE):
        fig, axes = _panels(len(games))
        for ax, game in zip(axes, games):
            t = trace[trace.game == game].sort_values("step")
            x = np.arange(len(t))
            ax.errorbar(
                x,
                t.stronger_score,
                yerr=[t.stronger_score - t.lo, t.hi - t.stronger_score],
                fmt="o",
                capsize=4,
            )
            ax.axhline(0.5, color="0.5", ls="--", lw=1)
            ax.set_xticks(
                x,
                [f"{a}\nvs {b}\n{n} deals" for a, b, n in zip(t.stronger, t.weaker, t.deals)],
                fontsize=8,
            )
            ax.set_ylim(-0.03, 1.03)
            ax.set_ylabel("higher rung's score")
            ax.set_title(variant_name(game), fontsize=11)
        fig.suptitle("Skill trace: each rung against the one below, duplicate deals")
    return fig


def variant_plot(summary: pd.DataFrame) -> Figure:
    """Every variant's headline at its answering rung (the highest that reached the target)
    with its interval, and the fair value."""
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(6.4, 0.9 + 0.55 * len(summary)), layout="constrained")
        ax = fig.subplots()
        y = np.arange(len(summary))[::-1]
        ax.errorbar(
            summary.headline,
            y,
            xerr=[summary.headline - summary.lo, summary.hi - summary.headline],
            fmt="o",
            capsize=4,
        )
        for yy, fair in zip(y, summary.fair):
            ax.plot([fair, fair], [yy - 0.3, yy + 0.3], color="0.5", lw=1.5)
        ax.set_yticks(
            y, [f"{variant_name(g)}\n({r})" for g, r in zip(summary.game, summary.rung)], fontsize=9
        )
        ax.set_xlim(-0.03, 1.03)
        ax.set_xlabel("team 0's score (each for themselves: seat 0's score); grey: fair")
        ax.set_title(f"Variants at their answering rungs ({games_text(summary.games)})")
    return fig
