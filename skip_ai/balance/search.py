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
   ``weaker``. A finalist is *admissible* when its skill depth (the rung's score against the
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
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from skip_ai.balance import levers, search_methods
from skip_ai.balance.config import BalanceConfig, parse_balance_config
from skip_ai.balance.ladder import selfplay_games, step_games, variant_size
from skip_ai.balance.metrics import (
    headline_units,
    per_deal_of,
    sides,
    split,
    step_margins,
)
from skip_ai.balance.progress import recorded
from skip_ai.pyspiel_wrapper import load, spec_of
from skip_ai.stats import betting_interval, paired_interval
from skip_ai.tournament.config import ConfigError, read_toml
from skip_ai.tournament.runner import BatchSummary, run_batch
from skip_ai.tournament.schedule import ScheduledGame

RUNG, WEAKER = 1, 0
"""The search batch's ladder: (weaker, rung)."""
METHODS = ("halving", "ntbea")
RUNNERS_UP = 2
"""Admissible finalists re-measured beside the winner."""


@dataclass(frozen=True)
class Search:
    game: str  # the rules (full game string)
    method: str
    rung: int  # indices into the study's agents
    weaker: int
    seed: int
    budget: int  # self-play games
    finalists: int = 4
    final_deals: int = 200
    depth_deals: int = 100
    length_factor: float = 1.5
    levers: dict[str, list] | None = None
    ntbea: search_methods.NtbeaSettings = field(default_factory=search_methods.NtbeaSettings)

    def identity(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["ntbea"] = dataclasses.asdict(self.ntbea)
        return out


@dataclass(frozen=True)
class SearchConfig:
    study: BalanceConfig  # the re-measure (its games: the rules until the search has chosen)
    search: Search
    candidates: tuple[str, ...]  # the lever space, the rules first

    @property
    def out(self) -> Path:
        return self.study.out / "search"


@dataclass(frozen=True)
class SearchBatch(BalanceConfig):
    """The search's games as a batch of the runner: the candidates as the variants, the
    ladder (weaker, rung), the search's seed; its identity names the search."""

    search: dict = field(default_factory=dict)

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "kind": "lever search", "search": self.search}


# --- the config ----------------------------------------------------------------------------

_SEARCH_FIELDS = {
    "game",
    "method",
    "rung",
    "weaker",
    "seed",
    "budget",
    "finalists",
    "final_deals",
    "depth_deals",
    "length_factor",
    "levers",
    "ntbea",
}


def is_search_file(path: str | Path) -> bool:
    """Does the config at ``path`` hold a ``[search]`` table?"""
    return "search" in read_toml(path)


def load_search_config(path: str | Path, game: str | None = None) -> SearchConfig:
    """Read and check a search config; with ``game`` (``--search GAME``), a study config
    becomes a search of that game's levers with the defaults of ``[search]``, its ladder
    without the learned agents (each model was trained on one variant), named
    ``NAME-GAME-levers`` and written to ``runs/NAME-GAME-levers`` (``--out`` overrides)."""
    raw = read_toml(path)
    if game is not None:
        raw = {k: v for k, v in raw.items() if k not in ("games", "halving")}
        raw["search"] = {**raw.get("search", {}), "game": game}
        # the variants searched are new games: no model was trained on them
        raw["agents"] = [a for a in raw.get("agents", []) if "model=" not in str(a.get("spec"))]
        # its own batch and folder: the study's hold the study
        raw["name"] = f"{raw.get('name', 'study')}-{game.split('(')[0].strip()}-levers"
        raw["out"] = f"runs/{raw['name']}"
    return parse_search_config(raw, str(path))


def parse_search_config(raw: dict, source: str = "config") -> SearchConfig:
    def fail(msg: str) -> ConfigError:
        return ConfigError(f"{source}: {msg}")

    table = raw.get("search")
    if not isinstance(table, dict):
        raise fail(f"[search] must be a table (got {table!r})")
    if "games" in raw:
        raise fail("a search names its game in [search] 'game': leave out [[games]]")
    unknown = set(table) - _SEARCH_FIELDS
    if unknown:
        raise fail(
            f"[search] unknown field {sorted(unknown)[0]!r}; fields are "
            f"{', '.join(sorted(_SEARCH_FIELDS))}"
        )
    if not isinstance(table.get("game"), str):
        raise fail(f"[search] 'game' must be a game string (got {table.get('game')!r})")
    study_raw = {k: v for k, v in raw.items() if k != "search"}
    study = parse_balance_config({**study_raw, "games": [{"game": table["game"]}]}, source)
    names = [a.name for a in study.agents]
    rung = _name(table, "rung", names[1] if len(names) > 1 else None, names, fail)
    weaker = _name(table, "weaker", names[max(0, names.index(rung) - 1)], names, fail)
    if rung == weaker:
        raise fail(f"[search] 'weaker' must be another rung than 'rung' ({rung!r})")
    seed = _int(table, "seed", study.seed + 1, -(2**63), 2**63 - 1, fail)
    if seed == study.seed:
        raise fail(
            f"[search] 'seed' ({seed}) is the re-measure's seed: the winner must be "
            "re-measured on fresh deals, so give the search another"
        )
    lever_table = table.get("levers")
    if lever_table is not None and (
        not isinstance(lever_table, dict)
        or not all(isinstance(v, list) for v in lever_table.values())
    ):
        raise fail(
            f"[search.levers] must map lever names to lists of settings (got {lever_table!r})"
        )
    try:
        candidates = tuple(levers.space(study.games[0], lever_table))
    except ValueError as e:
        raise fail(f"[search] {e}") from None
    method = table.get("method", "halving")
    if method not in METHODS:
        raise fail(f"[search] 'method' must be one of {', '.join(METHODS)} (got {method!r})")
    search = Search(
        game=study.games[0],
        method=method,
        rung=names.index(rung),
        weaker=names.index(weaker),
        seed=seed,
        budget=_int(table, "budget", 20000, 2, 100_000_000, fail),
        finalists=_int(table, "finalists", 4, 1, len(candidates), fail),
        final_deals=_int(table, "final_deals", 200, 2, 10_000_000, fail),
        depth_deals=_int(table, "depth_deals", 100, 2, 10_000_000, fail),
        length_factor=_float(table, "length_factor", 1.5, 1.0, 100.0, fail),
        levers=lever_table,
        ntbea=_ntbea(table.get("ntbea", {}), fail),
    )
    config = SearchConfig(study, search, candidates)
    try:
        next(_method(config))  # a budget too small fails here, not later
    except ValueError as e:
        raise fail(f"[search] {e}") from None
    return config


def _name(table: dict, key: str, default: str | None, names: list[str], fail) -> str:
    value = table.get(key, default)
    if value not in names:
        raise fail(
            f"[search] {key!r} must name one of the [[agents]] ({', '.join(names)}); got {value!r}"
        )
    return value


def _int(table: dict, key: str, default: int, lo: int, hi: int, fail) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise fail(f"[search] {key!r} must be a whole number in [{lo}, {hi}] (got {value!r})")
    return value


def _float(table: dict, key: str, default: float, lo: float, hi: float, fail) -> float:
    value = table.get(key, default)
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not lo <= value <= hi
    ):
        raise fail(f"[search] {key!r} must be a finite number in [{lo}, {hi}] (got {value!r})")
    return float(value)


def _ntbea(table: Any, fail) -> search_methods.NtbeaSettings:
    if not isinstance(table, dict):
        raise fail(f"[search.ntbea] must be a table (got {table!r})")
    known = search_methods.NtbeaSettings.__dataclass_fields__
    unknown = set(table) - set(known)
    if unknown:
        raise fail(
            f"[search.ntbea] unknown field {sorted(unknown)[0]!r}; fields are {', '.join(known)}"
        )
    values = {
        "block": _int(table, "block", 10, 1, 100_000, fail),
        "population": _int(table, "population", 4, 1, 1000, fail),
        "neighbours": _int(table, "neighbours", 50, 1, 100_000, fail),
        "exploration": _float(table, "exploration", 0.3, 0.0, 100.0, fail),
    }
    return search_methods.NtbeaSettings(**values)


# --- the batch and its games ------------------------------------------------------------------


def search_batch(config: SearchConfig) -> SearchBatch:
    study, s = config.study, config.search
    return SearchBatch(
        name=f"{study.name}-search",
        seed=s.seed,
        deals=0,
        trace_deals=s.depth_deals,
        workers=study.workers,
        games_per_task=study.games_per_task,
        out=config.out,
        games=config.candidates,
        agents=(study.agents[s.weaker], study.agents[s.rung]),
        mirror=study.mirror,
        search=s.identity(),
    )


def per_deal(config: SearchConfig) -> int:
    """Self-play games per deal: 2 where the rules' deal has a mirror and the study mirrors."""
    return variant_size(search_batch(config), 0, 1, 0) // 2


def _method(config: SearchConfig) -> search_methods.Method:
    s = config.search
    fair = sides(s.game).fair
    deals = s.budget // per_deal(config)
    if s.method == "halving":
        return search_methods.halving(len(config.candidates), deals, fair)
    points = lever_points(config.candidates)
    rng = np.random.default_rng(s.seed)
    return search_methods.ntbea(points, deals, fair, rng, s.ntbea)


def lever_points(candidates: tuple[str, ...]) -> list[tuple[int, ...]]:
    """Each candidate as the indices of its settings, lever by lever (for NTBEA's tuples)."""
    names = [p.name for p in spec_of(candidates[0]).levers]
    values = [[load(c).resolved[n] for c in candidates] for n in names]
    axes = [sorted(set(v), key=lambda x: (str(type(x)), x)) for v in values]
    return [
        tuple(axes[i].index(values[i][c]) for i in range(len(names)))
        for c in range(len(candidates))
    ]


@dataclass(frozen=True)
class Plan:
    requests: list[search_methods.Request]  # every request so far, the last maybe unplayed
    ranking: list[int] | None  # the method's answer once it has one


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
    method = _method(config)
    requests: list[search_methods.Request] = []
    try:
        request = next(method)
        while True:
            requests.append(request)
            answer = [units.get(c, deals) for c, deals in request]
            if any(a is None for a in answer):
                return Plan(requests, None)
            request = method.send(answer)
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


def finalists(config: SearchConfig, ranking: list[int]) -> list[int]:
    """The rules and the ``finalists`` best other candidates of the ranking."""
    return [0] + [c for c in ranking if c != 0][: config.search.finalists]


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
    _write(out / "finalists.csv", table.to_csv(index=False))
    ranking = pd.DataFrame(
        {
            "rank": range(1, len(plan.ranking) + 1),
            "game": [config.candidates[c] for c in plan.ranking],
            "levers": [levers.describe(config.candidates[c]) for c in plan.ranking],
        }
    )
    _write(out / "ranking.csv", ranking.to_csv(index=False))
    path = config.study.out / "search.md"
    _write(path, search_text(config, table, plan, summary))
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


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


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
