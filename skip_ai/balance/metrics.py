"""A balance study's records turned into measures, each with a 95% interval that names its
method.

Sides: in team games team 0 holds the first half of the seats and moves first (Red in the games
with colours), team 1 the rest; in games played each for themselves every seat is a side.

**Units.** A self-play rung plays each deal once, or — with ``mirror = true`` in a game that
has a mirror (:mod:`skip_ai.mirror`) — each deal and its mirror. A *unit* is a deal with all
its games; every self-play measure is a mean over units of the unit's mean, so a deal and its
mirror count as one observation, analysed as a pair (their luck cancels; they are not
independent).

Per self-play rung:

- ``team0_score`` — the **headline** of a team game, ½ is fair: team 0's wins plus half its
  draws. ``team0_win_rate``, ``team1_win_rate``, ``draw_rate``: shares of the games.
- Games played each for themselves: ``seatK_score`` per seat, the headline, 1/seats is fair:
  the seat's wins with a game nobody won split equally among the seats (so the shares sum to
  1 and a seat is compared with what the seats share, not with 1/seats of the decided games
  only); ``seatK_win_rate`` and ``undecided_rate`` beside them. Their intervals are
  simultaneous over the seats (each at 1 − 0.05/seats, Bonferroni).
- ``margin`` (team games): team 0's score minus team 1's in the game's own points
  (``state.scores()``: cards, piles, points), a mean without an interval (descriptive: a
  Student's t interval covered 92–94% for skewed margins); ``margin_share``: the same over the
  points the two teams scored together, ``(s0 − s1) / (|s0| + |s1|)`` in [−1, 1], so games
  compare — the second headline, with its betting interval.
- ``moves``: the players' decisions per game; ``seconds``: the mean game's wall time in its
  worker (the rung's cost per game; no interval).

Per step of the ladder (rung k+1 against rung k, duplicate deals): the higher rung's mean
duplicate score per deal (``stronger_score``) and its mean margin share (``stronger_margin``),
each at 97.5% (the two tests share 5%); the higher rung is **shown stronger** when either lies
wholly above its no-difference value, **weaker** when either lies wholly below. ``detectable``:
the smallest score difference (in points) the step would find with 80% power. **Skill depth**:
the number of steps whose higher rung is shown stronger.

Intervals (:mod:`skip_ai.stats`): the headline by the betting confidence sequence when the
study deals sequentially (``[precision]``: valid at every look), else by the betting interval
(Waudby-Smith & Ramdas 2023); every other rate and bounded mean by the betting interval;
``moves`` (an unbounded mean of many decisions) by Student's t; paired comparisons between rungs
and variants by :func:`skip_ai.stats.paired_interval` (the betting interval of the per-deal
differences), with p-values read from the same bettors' capital
(:func:`skip_ai.stats.betting_p_value`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache
from statistics import NormalDist

import numpy as np
import pandas as pd

from skip_ai.stats import (
    BETTING,
    betting_interval,
    betting_p_value,
    confidence_sequence,
    mean_interval,
    paired_interval,
)

ALPHA = 0.05
Z80 = NormalDist().inv_cdf(0.8)  # 80% power


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
        return "team0_score" if self.team_game else "seat0_score"

    @property
    def headlines(self) -> list[str]:
        """The measures the headline is read on: team 0's score, or every seat's."""
        if self.team_game:
            return ["team0_score"]
        return [f"seat{k}_score" for k in range(self.players)]

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
    ids = df.match_id.astype(str)
    study = ids.str.fullmatch(r"\d+/(self|step)/\d+/\d+/\w+")
    if not study.all():
        raise ValueError(
            f"game {ids[~study].iloc[0]!r} is not a balance study's (its match ids read "
            "V/self/R/DEAL/SEATING or V/step/R/DEAL/SEATING): these are not a study's records"
        )
    parts = ids.str.split("/", n=3, expand=True)
    if df.empty:  # nothing recorded yet: the columns, without rows
        parts = pd.DataFrame({0: [], 1: [], 2: []}, index=df.index)
    df = df.assign(variant=parts[0].astype(int), kind=parts[1], rung=parts[2].astype(int))
    return (
        df[df.kind == "self"].reset_index(drop=True),
        df[df.kind == "step"].reset_index(drop=True),
    )


# --- per game, then per unit -------------------------------------------------------------


def side_scores(g: pd.DataFrame, s: Sides) -> np.ndarray:
    """Games × sides: team 0's score (1 win, ½ draw, 0 loss) in a team game; each seat's
    score in a game played each for themselves (1 to the winner, 1/seats each when nobody
    won)."""
    w = g.winner.to_numpy()
    if s.team_game:
        return np.where(w == 0, 1.0, np.where(w == 1, 0.0, 0.5))[:, None]
    seats = np.arange(s.players)
    return np.where(w[:, None] < 0, 1 / s.players, (w[:, None] == seats).astype(float))


def margins(g: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per game of a team game, team 0's margin in the game's points and as a share of the
    points both teams scored (0 when neither scored)."""
    scores = np.stack(g.scores.to_numpy()).astype(float)
    diff = scores[:, 0] - scores[:, 1]
    total = np.abs(scores[:, 0]) + np.abs(scores[:, 1])
    return diff, np.divide(diff, total, out=np.zeros_like(diff), where=total > 0)


def unit_means(g: pd.DataFrame, values: np.ndarray, per_deal: int) -> np.ndarray:
    """``values`` (one row per game of ``g``) averaged per unit (deal), over the complete
    units only (``per_deal`` finished games), in deal order: units × columns."""
    values = np.asarray(values, dtype=float)
    if len(g):
        values = values.reshape(len(g), -1)
    else:  # no game yet: no unit, as many columns as given
        values = values.reshape(0, values.shape[1] if values.ndim == 2 else 1)
    frame = pd.DataFrame(values).assign(deal=g.deal.to_numpy())
    grouped = frame.groupby("deal", sort=True)
    complete = grouped.size() == per_deal
    return grouped.mean()[complete].to_numpy()


def headline_units(g: pd.DataFrame, game: str, per_deal: int) -> np.ndarray:
    """The headline per complete unit of one rung's finished self-play games ``g``: units ×
    sides (team 0; or every seat)."""
    return unit_means(g, side_scores(g, sides(game)), per_deal)


def per_deal_of(g: pd.DataFrame) -> int:
    """Games per unit in one rung's self-play: 2 when it played mirrors, else 1."""
    return 2 if "mirrored" in g and g.mirrored.fillna(False).astype(bool).any() else 1


# --- the self-play table -----------------------------------------------------------------

COLUMNS = ["game", "rung", "agent", "measure", "value", "lo", "hi", "n", "games", "method"]
SEQUENCE = "betting confidence sequence (Waudby-Smith & Ramdas)"
STUDENT = "Student's t"
DESCRIPTIVE = "mean (no interval)"


def _interval(x: np.ndarray, lo: float, hi: float, sequential: bool, alpha: float = ALPHA):
    if len(x) == 0:
        return math.nan, math.nan, math.nan
    if sequential:
        return confidence_sequence(x, lo, hi, alpha)
    return betting_interval(x, lo, hi, alpha)


def outcome_rates(
    g: pd.DataFrame, s: Sides, per_deal: int
) -> list[tuple[str, float, float, float, int]]:
    """The win and draw rates of one variant's self-play games ``g`` (sorted by ``deal``, the
    unit), each a share of the games averaged per complete unit (``per_deal`` games), with its
    betting interval: (measure, value, lo, hi, units). Team games: ``team0_win_rate``,
    ``team1_win_rate``, ``draw_rate``; games played each for themselves: ``seatK_win_rate``
    per seat (simultaneous over the seats, as their scores) and ``undecided_rate``. The
    study's table and ``skip-ai report`` (:mod:`skip_ai.analysis.balance`) both read them
    here, so the same records give the same rates."""
    w = g.winner.to_numpy()
    if s.team_game:
        shares = [("team0_win_rate", w == 0, ALPHA), ("team1_win_rate", w == 1, ALPHA)]
    else:
        alpha = ALPHA / s.players  # simultaneous over the seats
        shares = [(f"seat{k}_win_rate", w == k, alpha) for k in range(s.players)]
    shares.append(("draw_rate" if s.team_game else "undecided_rate", w < 0, ALPHA))
    rates = []
    for measure, per_game, alpha in shares:
        units = unit_means(g, per_game, per_deal)[:, 0]
        rates.append((measure, *_interval(units, 0.0, 1.0, False, alpha), len(units)))
    return rates


def selfplay_table(selfplay: pd.DataFrame, sequential: bool = False) -> pd.DataFrame:
    """One row per (variant, rung, measure): ``value`` with its interval ``lo``–``hi`` over
    ``n`` units (``games`` games) and the interval's ``method``. ``sequential``: the headline
    by its confidence sequence (a study with ``[precision]``)."""
    rows = []
    for (game, rung), g in selfplay.groupby(["game", "rung"], sort=True):
        g = g.sort_values(["deal", "match_id"]).reset_index(drop=True)
        s = sides(game)
        agent, per_deal = g.agent_a.iloc[0], per_deal_of(g)

        def add(measure, value, lo, hi, n, method):
            rows.append(
                dict(zip(COLUMNS, (game, rung, agent, measure, value, lo, hi, n, len(g), method)))
            )

        def bounded(measure, per_game, lo=0.0, hi=1.0, alpha=ALPHA, seq=False):
            units = unit_means(g, per_game, per_deal)[:, 0]
            method = SEQUENCE if seq else BETTING
            add(measure, *_interval(units, lo, hi, seq, alpha), len(units), method)

        def unbounded(measure, per_game):
            units = unit_means(g, per_game, per_deal)[:, 0]
            add(measure, *mean_interval(units), len(units), STUDENT)

        scores = side_scores(g, s)
        if s.team_game:
            bounded("team0_score", scores[:, 0], seq=sequential)
        else:
            alpha = ALPHA / s.players  # simultaneous over the seats
            for k in range(s.players):
                bounded(f"seat{k}_score", scores[:, k], alpha=alpha, seq=sequential)
        for measure, *interval in outcome_rates(g, s, per_deal):
            add(measure, *interval, BETTING)
        if s.team_game and "scores" in g and g.scores.notna().all():
            raw, share = margins(g)
            # the margin in points is descriptive: its t interval covered 92–94% for skewed
            # margins (the share, bounded, carries the interval)
            units = unit_means(g, raw, per_deal)[:, 0]
            add("margin", float(units.mean()), math.nan, math.nan, len(units), DESCRIPTIVE)
            bounded("margin_share", share, -1.0, 1.0)
        unbounded("moves", g.num_moves.to_numpy(float))
        if "seconds" in g:
            add("seconds", float(g.seconds.mean()), math.nan, math.nan, len(g), "")
    return pd.DataFrame(rows, columns=COLUMNS)


def mirror_efficiency(selfplay: pd.DataFrame, game: str, rung: int) -> float:
    """How many independent deals a deal and its mirror are worth, for the headline: the
    variance of the mean of two independent games over the variance of a pair's mean
    (> 1: the mirror helps). NaN without mirrors or variance."""
    g = selfplay[(selfplay.game == game) & (selfplay.rung == rung)]
    if per_deal_of(g) != 2:
        return math.nan
    g = g.sort_values(["deal", "match_id"])
    games = side_scores(g, sides(game))[:, 0]
    pairs = unit_means(g, games, 2)[:, 0]
    var_pair = pairs.var(ddof=1) if len(pairs) > 1 else math.nan
    if not var_pair > 0:
        return math.nan
    return float(games.var(ddof=1) / 2 / var_pair)


# --- the skill trace -----------------------------------------------------------------------

TRACE_COLUMNS = [
    "game",
    "step",
    "stronger",
    "weaker",
    "deals",
    "stronger_score",
    "lo",
    "hi",
    "stronger_margin",
    "margin_lo",
    "margin_hi",
    "detectable",
    "doublings",
    "verdict",
    "clear",
]


def step_margins(g: pd.DataFrame) -> np.ndarray:
    """Per game of a step, the higher rung's (A's) margin share: its team's score minus the
    other's over both (team games; seating 0 puts A on team 0), or 2·score_a − 1 in a game
    played each for themselves."""
    if not g.team_game.iloc[0] or "scores" not in g or g.scores.isna().any():
        return 2 * g.score_a.to_numpy(float) - 1
    share = margins(g)[1]
    return np.where(g.seating.to_numpy() == 0, share, -share)


def trace_table(steps: pd.DataFrame) -> pd.DataFrame:
    """One row per (variant, step): the higher rung's mean duplicate score and margin share
    per deal with their intervals (97.5% each), what the step can detect, and its verdict."""
    rows = []
    for (game, rung), g in steps.groupby(["game", "rung"], sort=True):
        g = g.sort_values(["deal", "seating"])
        deal = g.groupby("deal")
        score = deal.score_a.mean().to_numpy()
        margin = pd.Series(step_margins(g), index=g.index).groupby(g.deal).mean().to_numpy()
        v, lo, hi = betting_interval(score, 0.0, 1.0, ALPHA / 2)
        m, mlo, mhi = betting_interval(margin, -1.0, 1.0, ALPHA / 2)
        stronger, weaker = lo > 0.5 or mlo > 0, hi < 0.5 or mhi < 0
        # one deal has no spread: the floor of ½/√n stands for it (NaN would print "≥ nan")
        sd = float(score.std(ddof=1)) if len(score) > 1 else 0.0
        z = NormalDist().inv_cdf(1 - ALPHA / 4)
        rows.append(
            {
                "game": game,
                "step": rung,
                "stronger": g.agent_a.iloc[0],
                "weaker": g.agent_b.iloc[0],
                "deals": len(score),
                "stronger_score": v,
                "lo": lo,
                "hi": hi,
                "stronger_margin": m,
                "margin_lo": mlo,
                "margin_hi": mhi,
                "detectable": (z + Z80)
                * max(sd, 0.5 / math.sqrt(len(score)))
                / math.sqrt(len(score)),
                "doublings": math.nan,
                "verdict": "stronger"
                if stronger and not weaker
                else "weaker"
                if weaker and not stronger
                else "not told apart",
                "clear": stronger and not weaker,
            }
        )
    return pd.DataFrame(rows, columns=TRACE_COLUMNS)


_ITERATIONS = re.compile(r"^ismcts\(iterations=(\d+)\)$")


def doublings(stronger: str, weaker: str) -> float:
    """Budget doublings between two plain ISMCTS rungs (``ismcts(iterations=N)``), else NaN."""
    a, b = _ITERATIONS.match(stronger.replace(" ", "")), _ITERATIONS.match(weaker.replace(" ", ""))
    if a is None or b is None:
        return math.nan
    return math.log2(int(a.group(1)) / int(b.group(1)))


def skill_depth(trace: pd.DataFrame, game: str) -> int:
    """How many steps of ``game``'s ladder the higher rung is shown stronger in."""
    return int(trace[trace.game == game].clear.sum())


# --- paired comparisons ------------------------------------------------------------------


def headline_series(selfplay: pd.DataFrame, game: str, rung: int, side: int = 0) -> pd.Series:
    """Per complete unit, a side's headline in ``game``'s self-play at ``rung``, indexed by
    deal: team 0's score in a team game, seat ``side``'s score otherwise."""
    g = selfplay[(selfplay.game == game) & (selfplay.rung == rung)]
    g = g.sort_values(["deal", "match_id"])
    per_deal = per_deal_of(g)
    units = headline_units(g, game, per_deal)
    deals = g.groupby("deal").size()
    deals = deals[deals == per_deal].index.to_numpy()
    return pd.Series(units[:, side] if len(units) else [], index=deals, dtype=float)


def paired_difference(x: pd.Series, y: pd.Series) -> tuple[float, float, float, float, int, str]:
    """Mean of ``x − y`` over the deals both hold (values in [0, 1]), its 95% interval
    (:func:`skip_ai.stats.paired_interval`), the p-value of "no difference" read from the same
    bettors' capital (:func:`skip_ai.stats.betting_p_value`: below 0.05 exactly when the
    interval excludes 0), the number of deals and the interval's method."""
    common = x.index.intersection(y.index)
    a, b = x[common].to_numpy(), y[common].to_numpy()
    if len(a) < 2:
        return math.nan, math.nan, math.nan, math.nan, len(a), ""
    d, lo, hi, method = paired_interval(a, b)
    return d, lo, hi, betting_p_value(a - b, 0.0, -1.0, 1.0), len(a), method


@dataclass(frozen=True)
class Settlement:
    """Does the headline still move between the top two rungs?"""

    verdict: str  # "settled", "moving" or "unresolved"
    change: float  # top rung minus the one below
    lo: float
    hi: float
    deals: int
    method: str


def settlement(
    selfplay: pd.DataFrame, game: str, rungs: int, tolerance: float, side: int = 0
) -> Settlement:
    """Compare a side's headline (:func:`headline_series`) at ``game``'s top two self-play
    rungs, paired by deal: *moving* when the interval of the change excludes 0, *settled*
    when it lies within ± ``tolerance``, *unresolved* otherwise (more deals needed to tell)."""
    top, below = (headline_series(selfplay, game, r, side) for r in (rungs - 1, rungs - 2))
    change, lo, hi, _, deals, method = paired_difference(top, below)
    if not math.isfinite(change):
        verdict = "unresolved"
    elif lo > 0 or hi < 0:
        verdict = "moving"
    elif -tolerance <= lo and hi <= tolerance:
        verdict = "settled"
    else:
        verdict = "unresolved"
    return Settlement(verdict, change, lo, hi, deals, method)


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


# --- which sides are advantaged (Holm over every rung and variant of the study) -------------


def fairness_tests(selfplay: pd.DataFrame, table: pd.DataFrame, sequential: bool) -> pd.DataFrame:
    """One row per (variant, rung, side): the p-value of "this side's headline is fair", read
    from the capital of the bettors behind its interval in ``table``
    (:func:`skip_ai.stats.betting_p_value`, the sequence's bets under the sequential rule),
    Holm's adjustment over every row of the study, and ``advantaged``: the side (team 1 when
    team 0's score lies below ½) whose printed interval lies beyond fair and whose Holm-adjusted
    p-value is below 0.05."""
    rows = []
    heads = table.set_index(["game", "rung", "measure"])
    for (game, rung), g in selfplay.groupby(["game", "rung"], sort=True):
        s = sides(game)
        g = g.sort_values(["deal", "match_id"])
        units = headline_units(g, game, per_deal_of(g))
        if len(units) == 0:
            continue
        alpha = ALPHA / (1 if s.team_game else s.players)  # as the table's intervals
        for k, measure in enumerate(s.headlines):
            x = units[:, k]
            p = betting_p_value(x, s.fair, 0.0, 1.0, alpha=alpha, sequential=sequential)
            printed = heads.loc[(game, rung, measure)]
            above, below = printed.lo > s.fair, printed.hi < s.fair
            side = (0 if not below else 1) if s.team_game else k
            beyond = (above or below) if s.team_game else above
            rows.append((game, rung, measure, side, beyond, p))
    tests = pd.DataFrame(rows, columns=["game", "rung", "measure", "side", "beyond", "p"])
    tests["p_holm"] = holm(tests.p.to_numpy())
    tests["advantaged"] = (tests.p_holm < ALPHA) & tests.beyond
    return tests


def advantaged(tests: pd.DataFrame, game: str, rung: int) -> list[int]:
    """The sides advantaged at ``rung`` after Holm's correction (:func:`fairness_tests`):
    [team] in a team game, the seats in a game played each for themselves."""
    t = tests[(tests.game == game) & (tests.rung == rung) & tests.advantaged]
    return sorted(int(x) for x in t.side)


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN stays NaN)."""
    p = np.asarray(p, dtype=float)
    out = np.full(len(p), np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    order = ok[np.argsort(p[ok], kind="stable")]
    running = 0.0
    for i, k in enumerate(order):
        running = max(running, min(1.0, (len(order) - i) * p[k]))
        out[k] = running
    return out
