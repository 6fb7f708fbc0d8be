"""A balance study's records turned into measures, each with a 95% interval.

Sides: in team games team 0 holds the first half of the seats and moves first (Red in the games
with colours), team 1 the rest; in games played each for themselves every seat is a side.

Per self-play rung (every seat the same agent, one game per deal):

- ``team0_win_rate``, ``team1_win_rate``, ``draw_rate``: shares of the games; ``team0_score``:
  team 0's wins plus half its draws, per game — the **headline** of a team game: ½ is fair.
  Games played each for themselves: ``seatK_win_rate`` per seat (a fair share is 1/seats),
  ``draw_rate`` (no single best seat); the headline is ``seat0_win_rate``.
- ``moves``: the players' decisions per game.
- A side is **advantaged** at a rung when its interval lies entirely above the fair value
  (:func:`advantaged`): a team's score above ½, a seat's win rate above 1/seats.
- From the searching agents' own estimates (``mover_values``, ``value_spreads``; NaN for the
  rungs that do not search), per game then averaged over the games:

  - ``lead_changes``: how often the side ahead changes — the number of times the estimate of
    team 0's chance (the mover's value, or 1 − it when team 1 moved) crosses ½. Team games.
  - ``drama`` (Browne & Maire 2010, *Drama*, as in Ludii's DramaAverage): over the decisions at
    which the eventual winner's chance was estimated below ½, the mean of √(½ − p); 0 when
    the winner was never behind; games without a winner left out.
  - ``comeback_rate``: the share of won games whose winner was estimated behind at some point.
  - ``decided_at`` (Browne & Maire 2010, *Decisiveness*): the share of the game's decisions
    played before the winner's estimate rises above the threshold (``decided_threshold``,
    0.8) for good; 1 when it never does. Small = settled early.
  - ``uncertainty`` (Browne 2008; CardStock): the mean over searched decisions of
    1 − |2v − 1|, v the mover's estimate: 1 = every position a coin flip, 0 = always certain.
  - ``meaningful_choice_rate`` (CardStock's *meaningful moves*): the share of all decisions,
    forced ones included, at which the mover's best and worst moves differ by at least
    ``meaningful_spread`` (0.1) in its own estimate.

Per step of the ladder (rung k+1 against rung k, duplicate deals): ``stronger_score``, the
higher rung's mean duplicate score per deal (1 = wins every game). **Skill depth**: the number
of steps, from the bottom, that the higher rung wins with its interval above ½ — doublings of
a search budget count one step each; the count stops at the first step that does not.

Intervals: :func:`skip_ai.stats.score_interval` (Wilson over the effective sample) for every
rate and score, over games in self-play and over deals on the steps; a normal interval for
means that are not rates (moves, lead changes, drama, decided_at, uncertainty; clipped to the
range the measure can take, :data:`BOUNDS`) and for differences.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np
import pandas as pd

from skip_ai.balance.config import Measures
from skip_ai.stats import mean_interval, score_interval

DECISION_MEASURES = [
    "lead_changes",
    "drama",
    "comeback_rate",
    "decided_at",
    "uncertainty",
    "meaningful_choice_rate",
]
RATES = {"comeback_rate", "meaningful_choice_rate"}
# the range each mean can take, which its normal interval is clipped to
BOUNDS = {
    "moves": (0.0, math.inf),
    "lead_changes": (0.0, math.inf),
    "drama": (0.0, math.sqrt(0.5)),
    "decided_at": (0.0, 1.0),
    "uncertainty": (0.0, 1.0),
}


@dataclass(frozen=True)
class Sides:
    """What the measures need to know of a variant."""

    team_game: bool
    teams: np.ndarray  # team per seat (team games)
    names: tuple[str, str]  # the teams' names ("Red", "Black" where the game has colours)
    players: int
    family: str  # the game's short name: variants of one family are compared

    @property
    def headline(self) -> str:
        return "team0_score" if self.team_game else "seat0_win_rate"

    @property
    def fair(self) -> float:
        return 0.5 if self.team_game else 1 / self.players

    @property
    def colours(self) -> bool:
        return self.names != ("team 0", "team 1")

    def team_seats(self, team: int) -> str:
        return ", ".join(str(s) for s in np.flatnonzero(self.teams == team))


@cache
def sides(game: str) -> Sides:
    import skip_ai  # noqa: F401  (registers the games)
    from skip_ai.pyspiel_wrapper import load

    g = load(game)
    n = g.num_players()
    return Sides(g.spec.team_game, g.teams(), tuple(g.spec.team_names), n, g.spec.short_name)


def split(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The study's finished games as (self-play, steps), each with ``variant`` and ``rung``
    (read from the match id ``V/kind/R/DEAL/SEATING``)."""
    parts = df.match_id.str.split("/", expand=True)
    df = df.assign(variant=parts[0].astype(int), kind=parts[1], rung=parts[2].astype(int))
    return (
        df[df.kind == "self"].reset_index(drop=True),
        df[df.kind == "step"].reset_index(drop=True),
    )


def _row(
    game: str, rung: int, agent: str, measure: str, value: float, lo: float, hi: float, n: int
) -> dict:
    return {
        "game": game,
        "rung": rung,
        "agent": agent,
        "measure": measure,
        "value": value,
        "lo": lo,
        "hi": hi,
        "n": n,
    }


def selfplay_table(selfplay: pd.DataFrame, measures: Measures) -> pd.DataFrame:
    """One row per (variant, rung, measure): ``value`` with its interval ``lo``–``hi`` over
    ``n`` games (NaN where the measure does not apply)."""
    rows = []
    for (game, rung), g in selfplay.groupby(["game", "rung"], sort=True):
        s = sides(game)
        agent, n = g.agent_a.iloc[0], len(g)

        def rate(name: str, hits: np.ndarray) -> None:
            rows.append(_row(game, rung, agent, name, *score_interval(hits.astype(float)), n))

        w = g.winner.to_numpy()
        if s.team_game:
            rate("team0_score", np.where(w == 0, 1.0, np.where(w == 1, 0.0, 0.5)))
            rate("team0_win_rate", w == 0)
            rate("team1_win_rate", w == 1)
        else:
            for seat in range(s.players):
                rate(f"seat{seat}_win_rate", w == seat)
        rate("draw_rate", w < 0)
        rows.append(
            _row(
                game,
                rung,
                agent,
                "moves",
                *mean_interval(g.num_moves.to_numpy(), bounds=BOUNDS["moves"]),
                n,
            )
        )
        per_game = pd.DataFrame([game_decisions(r, s, measures) for r in g.itertuples()])
        for name in DECISION_MEASURES:
            x = per_game[name].dropna().to_numpy()
            if len(x) == 0:
                continue
            value = score_interval(x) if name in RATES else mean_interval(x, bounds=BOUNDS[name])
            rows.append(_row(game, rung, agent, name, *value, len(x)))
    return pd.DataFrame(rows)


def game_decisions(r, s: Sides, measures: Measures) -> dict[str, float]:
    """The per-decision measures of one game (a record as a named tuple); NaN where the game
    has no searched decision or the measure does not apply."""
    out = dict.fromkeys(DECISION_MEASURES, math.nan)
    movers = np.asarray(r.movers if r.movers is not None else [], dtype=np.int64)
    values = np.asarray(r.mover_values if r.mover_values is not None else [], dtype=float)
    spreads = np.asarray(r.value_spreads if r.value_spreads is not None else [], dtype=float)
    searched = np.isfinite(values)
    if not searched.any():
        return out
    n = len(values)
    out["uncertainty"] = float(np.mean(1 - np.abs(2 * values[searched] - 1)))
    out["meaningful_choice_rate"] = float(
        np.mean(np.nan_to_num(spreads, nan=0.0) >= measures.meaningful_spread)
    )
    where = np.flatnonzero(searched)
    if s.team_game:
        team0 = np.where(s.teams[movers[where]] == 0, values[where], 1 - values[where])
        ahead = np.sign(team0 - 0.5)
        ahead = ahead[ahead != 0]
        out["lead_changes"] = float(np.sum(ahead[1:] != ahead[:-1]))
        if r.winner < 0:
            return out
        winner = team0 if r.winner == 0 else 1 - team0
    else:
        if r.winner < 0:
            return out
        mine = movers[where] == r.winner
        where, winner = where[mine], values[where][mine]
        if len(winner) == 0:
            return out
    behind = winner < 0.5
    out["drama"] = float(np.sqrt(0.5 - winner[behind]).mean()) if behind.any() else 0.0
    out["comeback_rate"] = float(behind.any())
    below = np.flatnonzero(winner < measures.decided_threshold)
    if len(below) == 0:
        out["decided_at"] = where[0] / n
    elif below[-1] == len(winner) - 1:
        out["decided_at"] = 1.0
    else:
        out["decided_at"] = where[below[-1] + 1] / n
    return out


def trace_table(steps: pd.DataFrame) -> pd.DataFrame:
    """One row per (variant, step): the higher rung's mean duplicate score per deal with its
    interval, and whether it clearly wins (``lo`` > ½)."""
    rows = []
    for (game, rung), g in steps.groupby(["game", "rung"], sort=True):
        per_deal = g.groupby("deal").score_a.mean().to_numpy()
        value, lo, hi = score_interval(per_deal)
        rows.append(
            {
                "game": game,
                "step": rung,
                "stronger": g.agent_a.iloc[0],
                "weaker": g.agent_b.iloc[0],
                "deals": len(per_deal),
                "stronger_score": value,
                "lo": lo,
                "hi": hi,
                "clear": lo > 0.5,
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "game",
            "step",
            "stronger",
            "weaker",
            "deals",
            "stronger_score",
            "lo",
            "hi",
            "clear",
        ],
    )


def skill_depth(trace: pd.DataFrame, game: str) -> int:
    """How many steps of ``game``'s ladder, from the bottom, the higher rung clearly wins."""
    clear = trace[trace.game == game].sort_values("step").clear.to_numpy()
    return int(np.argmin(clear)) if not clear.all() else len(clear)


def headline_outcomes(selfplay: pd.DataFrame, game: str, rung: int, side: int = 0) -> pd.Series:
    """Per deal, a side's result in ``game``'s self-play at ``rung``, indexed by deal: team
    ``side``'s (1 win, ½ draw, 0 loss) in a team game, else 1 if seat ``side`` won. Side 0
    (team 0, seat 0) is the headline's."""
    g = selfplay[(selfplay.game == game) & (selfplay.rung == rung)]
    w = g.winner.to_numpy()
    x = np.where(w == side, 1.0, np.where((w < 0) & sides(game).team_game, 0.5, 0.0))
    return pd.Series(x, index=g.deal.to_numpy()).sort_index()


def paired_difference(
    x: pd.Series, y: pd.Series, bounded: bool = True
) -> tuple[float, float, float, float, int]:
    """Mean of ``x − y`` over the deals both hold, its 95% interval, the two-sided p-value of
    "no difference" (normal approximation to the paired mean) and the number of deals.

    ``bounded``: x and y lie in [0, 1], so the difference in [−1, 1] is mapped onto [0, 1] and
    given :func:`~skip_ai.stats.score_interval` (which stays wide when every deal happens to
    agree, where a normal interval would shrink to a point); otherwise a normal interval."""
    common = x.index.intersection(y.index)
    d = (x[common] - y[common]).to_numpy()
    if len(d) < 2:
        return math.nan, math.nan, math.nan, math.nan, len(d)
    if bounded:
        mid, lo, hi = score_interval((d + 1) / 2)
        mean, lo, hi = 2 * mid - 1, 2 * lo - 1, 2 * hi - 1
    else:
        mean, lo, hi = mean_interval(d)
    se = float(d.std(ddof=1)) / math.sqrt(len(d))
    p = (1.0 if mean == 0 else 0.0) if se == 0 else math.erfc(abs(mean / se) / math.sqrt(2))
    return mean, lo, hi, p, len(d)


def paired_unfairness(
    x: pd.Series, y: pd.Series, fair_x: float, fair_y: float, samples: int = 2000
) -> tuple[float, float, float, float, int]:
    """|mean x − fair_x| − |mean y − fair_y| over the deals both hold (negative: x is the
    fairer), its 95% percentile interval and two-sided p-value from a bootstrap over those
    deals (a drawn deal brings both its results, keeping the pairing), and the number of
    deals. The generator is seeded: the same records give the same report."""
    common = x.index.intersection(y.index)
    a, b = x[common].to_numpy(), y[common].to_numpy()
    n = len(a)
    if n < 2:
        return math.nan, math.nan, math.nan, math.nan, n
    value = abs(a.mean() - fair_x) - abs(b.mean() - fair_y)
    draws = np.random.default_rng(0).integers(0, n, size=(samples, n))
    boot = np.abs(a[draws].mean(axis=1) - fair_x) - np.abs(b[draws].mean(axis=1) - fair_y)
    lo, hi = np.percentile(boot, [2.5, 97.5])
    p = min(1.0, 2 * min(np.mean(boot <= 0), np.mean(boot >= 0)))
    return float(value), float(lo), float(hi), float(p), n


@dataclass(frozen=True)
class Settlement:
    """Does the headline still move between the top two rungs?"""

    verdict: str  # "settled", "moving" or "unresolved"
    change: float  # top rung minus the one below
    lo: float
    hi: float
    deals: int


def settlement(
    selfplay: pd.DataFrame, game: str, rungs: int, tolerance: float, side: int = 0
) -> Settlement:
    """Compare a side's result (:func:`headline_outcomes`) at ``game``'s top two self-play
    rungs, paired by deal: *moving* when the interval of the change excludes 0, *settled*
    when it lies within ± ``tolerance``, *unresolved* otherwise (more deals needed to tell)."""
    top, below = (headline_outcomes(selfplay, game, r, side) for r in (rungs - 1, rungs - 2))
    change, lo, hi, _, deals = paired_difference(top, below)
    if not math.isfinite(change):
        verdict = "unresolved"
    elif lo > 0 or hi < 0:
        verdict = "moving"
    elif -tolerance <= lo and hi <= tolerance:
        verdict = "settled"
    else:
        verdict = "unresolved"
    return Settlement(verdict, change, lo, hi, deals)


def settlements(
    selfplay: pd.DataFrame, game: str, rungs: int, tolerance: float
) -> tuple[str, list[Settlement]]:
    """The verdict of ``game`` and the settlement of each side it is read on: team 0 in a
    team game (team 1's is its mirror), every seat in a game played each for themselves —
    *moving* if any side moves, *settled* if every side has settled, else *unresolved*."""
    s = sides(game)
    each = [
        settlement(selfplay, game, rungs, tolerance, side)
        for side in range(1 if s.team_game else s.players)
    ]
    verdicts = {x.verdict for x in each}
    if "moving" in verdicts:
        return "moving", each
    return ("settled" if verdicts == {"settled"} else "unresolved"), each


def advantaged(value: pd.DataFrame, game: str, rung: int) -> list[int]:
    """The sides whose interval at ``rung`` lies entirely above the fair value: [team] in a
    team game (read on team 0's score), the seats in a game played each for themselves.
    ``value``: :func:`selfplay_table` indexed by (rung, measure)."""
    s = sides(game)
    if s.team_game:
        if (rung, "team0_score") not in value.index:
            return []
        x = value.loc[(rung, "team0_score")]
        return [0] if x.lo > 0.5 else [1] if x.hi < 0.5 else []
    return [
        seat
        for seat in range(s.players)
        if (rung, f"seat{seat}_win_rate") in value.index
        and value.loc[(rung, f"seat{seat}_win_rate")].lo > s.fair
    ]
