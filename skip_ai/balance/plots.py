"""A balance study's pictures, every share in percent: the advantage by rung (the verdict's
side at every rung of its ladder), the skill trace, the variants.

Built without pyplot (as :mod:`skip_ai.analysis.plots`), saved with its :func:`save`."""

from __future__ import annotations

import textwrap

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from skip_ai.analysis.plots import STYLE
from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.metrics import sides
from skip_ai.balance.naming import label_map, rung_labels, short_name, variant_name


def _panels(n: int, width: float = 4.8, height: float = 3.6):
    cols = min(3, n)
    width = width if n > 1 else 1.4 * width  # one panel: room for the title
    rows = -(-n // cols)
    fig = Figure(figsize=(width * cols, height * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes


def _wrap(label: str) -> str:
    """A rung's label on lines short enough for a tick ("ISMCTS at\n1000 iterations")."""
    return "\n".join(textwrap.wrap(label, 14))


def _errorbar(ax, x, v, lo, hi, **kw):
    """Shares (fractions) drawn in percent with their intervals; the errorbar's container."""
    v, lo, hi = (100 * np.asarray(a, dtype=float) for a in (v, lo, hi))
    return ax.errorbar(x, v, yerr=[v - lo, hi - v], capsize=4, **kw)


def advantage_plot(table: pd.DataFrame, config: BalanceConfig, verdicts: pd.DataFrame) -> Figure:
    """Per variant with a verdict, its side's share of the games at every self-play rung with
    the 95% interval: the side the verdict names (the one ahead at the answering rung) in a
    team game, every seat in a game played each for themselves; the fair share dashed, the
    answering rung filled, the strongest rung measured marked on its axis."""
    with matplotlib.rc_context(STYLE):
        fig, axes = _panels(len(verdicts))
        for ax, row in zip(axes, verdicts.itertuples()):
            v = config.games.index(row.game)
            names = rung_labels(config, v)
            s = sides(row.game)
            g = table[table.game == row.game]
            answer = names.index(row.rung)
            for k, measure in enumerate(s.headlines):
                h = g[g.measure == measure].sort_values("rung")
                value, lo, hi = h.value.to_numpy(), h.lo.to_numpy(), h.hi.to_numpy()
                side = k
                if s.team_game:
                    side = 0 if h[h.rung == answer].value.iloc[0] >= 0.5 else 1
                    if side == 1:
                        value, lo, hi = 1 - value, 1 - hi, 1 - lo
                shift = 0.08 * (k - (len(s.headlines) - 1) / 2)
                x = h.rung.to_numpy() + shift
                line = _errorbar(
                    ax, x, value, lo, hi, fmt="o-", mfc="white", label=short_name(row.game, side)
                )
                at = h.rung.to_numpy() == answer
                ax.plot(x[at], 100 * value[at], "o", color=line[0].get_color(), ms=9, zorder=3)
            ax.axhline(100 * s.fair, color="0.5", ls="--", lw=1, label="fair share")
            ticks = [
                _wrap(name)
                + ("\n(answer)" if r == answer else "")
                + ("\n(strongest)" if name == row.strongest else "")
                for r, name in enumerate(names)
            ]
            ax.set_xticks(range(len(names)), ticks, rotation=0, fontsize=8)
            ax.set_ylim(-3, 103)
            ax.set_ylabel("share of games, %")
            ax.legend(fontsize=8, loc="best")
            ax.set_title(f"{row.variant}: {row.verdict}", fontsize=10)
        fig.suptitle(
            "Side advantage by rung: share of games between equal players\n"
            "(95% intervals; filled: the rung the verdict is read at)",
            fontsize=11,
        )
    return fig


def trace_plot(trace: pd.DataFrame, config: BalanceConfig) -> Figure:
    """Per variant (in the study's order), the higher rung's duplicate score at each step of
    the ladder, in percent, with its 97.5% interval."""
    order = [(v, g) for v, g in enumerate(config.games) if g in set(trace.game)]
    with matplotlib.rc_context(STYLE):
        fig, axes = _panels(len(order))
        for ax, (v, game) in zip(axes, order):
            names = label_map(config, v)
            t = trace[trace.game == game].sort_values("step")
            x = np.arange(len(t))
            _errorbar(ax, x, t.stronger_score, t.lo, t.hi, fmt="o")
            ax.axhline(50, color="0.5", ls="--", lw=1)
            ax.set_xticks(
                x,
                [
                    f"{_wrap(names.get(a, a))}\nvs {_wrap(names.get(b, b))}\n{n} deals"
                    for a, b, n in zip(t.stronger, t.weaker, t.deals)
                ],
                fontsize=8,
            )
            ax.set_xlim(-0.5, len(t) - 0.5)
            ax.set_ylim(-3, 103)
            ax.set_ylabel("higher rung's score, %")
            ax.set_title(variant_name(game), fontsize=11)
        fig.suptitle(
            "Skill trace: each rung against the one below on duplicate deals\n"
            "(97.5% intervals; dashed: even)",
            fontsize=11,
        )
    return fig


def variant_plot(verdicts: pd.DataFrame) -> Figure:
    """Every variant's verdict: its side's share at its answering rung with the interval, and
    the fair share."""
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(6.8, 0.9 + 0.55 * len(verdicts)), layout="constrained")
        ax = fig.subplots()
        y = np.arange(len(verdicts))[::-1]
        share, lo, hi = verdicts["share %"], verdicts["lo %"], verdicts["hi %"]
        ax.errorbar(share, y, xerr=[share - lo, hi - share], fmt="o", capsize=4)
        for yy, fair in zip(y, verdicts["fair %"]):
            ax.plot([fair, fair], [yy - 0.3, yy + 0.3], color="0.5", lw=1.5)
        ax.set_yticks(
            y,
            [f"{x.variant}: {x.favoured}\n({x.rung})" for x in verdicts.itertuples()],
            fontsize=9,
        )
        ax.set_xlim(-3, 103)
        ax.set_xlabel("the favoured side's share of games, %; grey: fair")
        ax.set_title("Variants at their answering rungs")
    return fig
