"""The sequential rule of a study with ``[precision]``: deal until the headline is as precise
as the designer asked, and no longer.

Per variant and self-play rung, the deals are played in *looks* of growing size: the first
look holds ``first`` deals, each next one ``growth`` times as many (at least one more), up to
the rung's cap (``cap_games`` games, a deal and its mirror counting two). After each look, on
the deals it holds, the rung's headline gets its **confidence sequence**
(:func:`skip_ai.stats.confidence_sequence`: Waudby-Smith & Ramdas' betting confidence
sequence, valid at every look at once, so stopping when it looks good does not inflate the
error) and the rung **stops** when

- *precise*: its half-width is at most ``target`` (every seat's, in a game played each for
  themselves), or
- *clear*: it lies ``margin`` or more beyond fair (a team game: team 0's score wholly above
  ½ + margin or below ½ − margin; each for themselves: some seat's share beyond 1/seats by
  ``margin``; a rung's agent may set its own margin, and 0.5 turns the rule off, so that a
  cheap rung goes to the target however unfair the game), or
- *capped*: the next look would pass ``cap_games``, or the games of the deals so far took
  ``cap_seconds`` game-seconds or more (the sum of the records' ``seconds``).

In a game played each for themselves every seat has its sequence at level 1 − 0.05/seats
(Bonferroni), so all of them hold together.

Every decision is a function of the records of the look's deals alone: the study replays the
same decisions on 1 or N workers, locally or on Ray, and after a resume — with one exception
said where it is configured: ``cap_seconds`` reads the recorded game-seconds, which depend on
the machine.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from skip_ai.balance.config import BalanceConfig, Precision
from skip_ai.balance.ladder import games_per_deal, selfplay_games, step_games, variant_size
from skip_ai.balance.metrics import headline_units, sides
from skip_ai.stats import confidence_sequence
from skip_ai.tournament.schedule import ScheduledGame

ALPHA = 0.05


@dataclass(frozen=True)
class RungPlan:
    """Where one variant's self-play rung stands."""

    variant: int
    rung: int
    deals: int  # the deals of the last look decided, or of the look being played
    stop: str | None  # "precise", "clear", "capped"; None while the look is played
    looks: int  # looks decided so far


def looks(precision: Precision, cap_deals: int) -> list[int]:
    """The deal counts at which the rule looks: ``first``, then × ``growth`` (at least one
    more each time), the last one the cap."""
    out = [min(precision.first, cap_deals)]
    while out[-1] < cap_deals:
        out.append(min(cap_deals, max(out[-1] + 1, math.ceil(out[-1] * precision.growth))))
    return out


def cap_deals(config: BalanceConfig, v: int, r: int) -> int:
    """The most deals rung ``r`` of variant ``v`` may play (its cap in games, per deal)."""
    return max(1, config.cap(v, r)[0] // games_per_deal(config, v))


def decide(units: np.ndarray, fair: float, target: float, margin: float) -> str | None:
    """The rule's decision on a look's units (rows: deals; columns: the sides whose headline
    is read — team 0 in a team game, every seat otherwise): "precise", "clear" or None."""
    alpha = ALPHA / units.shape[1]
    bounds = [confidence_sequence(units[:, k], 0.0, 1.0, alpha)[1:] for k in range(units.shape[1])]
    if any(lo >= fair + margin or hi <= fair - margin for lo, hi in bounds):
        return "clear"
    if all((hi - lo) / 2 <= target for lo, hi in bounds):
        return "precise"
    return None


def plan(config: BalanceConfig, records: pd.DataFrame) -> list[RungPlan]:
    """Every (variant, rung) as far as ``records`` (every recorded game, failed ones included)
    decide it."""
    # each rung's self-play, by the first three parts of the match id (V/self/R), split once
    rung = records.match_id.astype(str).str.rsplit("/", n=2).str[0]
    by_rung = dict(tuple(records.groupby(rung))) if len(records) else {}
    return [
        _rung_plan(config, by_rung.get(f"{v}/self/{r}", records.iloc[:0]), v, r)
        for v in range(len(config.games))
        for r in range(len(config.rungs(v)))
    ]


def _rung_plan(config: BalanceConfig, mine: pd.DataFrame, v: int, r: int) -> RungPlan:
    """Where rung ``r`` of variant ``v`` stands, from its recorded self-play games ``mine``."""
    count = mine.groupby("deal").size() if len(mine) else pd.Series(dtype=int)
    per_deal = games_per_deal(config, v)
    points = looks(config.precision, cap_deals(config, v, r))
    for k, n in enumerate(points):
        if (count.reindex(range(n), fill_value=0) < per_deal).any():
            return RungPlan(v, r, n, None, k)  # this look is being played
        look = mine[mine.deal < n]
        units = headline_units(look[look.status == "ok"], config.games[v], per_deal)
        fair, margin = sides(config.games[v]).fair, config.cap(v, r)[2]
        stop = decide(units, fair, config.precision.target, margin) if len(units) else None
        if stop is None and (k == len(points) - 1 or look.seconds.sum() >= config.cap(v, r)[1]):
            stop = "capped"
        if stop is not None:
            return RungPlan(v, r, n, stop, k + 1)
    raise AssertionError("the last look always stops")  # pragma: no cover


def schedule(config: BalanceConfig, plans: list[RungPlan]) -> Iterator[ScheduledGame]:
    """The self-play games of every rung up to its planned deals, then the steps of the
    ladder (``trace_deals`` duplicate deals each, played with the first look)."""
    for p in plans:
        yield from selfplay_games(config, p.variant, p.rung, range(p.deals))
    for v in range(len(config.games)):
        for r in range(1, len(config.rungs(v))):
            yield from step_games(config, v, r, range(config.trace_deals))


def size(config: BalanceConfig, plans: list[RungPlan]) -> int:
    """How many games :func:`schedule` yields, counted without listing them."""
    selfplay = sum(p.deals * games_per_deal(config, p.variant) for p in plans)
    steps = sum(variant_size(config, v, 0, config.trace_deals) for v in range(len(config.games)))
    return selfplay + steps


def done(plans: list[RungPlan]) -> bool:
    return all(p.stop is not None for p in plans)
