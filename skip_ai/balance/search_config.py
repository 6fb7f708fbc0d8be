"""A lever search's config, its batch and the method it runs (:mod:`skip_ai.balance.search`
says what a search does; its module docstring shows the ``[search]`` table)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from skip_ai.balance import levers, search_methods
from skip_ai.balance.config import BalanceConfig, parse_balance_config
from skip_ai.balance.ladder import variant_size
from skip_ai.balance.metrics import sides
from skip_ai.pyspiel_wrapper import load, spec_of
from skip_ai.tournament.config import ConfigError, read_toml

RUNG, WEAKER = 1, 0
"""The search batch's ladder: (weaker, rung)."""
METHODS = ("halving", "ntbea")


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
    chosen = table.get("method", "halving")
    if chosen not in METHODS:
        raise fail(f"[search] 'method' must be one of {', '.join(METHODS)} (got {chosen!r})")
    search = Search(
        game=study.games[0],
        method=chosen,
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
        next(method(config))  # a budget too small fails here, not later
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


def method(config: SearchConfig) -> search_methods.Method:
    """The search's method, a new ask–tell generator (:mod:`~skip_ai.balance.search_methods`)."""
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
