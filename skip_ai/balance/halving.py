"""Successive halving across variants: spend the deals on the variants still in contention.

With ``[halving]`` (``rounds`` R, the deciding ``rung``) a study plays in rounds. Round k
brings every variant still in contention up to ⌈deals / 2^(R−k)⌉ self-play deals per rung
and ⌈trace_deals / 2^(R−k)⌉ duplicate deals per step: the deal counts double from round to
round and the last round reaches the study's. After every round but the last, each variant's
objective (the ``[objective]`` penalty, smaller is better) is measured on its self-play at
the deciding rung, with a 95% interval; within each game, a variant whose interval lies
entirely above the best variant's (the smallest penalty) interval is *dropped*: it plays no
more deals. Variants alone in their game are never dropped.

The games keep the ids and seeds they have without halving (deal ``d`` of a variant is the
same game in both), so halving only decides which games are played. The decisions are a
function of the recorded games, replayed by :func:`plan` whenever the study runs or reports:
they come out the same on 1 or N workers and after a resume.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import pandas as pd

from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.ladder import variant_games, variant_size
from skip_ai.balance.metrics import selfplay_table, sides, skill_depth, split, trace_table
from skip_ai.balance.variants import penalty_interval
from skip_ai.tournament.schedule import ScheduledGame

VERDICT_COLUMNS = ["round", "game", "deals", "penalty", "lo", "hi", "best", "dropped"]


@dataclass(frozen=True)
class Round:
    number: int  # 1 … rounds
    deals: int  # self-play deals per variant and rung once the round is played
    trace_deals: int  # duplicate deals per step once the round is played
    contenders: tuple[int, ...]  # the variants (indices into config.games) that play it
    complete: bool  # every game of the round is recorded
    verdicts: pd.DataFrame  # after a complete round but the last: VERDICT_COLUMNS per contender


def round_deals(config: BalanceConfig, k: int) -> tuple[int, int]:
    """(self-play, trace) deals per variant once round ``k`` is played (0 for k = 0)."""
    if k == 0:
        return 0, 0
    halve = 2 ** (config.halving.rounds - k)
    return math.ceil(config.deals / halve), math.ceil(config.trace_deals / halve)


def round_games(config: BalanceConfig, k: int, contenders: tuple[int, ...]):
    """The games round ``k`` adds for ``contenders``."""
    (d0, t0), (d1, t1) = round_deals(config, k - 1), round_deals(config, k)
    for v in contenders:
        yield from variant_games(config, v, range(d0, d1), range(t0, t1))


def plan(config: BalanceConfig, records: pd.DataFrame) -> list[Round]:
    """The rounds as far as ``records`` (every recorded game, failed ones included) decide
    them: the complete rounds with their verdicts, then the first incomplete one (or the last
    round)."""
    done = set(records.match_id)
    ok = records[records.status == "ok"]
    contenders = tuple(range(len(config.games)))
    rounds = []
    for k in range(1, config.halving.rounds + 1):
        deals, trace_deals = round_deals(config, k)
        complete = all(g.match_id in done for g in round_games(config, k, contenders))
        last = not complete or k == config.halving.rounds
        verdicts = (
            pd.DataFrame(columns=VERDICT_COLUMNS) if last else contention(config, ok, contenders, k)
        )
        rounds.append(Round(k, deals, trace_deals, contenders, complete, verdicts))
        if last:
            return rounds
        dropped = set(verdicts.game[verdicts.dropped])
        contenders = tuple(v for v in contenders if config.games[v] not in dropped)
    return rounds


def schedule(config: BalanceConfig, rounds: list[Round]) -> Iterator[ScheduledGame]:
    """The games of ``rounds``, round by round."""
    for r in rounds:
        yield from round_games(config, r.number, r.contenders)


def size(config: BalanceConfig, rounds: list[Round]) -> int:
    """How many games :func:`schedule` yields."""
    total = 0
    for r in rounds:
        (d0, t0), (d1, t1) = round_deals(config, r.number - 1), round_deals(config, r.number)
        total += sum(variant_size(config, v, d1 - d0, t1 - t0) for v in r.contenders)
    return total


def contention(
    config: BalanceConfig,
    records: pd.DataFrame,
    contenders: tuple[int, ...],
    k: int,
) -> pd.DataFrame:
    """After round ``k``, per contender: its penalty with a 95% interval on the round's deals
    (the deciding rung's self-play; its steps for the skill depth), the best of its game and
    whether it is dropped (its interval entirely above the best's)."""
    rung = config.halving.rung
    deals, trace_deals = round_deals(config, k)
    games = [config.games[v] for v in contenders]
    selfplay, steps = split(records[records.match_id.str.match(_ids(contenders))])
    selfplay = selfplay[(selfplay.rung == rung) & (selfplay.deal < deals)]
    table = selfplay_table(selfplay)
    trace = trace_table(steps[steps.deal < trace_deals])
    rows = [
        {"game": game, "deals": deals, **_penalty_interval(config, game, table, trace)}
        for game in games
    ]
    out = pd.DataFrame(rows, columns=["game", "deals", "penalty", "lo", "hi"])
    out["family"] = [sides(g).family for g in out.game]
    valid = out.dropna(subset=["penalty"])  # a variant without records is never dropped
    best = valid.loc[valid.groupby("family").penalty.idxmin()].set_index("family")
    out["best"] = best.game.reindex(out.family).to_numpy()
    out["dropped"] = out.lo > best.hi.reindex(out.family).to_numpy()
    return out.assign(round=k)[VERDICT_COLUMNS]


def _ids(contenders: tuple[int, ...]) -> str:
    return "^(" + "|".join(str(v) for v in contenders) + ")/"


def _penalty_interval(
    config: BalanceConfig, game: str, table: pd.DataFrame, trace: pd.DataFrame
) -> dict[str, float]:
    """``game``'s penalty and its interval (:func:`~skip_ai.balance.variants.penalty_interval`)
    on its deciding rung's self-play table."""
    s = sides(game)
    at = table[table.game == game].set_index("measure")
    if s.headline not in at.index:
        return {"penalty": math.nan, "lo": math.nan, "hi": math.nan}
    value, lo, hi = penalty_interval(
        config.objective,
        s.fair,
        tuple(at.loc[s.headline, ["value", "lo", "hi"]]),
        tuple(at.loc["moves", ["value", "lo", "hi"]]),
        (0.0, 0.0, 0.0),
        skill_depth(trace, game),
    )
    return {"penalty": value, "lo": lo, "hi": hi}
