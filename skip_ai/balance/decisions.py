"""A study's per-decision measures from its one fixed evaluator (:mod:`.evaluator`):
evaluated once, kept beside the records, averaged per variant and rung with 95% intervals.

The evaluator (``[measures] evaluator``, default ``ismcts(iterations=400)``) reads every choice
point of the first ``evaluated_games`` self-play games of each variant and rung (lowest deals
first; a deal's mirror too). Its readings are kept in ``OUT/evaluations.parquet`` (written
whole, as the record store writes its shards), keyed by the evaluator's spec, so a report
written again — after a resume, or with ``--report-to`` — evaluates only the games it has not
yet.

Per (variant, rung): the mean over the evaluated games of each measure of
:func:`~skip_ai.balance.evaluator.game_measures`, with its interval: the betting interval
(Waudby-Smith & Ramdas) for the measures bounded in [0, 1] (and ``drama`` in [0, √½]),
Student's t for ``lead_changes``. The games of a deal and its mirror are two of the sample,
not independent: the interval treats them as independent (say so where it is printed).
"""

from __future__ import annotations

import math

import pandas as pd
import pyarrow as pa

from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.evaluator import evaluate, game_measures
from skip_ai.stats import BETTING, betting_interval
from skip_ai.tournament.store import write_atomic

CACHE = "evaluations.parquet"
MEASURES = {
    "meaningful_choice_rate": (0.0, 1.0),
    "lead_change_rate": (0.0, 1.0),
    "lead_changes": None,  # the mean count a game: descriptive, no interval
    "decided_at": (0.0, 1.0),
    "comeback": (0.0, 1.0),
    "drama": (0.0, 0.71),  # √(½ − p) ≤ √½ ≈ 0.7071 (a mean of them may round past it)
    "uncertainty": (0.0, 1.0),
}
COLUMNS = ["game", "rung", "agent", "measure", "value", "lo", "hi", "n", "method", "evaluator"]


def evaluations(config: BalanceConfig, selfplay: pd.DataFrame, progress: bool = False):
    """The evaluator's readings of the study's sample of self-play games (``selfplay``: the
    finished self-play records), from the cache, evaluating what it lacks."""
    m = config.measures
    path = config.out / CACHE
    cached = pd.read_parquet(path) if path.exists() else pd.DataFrame()
    if len(cached):
        cached = cached[cached.evaluator == m.evaluator]
    wanted = _sample(selfplay, m.evaluated_games)
    done = set(cached.match_id) if len(cached) else set()
    todo = wanted[~wanted.match_id.isin(done)]
    if len(todo):
        fresh = evaluate(
            todo,
            m.evaluator,
            games=m.evaluated_games,
            seed=config.seed,
            workers=config.workers,
            progress=progress,
        )
        cached = pd.concat([cached, fresh], ignore_index=True) if len(cached) else fresh
        write_atomic(path, pa.Table.from_pandas(cached, preserve_index=False))
    return cached[cached.match_id.isin(set(wanted.match_id))] if len(cached) else cached


def _sample(selfplay: pd.DataFrame, games: int) -> pd.DataFrame:
    """The first ``games`` games of each variant's rung (lowest deals, the mirror beside)."""
    ordered = selfplay.sort_values(["game", "rung", "deal", "match_id"], kind="stable")
    return ordered.groupby(["game", "rung"], sort=False).head(games).reset_index(drop=True)


def decision_table(
    config: BalanceConfig, selfplay: pd.DataFrame, progress: bool = False
) -> pd.DataFrame:
    """One row per (variant, rung, measure): the mean over the evaluated games with its 95%
    interval (:data:`COLUMNS`); empty when ``evaluated_games`` is 0."""
    m = config.measures
    if m.evaluated_games == 0 or selfplay.empty:
        return pd.DataFrame(columns=COLUMNS)
    readings = evaluations(config, selfplay, progress)
    if readings.empty:
        return pd.DataFrame(columns=COLUMNS)
    per_game = game_measures(
        readings, selfplay, m.band, m.decided_threshold, m.meaningful_spread
    ).merge(selfplay[["match_id", "rung"]], on="match_id")
    per_game["lead_change_rate"] = per_game.lead_changes / (per_game.choices - 1).clip(lower=1)
    rows = []
    for (game, rung), g in per_game.groupby(["game", "rung"], sort=True):
        for measure, bounds in MEASURES.items():
            x = g[measure].dropna().to_numpy(float)
            if len(x) < 2:
                continue
            if bounds is None:
                value, lo, hi, method = float(x.mean()), math.nan, math.nan, "mean (no interval)"
            else:
                value, lo, hi = betting_interval(x, *bounds)
                method = BETTING
            rows.append(
                (game, rung, g.agent_a.iloc[0], measure, value, lo, hi, len(x), method, m.evaluator)
            )
    return pd.DataFrame(rows, columns=COLUMNS)


def decisions_sentence(table: pd.DataFrame, game: str, rung: int, players: str) -> str:
    """The top rung's per-decision measures in words, naming the evaluator; ``players``: who
    played the rung, in words ("heuristic players")."""
    t = table[(table.game == game) & (table.rung == rung)].set_index("measure")
    if t.empty:
        return ""
    bits = []
    for measure, text in (
        ("meaningful_choice_rate", "{} of the choices are meaningful"),
        ("lead_change_rate", "the lead changes at {} of the choice points"),
        ("comeback", "the winner was behind in {} of the games"),
        ("decided_at", "a game is decided after {} of its choices"),
    ):
        if measure in t.index:
            x = t.loc[measure]
            said = text.format(f"{100 * x.value:.1f}% [{100 * x.lo:.1f}, {100 * x.hi:.1f}]")
            if measure == "lead_change_rate" and "lead_changes" in t.index:
                said += f" (about {t.loc['lead_changes'].value:.1f} times a game)"
            bits.append(said)
    n = int(t.n.max())
    return (
        f"Read by the fixed evaluator `{t.evaluator.iloc[0]}` on {n} games between equal "
        f"{players}: " + "; ".join(bits) + "."
    )
