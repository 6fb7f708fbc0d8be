"""The analysis as pictures: ratings with error bars, the win-rate heat map, game lengths and
the balance metrics by variant.

Each function returns a :class:`matplotlib.figure.Figure` built without pyplot, so it neither
needs a display nor touches a notebook's backend; :func:`save` writes it as PNG (Agg).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from skip_ai.analysis.balance import METRICS
from skip_ai.analysis.winrate import pair_scores

# Fixed axes for the metrics on a fixed scale, so a panel shows where a value sits in it.
RANGE = {
    "team0_win_rate": (0, 1),
    "seat0_win_rate": (0, 1),
    "draw_rate": (0, 1),
    "outcome_uniformity": (0, 1),
    "seat_advantage": (0, 1),
    "skill_gap": (0, 1),
}
STYLE = {"font.size": 11, "axes.titlesize": 13, "axes.labelsize": 11, "figure.titlesize": 14}


def label(game: str, width: int = 28) -> str:
    """A game string short enough for an axis: no ``skip_`` prefix, wrapped."""
    return "\n".join(textwrap.wrap(game.removeprefix("skip_").replace(",", ", "), width))


def save(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` as a PNG at ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", dpi=110, bbox_inches="tight")
    return path


def ratings_plot(ratings: pd.DataFrame) -> Figure:
    """One panel per game (and over all games): each agent's Elo with its 95% interval."""
    scopes = list(dict.fromkeys(ratings.game))
    cols = min(3, len(scopes))
    rows = -(-len(scopes) // cols)
    with matplotlib.rc_context(STYLE):
        fig = Figure(
            figsize=(4.6 * cols, 0.5 + rows * (0.9 + 0.45 * ratings.agent.nunique())),
            layout="constrained",
        )
        axes = fig.subplots(rows, cols, squeeze=False).ravel()
        for ax, scope in zip(axes, scopes):
            r = ratings[ratings.game == scope].sort_values("elo")
            y = np.arange(len(r))
            ax.errorbar(
                r.elo,
                y,
                xerr=[r.elo - r.lo, r.hi - r.elo],
                fmt="o",
                color="C0",
                ecolor="C0",
                capsize=4,
            )
            ax.axvline(0, color="0.7", lw=1, zorder=0)
            ax.set_yticks(y, r.agent)
            ax.set_ylim(-0.6, len(r) - 0.4)
            ax.set_title(label(scope, 40), fontsize=11)
            ax.set_xlabel("Elo (0 = mean of the agents)")
        for ax in axes[len(scopes) :]:
            ax.set_visible(False)
        fig.suptitle("Agent ratings with 95% bootstrap intervals")
    return fig


def winrate_heatmap(df: pd.DataFrame, game: str) -> Figure:
    """The win-rate matrix of ``game``: row agent's duplicate score against column agent,
    each cell with its 95% interval."""
    scores = pair_scores(df[df.game == game])
    agents = sorted(set(scores.agent))
    k = len(agents)
    grid = np.full((k, k), np.nan)
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(2.2 + 1.5 * k, 1.6 + 1.2 * k), layout="constrained")
        ax = fig.subplots()
        for s in scores.itertuples():
            i, j = agents.index(s.agent), agents.index(s.opponent)
            grid[i, j] = s.score
            ax.text(
                j,
                i,
                f"{s.score:.2f}\n[{s.lo:.2f}, {s.hi:.2f}]",
                ha="center",
                va="center",
                fontsize=10,
                color="white" if abs(s.score - 0.5) > 0.3 else "black",
            )
        cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="0.92")  # diagonal: grey
        image = ax.imshow(grid, cmap=cmap, vmin=0, vmax=1)
        ax.set_xticks(range(k), agents, rotation=30, ha="right")
        ax.set_yticks(range(k), agents)
        ax.set_xlabel("opponent")
        ax.set_ylabel("agent")
        ax.set_title(f"Duplicate score of row vs column\n{label(game, 50)}")
        fig.colorbar(image, ax=ax, shrink=0.8, label="score (1 = always wins)")
    return fig


def length_plot(df: pd.DataFrame) -> Figure:
    """The distribution of game length (players' decisions) per variant."""
    games = sorted(df.game.unique())
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(8, 1.2 + 0.9 * len(games)), layout="constrained")
        ax = fig.subplots()
        ax.boxplot(
            [df.num_moves[df.game == g].to_numpy() for g in games],
            orientation="horizontal",
            tick_labels=[label(g) for g in games],
            showmeans=True,
            meanprops={"marker": "D", "markerfacecolor": "white"},
        )
        ax.invert_yaxis()
        ax.set_xlabel("moves per game (players' decisions; ◇ = mean)")
        ax.set_title("Game length by variant")
        ax.grid(axis="x", color="0.9")
    return fig


def balance_plot(table: pd.DataFrame) -> Figure:
    """One panel per balance metric: its value per variant with the 95% interval."""
    metrics = [m for m in METRICS if table[table.metric == m].value.notna().any()]
    games = sorted(table.game.unique())
    cols = 3
    rows = -(-len(metrics) // cols)
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(5 * cols, rows * (1.2 + 0.6 * len(games))), layout="constrained")
        axes = fig.subplots(rows, cols, squeeze=False, sharey=True).ravel()
        y = np.arange(len(games))
        for ax, metric in zip(axes, metrics):
            t = table[table.metric == metric].set_index("game").reindex(games)
            # a percentile bootstrap interval (outcome uniformity's) may miss a biased
            # estimate (a variance): the bar then stops at the estimate
            ax.errorbar(
                t.value,
                y,
                xerr=[(t.value - t.lo).clip(lower=0), (t.hi - t.value).clip(lower=0)],
                fmt="o",
                capsize=4,
                color="C1",
            )
            if metric == "team0_win_rate":  # ½ = no advantage
                ax.axvline(0.5, color="0.7", lw=1, zorder=0)
            if metric in RANGE:
                ax.set_xlim(RANGE[metric][0] - 0.05, RANGE[metric][1] + 0.05)
            ax.set_title(metric.replace("_", " "))
            ax.set_yticks(y, [label(g) for g in games])
            ax.set_ylim(len(games) - 0.5, -0.5)
            ax.grid(axis="x", color="0.9")
        for ax in axes[len(metrics) :]:
            ax.set_visible(False)
        fig.suptitle("By variant (95% intervals; each metric's method in the table)")
    return fig
