"""The search for the fairest rules: a balance study's mode that goes through a game's levers.

A search config is a balance study's config whose ``[[games]]`` are replaced by ``[search]``:

```toml
name = "columns-levers"
seed = 4545                # the fresh deals: the re-measure's, fixed before the search
trace_deals = 60           # ... and its duplicate deals per step of the ladder
mirror = true
[precision]                # the re-measure, as any study (or deals = N)
...
[search]
game = "skip_columns(players=4)"  # the rules the levers change (its other parameters fixed)
method = "halving"         # or "ntbea" (skip_ai.balance.search_methods)
rung = "heuristic"         # whose self-play measures the distance from fair (an [[agents]] name)
weaker = "random"          # the rung it must beat as clearly as at the rules (skill depth)
seed = 45                  # the search's deals (must differ from the re-measure's)
budget = 20000             # self-play games the method may spend (a deal and its mirror: two)
finalists = 4              # the best candidates measured again, with the rules, on ...
final_deals = 200          # ... the same deals [0, final_deals) of the search's seed
depth_deals = 100          # ... and the rung against the weaker on duplicate deals
length_factor = 1.5        # a finalist's mean length within this factor of the rules'
[search.levers]            # optional: settings per lever (default: every setting of every one)
komi = [-2, 0, 2]
[search.ntbea]             # optional (method = "ntbea"): block, population, neighbours, exploration

[[agents]]                 # the re-measure's ladder; rung and weaker are named from it
...
```

It runs in three steps, each resumable (re-running the command plays only what is missing):

1. **The search** (``OUT/search/``): the method asks for deals of candidates (every candidate on
   the same deals, :mod:`~skip_ai.balance.search_methods`), which are played at ``rung`` in
   self-play (each deal with its mirror), until its budget is spent; it ranks the candidates.
   Its decisions are replayed from the records whenever the search runs, so they are the same
   after a resume and on any number of workers.
2. **The finalists**: the rules and the ``finalists`` best other candidates, each on the same
   ``final_deals`` deals at ``rung`` and ``depth_deals`` duplicate deals of ``rung`` against
   ``weaker``. A finalist is *admissible* when its skill depth (the rung's margin over the
   weaker) is not shown lower than the rules' (the paired betting interval of the difference
   does not lie below 0) and its mean length lies within ``length_factor`` of the rules'. The
   winner is the admissible finalist nearest fair on these deals (the rules if none is nearer).
3. **The re-measure** (``OUT/``): a balance study of the rules, the winner and up to two
   admissible runners-up on **fresh deals** (the config's own ``seed``, fixed before the
   search), climbing the config's ladder (its ISMCTS rung confirms): ``OUT/report.md`` with
   every interval as measured. ``OUT/search.md`` says what the search did and cost.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from skip_ai.balance import search_methods
from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.finalists import (
    finalist_table,
    finalists,
    remeasure_config,
    write_search_summary,
)
from skip_ai.balance.ladder import selfplay_games, step_games
from skip_ai.balance.metrics import headline_units, per_deal_of, split
from skip_ai.balance.progress import recorded
from skip_ai.balance.search_config import (
    RUNG,
    Plan,
    SearchBatch,
    SearchConfig,
    method,
    search_batch,
)
from skip_ai.tournament.runner import BatchSummary, run_batch
from skip_ai.tournament.schedule import ScheduledGame


class Units:
    """The headline per deal of every candidate, read from the search's records."""

    def __init__(self, records: pd.DataFrame):
        ok = records[records.status == "ok"]
        selfplay, self.steps = split(ok)
        selfplay = selfplay[selfplay.rung == RUNG]
        self.by_candidate: dict[int, pd.DataFrame] = {}
        for v, g in selfplay.groupby("variant"):
            g = g.sort_values(["deal", "mirrored"])
            units = headline_units(g, g.game.iloc[0], per_deal_of(g))
            deals = np.sort(g.deal.unique())[: len(units)]
            self.by_candidate[int(v)] = pd.DataFrame(units, index=deals)

    def get(self, c: int, deals: range) -> np.ndarray | None:
        """The units of candidate ``c`` on ``deals``; None if one is not recorded."""
        frame = self.by_candidate.get(c)
        if frame is None or not all(d in frame.index for d in deals):
            return None
        return frame.loc[list(deals)].to_numpy()


def replay(config: SearchConfig, records: pd.DataFrame) -> Plan:
    """The method's decisions as far as ``records`` answer its requests."""
    units = Units(records)
    asking = method(config)
    requests: list[search_methods.Request] = []
    try:
        request = next(asking)
        while True:
            requests.append(request)
            answer = [units.get(c, deals) for c, deals in request]
            if any(a is None for a in answer):
                return Plan(requests, None)
            request = asking.send(answer)
    except StopIteration as stop:
        return Plan(requests, stop.value)


def _search_games(
    batch: SearchBatch, requests: list[search_methods.Request]
) -> Iterator[ScheduledGame]:
    seen: set[str] = set()
    for request in requests:
        for c, deals in request:
            for g in selfplay_games(batch, c, RUNG, deals):
                if g.match_id not in seen:
                    seen.add(g.match_id)
                    yield g


def _final_games(batch: SearchBatch, config: SearchConfig, chosen: list[int]):
    s = config.search
    for c in chosen:
        yield from selfplay_games(batch, c, RUNG, range(s.final_deals))
        yield from step_games(batch, c, RUNG, range(s.depth_deals))


def _all_games(batch: SearchBatch, config: SearchConfig, plan: Plan) -> list[ScheduledGame]:
    games = {g.match_id: g for g in _search_games(batch, plan.requests)}
    if plan.ranking is not None:
        for g in _final_games(batch, config, finalists(config, plan.ranking)):
            games.setdefault(g.match_id, g)
    return list(games.values())


def run_search(
    config: SearchConfig,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: bool = True,
) -> tuple[BatchSummary, pd.DataFrame]:
    """Steps 1 and 2: play the search and the finalists (what is not recorded yet); the
    finalists' table (:func:`finalist_table`)."""
    batch = search_batch(config)
    runs = []
    while True:
        plan = replay(config, recorded(batch.out))
        games = _all_games(batch, config, plan)
        runs.append(
            run_batch(
                batch, lambda g=games: iter(g), len(games), workers, backend, progress, address
            )
        )
        if plan.ranking is not None:
            break
    summary = dataclasses.replace(
        runs[-1],
        before=runs[0].before,
        played=sum(r.played for r in runs),
        failed=sum(r.failed for r in runs),
        seconds=sum(r.seconds for r in runs),
    )
    return summary, finalist_table(config, recorded(batch.out), plan)


def run(
    config: SearchConfig,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: bool = True,
) -> tuple[Path, Path, BalanceConfig]:
    """The whole search: steps 1–3; returns ``OUT/search.md``, ``OUT/report.md`` and the
    re-measure's study config."""
    from skip_ai.balance.study import run_study

    summary, table = run_search(config, workers, backend, address, progress)
    plan = replay(config, recorded(config.out))
    remeasure = remeasure_config(config, table)
    summary_path = write_search_summary(config, table, plan, summary)
    _, report = run_study(remeasure, workers, backend, address, progress)
    return summary_path, report, remeasure
