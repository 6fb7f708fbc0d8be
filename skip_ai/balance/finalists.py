"""A lever search's finalists: measured again beside the rules, judged admissible or not, the
winner chosen, the re-measure's study, and ``OUT/search.md`` (:mod:`skip_ai.balance.search`)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pandas as pd

from skip_ai.balance import levers
from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.metrics import headline_units, per_deal_of, sides, split, step_margins
from skip_ai.balance.progress import recorded
from skip_ai.balance.search_config import RUNG, Plan, SearchConfig, per_deal
from skip_ai.pyspiel_wrapper import load, spec_of
from skip_ai.stats import betting_interval, paired_interval
from skip_ai.tournament.runner import BatchSummary
from skip_ai.tournament.store import write_atomic

RUNNERS_UP = 2
"""Admissible finalists re-measured beside the winner."""


def finalists(config: SearchConfig, ranking: list[int]) -> list[int]:
    """The rules and the ``finalists`` best other candidates of the ranking."""
    return [0] + [c for c in ranking if c != 0][: config.search.finalists]


# --- the finalists ------------------------------------------------------------------------------

FINALIST_COLUMNS = [
    "candidate",
    "game",
    "levers",
    "deals",
    "headline",
    "lo",
    "hi",
    "distance",
    "depth",
    "depth_diff",
    "depth_lo",
    "depth_hi",
    "moves",
    "length_ratio",
    "admissible",
    "why_not",
    "winner",
]


def finalist_table(config: SearchConfig, records: pd.DataFrame, plan: Plan) -> pd.DataFrame:
    """Per finalist (the rules first): its headline (team 0's score, or the seat farthest from
    fair) on the final deals with its 95% betting interval, its distance from fair, its skill
    depth and the paired difference from the rules' with its 95% betting interval, its mean
    length and ratio to the rules', whether it is admissible, and the winner."""
    s = config.search
    ok = records[records.status == "ok"]
    selfplay, steps = split(ok)
    chosen = finalists(config, plan.ranking)
    fair = sides(s.game).fair
    depth = {c: _depth(steps, c, s.depth_deals, config.candidates[c]) for c in chosen}
    rows = []
    for c in chosen:
        g = selfplay[
            (selfplay.variant == c) & (selfplay.rung == RUNG) & (selfplay.deal < s.final_deals)
        ]
        g = g.sort_values(["deal", "mirrored"])
        units = headline_units(g, config.candidates[c], per_deal_of(g))
        side = int(np.argmax(np.abs(units.mean(axis=0) - fair))) if len(units) else 0
        value, lo, hi = betting_interval(units[:, side]) if len(units) else (math.nan,) * 3
        diff, dlo, dhi, _ = (
            paired_interval(depth[c], depth[0], -1.0, 1.0) if c else (0.0, 0.0, 0.0, "")
        )
        moves = float(g.num_moves.mean())
        rows.append(
            {
                "candidate": c,
                "game": config.candidates[c],
                "levers": levers.describe(config.candidates[c]),
                "deals": len(units),
                "headline": value,
                "lo": lo,
                "hi": hi,
                "distance": abs(value - fair),
                "depth": float(np.mean(depth[c])),
                "depth_diff": diff,
                "depth_lo": dlo,
                "depth_hi": dhi,
                "moves": moves,
            }
        )
    table = pd.DataFrame(rows)
    table["length_ratio"] = table.moves / table.moves.iloc[0]
    shallower = table.depth_hi < 0
    off_length = (table.length_ratio > s.length_factor) | (table.length_ratio < 1 / s.length_factor)
    table["admissible"] = ~shallower & ~off_length
    table["why_not"] = np.where(
        shallower, "skill shown shallower", np.where(off_length, "length off", "")
    )
    best = table[table.admissible].distance.idxmin()
    table["winner"] = table.index == best
    return table[FINALIST_COLUMNS]


def _depth(steps: pd.DataFrame, c: int, deals: int, game: str) -> np.ndarray:
    """The skill depth per duplicate deal: the rung's margin over the weaker as a share of
    the points both sides scored (:func:`~skip_ai.balance.metrics.step_margins`, in [−1, 1]),
    averaged over the deal's seatings, deals in order. Margins, not wins: a heuristic player
    can win every deal against a random one in one variant and in another (Columns), and
    then only the margin tells how much skill decides. The points are the play's, without
    the variant's komi (a komi changes who wins, not how well anyone plays; in the shares it
    would only shrink the margins)."""
    g = steps[(steps.variant == c) & (steps.deal < deals)].sort_values(["deal", "seating"])
    komi = load(game).resolved.get("komi", 0)
    if komi and g.team_game.all():
        g = g.assign(scores=[np.asarray(x, float) - [komi, 0] for x in g.scores])
    return g.assign(m=step_margins(g)).groupby("deal").m.mean().to_numpy(dtype=float)


def remeasure_config(config: SearchConfig, table: pd.DataFrame) -> BalanceConfig:
    """Step 3's study: the rules, the winner and up to two admissible runners-up, on the
    study's own (fresh) deals."""
    admissible = table[table.admissible & (table.candidate != 0)].sort_values("distance")
    chosen = [config.candidates[0]] + list(admissible.game.iloc[: 1 + RUNNERS_UP])
    return dataclasses.replace(config.study, games=tuple(chosen))


SHOWN = ["levers", "deals", "share", "depth_change", "length_ratio", "admissible", "why_not"]
SHOWN += ["winner"]


def write_search_summary(
    config: SearchConfig, table: pd.DataFrame, plan: Plan, summary: BatchSummary
) -> Path:
    """``OUT/search/finalists.csv``, ``OUT/search/ranking.csv`` and ``OUT/search.md``."""
    out = config.out
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / "finalists.csv", table.to_csv(index=False).encode())
    ranking = pd.DataFrame(
        {
            "rank": range(1, len(plan.ranking) + 1),
            "game": [config.candidates[c] for c in plan.ranking],
            "levers": [levers.describe(config.candidates[c]) for c in plan.ranking],
        }
    )
    write_atomic(out / "ranking.csv", ranking.to_csv(index=False).encode())
    path = config.study.out / "search.md"
    write_atomic(path, search_text(config, table, plan, summary).encode())
    return path


def search_text(
    config: SearchConfig, table: pd.DataFrame, plan: Plan, summary: BatchSummary
) -> str:
    s = config.search
    study = config.study
    rung, weaker = study.agents[s.rung].name, study.agents[s.weaker].name
    records = recorded(config.out)
    spent = int((records.status == "ok").sum())
    searched = sum(len(d) for r in plan.requests for _, d in r) * per_deal(config)
    winner = table[table.winner].iloc[0]
    shown = table.assign(
        share=[
            f"{100 * v:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
            for v, lo, hi in zip(table.headline, table.lo, table.hi)
        ],
        depth_change=[
            "—" if i == 0 else f"{100 * d:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"
            for i, (d, lo, hi) in enumerate(zip(table.depth_diff, table.depth_lo, table.depth_hi))
        ],
    )[
        [
            "levers",
            "deals",
            "share",
            "depth_change",
            "length_ratio",
            "admissible",
            "why_not",
            "winner",
        ]
    ]
    return "\n".join(
        [
            f"# Lever search {study.name}: {sides(s.game).family}",
            "",
            f"The rules: `{s.game}`. {len(config.candidates)} variants over its levers "
            f"({', '.join(p.name for p in spec_of(s.game).levers)}); method **{s.method}**, "
            f"budget {s.budget} self-play games of {rung} (seed {s.seed}); the method played "
            f"{searched} games, the finalists {spent - searched} more ({spent} in all, "
            f"{summary.seconds:.0f} s this run).",
            "",
            f"## The finalists (search deals 0–{s.final_deals - 1}, {rung} self-play; skill: "
            f"{rung} against {weaker} on {s.depth_deals} duplicate deals)",
            "",
            "Share: team 0's (the side farthest from fair in a game each for themselves), % "
            "with its 95% betting interval (Waudby-Smith & Ramdas). Depth change: the rung's "
            "margin over the weaker (a share of the points both sides scored) minus the "
            "rules', in points, paired by deal (95% betting interval). These deals also chose "
            "the finalists: the winner's numbers to quote are "
            "the re-measure's on fresh deals (report.md).",
            "",
            shown.to_markdown(index=False),
            "",
            f"Winner: **{winner.levers}** (`{winner.game}`).",
            "",
        ]
    )
